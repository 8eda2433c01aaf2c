// Stored contract of a workspace's widget settings: which web origins may embed its want-list
// widget (empty: any), and how the buyers who leave a want list are emailed when a card they want
// is in stock (on or off, the shop's name, reply-to address and URL). Internal: never delivered to
// webhooks.
import { z } from 'zod';

export const widgetSettingsChanged = z.object({
  /** Origins (`https://shop.example`) whose pages may send the want list; empty: any page. */
  allowedOrigins: z.array(z.string()),
  changedAt: z.string(),
});
export type WidgetSettingsChanged = z.infer<typeof widgetSettingsChanged>;

/** The buyer emails' settings: the whole set after the change. */
export const notificationSettings = z.object({
  /** Whether buyers are emailed when a card they want is in stock. */
  enabled: z.boolean(),
  /** The shop's name as the email shows it (From, subject, signature); null: the workspace's name. */
  shopName: z.string().nullable(),
  /** Where the buyer's replies go; null: no Reply-To. */
  replyTo: z.string().nullable(),
  /** The shop's web address the email links to (https, or http://localhost); null: no link. */
  shopUrl: z.string().nullable(),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

export const widgetNotificationSettingsChanged = notificationSettings.extend({ changedAt: z.string() });
export type WidgetNotificationSettingsChanged = z.infer<typeof widgetNotificationSettingsChanged>;

/** Before any are set: emails on, the workspace's name, no reply-to, no shop link. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { enabled: true, shopName: null, replyTo: null, shopUrl: null };

export type WidgetSettingsEvent =
  | { type: 'widget.settings_changed'; data: WidgetSettingsChanged }
  | { type: 'widget.notification_settings_changed'; data: WidgetNotificationSettingsChanged };

export const WIDGET_SETTINGS_EVENT_TYPES = ['widget.settings_changed', 'widget.notification_settings_changed'] as const;

export const widgetSettingsStream = (workspaceId: string) => `widget_settings-${workspaceId}`;
