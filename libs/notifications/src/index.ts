// @app/notifications — the buyer emails' context: its Nest module (the process manager that emails
// the widget's buyers when a card they want is in stock, its timers, the notifications routes and
// the one-click unsubscribe). Its events (`buyer.notice_*`, `buyer.notified`, `buyer.unsubscribed`)
// are internal. Nothing else is its contract.
export { NotificationsModule } from './notifications.module';
