// @app/widget — the want-list widget's context: its Nest module (the script at /widget.js, the
// public want-list and card-suggestion routes, the admin settings), and the read-only port the
// notifications context reads the buyer emails' settings through.
export { WidgetModule } from './widget.module';
export { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './settings/widget-settings.events';
export { NOTIFICATION_SETTINGS_READER, type NotificationSettingsReader, type NotificationSettingsView } from './settings/widget-settings.queries';
