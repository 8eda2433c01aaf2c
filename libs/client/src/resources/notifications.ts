// notifications: the in-stock emails your want-list buyers get — each email (or the matches not
// emailed, and why) by pseudonymous buyer id (scope `read:requests`), a preview rendered with sample
// data, and the outbox the server writes them to when it has no SMTP server (scope `admin`).
import type { PagePromise } from '../core/pagination';
import type { Notification, NotificationListParams, NotificationOutbox, NotificationPreview } from '../types';
import { type RequestOptions, Resource } from './resource';

export class Notifications extends Resource {
  /** GET /notifications, newest first; `buyerId` for one buyer's. */
  list(query?: NotificationListParams, options?: RequestOptions): PagePromise<Notification> {
    return this.listRoute('/api/v1/notifications', { query }, options);
  }

  /** GET /notifications/preview: the email with sample data and your settings (subject, From, headers, text, HTML). */
  preview(options?: RequestOptions): Promise<NotificationPreview> {
    return this.call('/api/v1/notifications/preview', 'get', {}, options);
  }

  /** GET /notifications/outbox: the emails written to DATA_DIR/outbox (no SMTP_URL), newest first. */
  outbox(options?: RequestOptions): Promise<NotificationOutbox> {
    return this.call('/api/v1/notifications/outbox', 'get', {}, options);
  }

  /** GET /notifications/outbox/{id}: one email as sent (message/rfc822 text; it holds the buyer's address). */
  outboxMessage(id: string, options?: RequestOptions): Promise<string> {
    return this.callText('/api/v1/notifications/outbox/{id}', { path: { id } }, options);
  }
}
