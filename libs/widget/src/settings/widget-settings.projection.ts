// Read model of each workspace's widget settings (one document per workspace, id = workspace id):
// the allowed origins and the buyer emails' settings.
import { documentProjection, type StreamDoc } from '@app/platform';

import { type NotificationSettings, WIDGET_SETTINGS_EVENT_TYPES, widgetNotificationSettingsChanged, widgetSettingsChanged } from './widget-settings.events';

export interface WidgetSettingsDoc extends StreamDoc {
  workspaceId: string;
  allowedOrigins: string[];
  /** When the origins last changed; null: never set. */
  updatedAt: string | null;
  /** The buyer emails' settings; absent: never set (the defaults). */
  notifications?: NotificationSettings;
  notificationsUpdatedAt?: string | null;
}

export const WIDGET_SETTINGS = { name: 'widget_settings', indexes: [] } as const;

export const widgetSettingsProjection = documentProjection<WidgetSettingsDoc>({
  name: 'widget_settings',
  version: 2,
  // The settings routes' own read model (and the gate's, behind its cache): the PUT brings it up to date.
  inline: true,
  collection: WIDGET_SETTINGS,
  eventTypes: WIDGET_SETTINGS_EVENT_TYPES,
  evolve(doc, event) {
    const base: WidgetSettingsDoc = doc ?? { id: event.metadata.workspaceId, revision: event.revision, workspaceId: event.metadata.workspaceId, allowedOrigins: [], updatedAt: null };
    if (event.type === 'widget.notification_settings_changed') {
      const { changedAt, ...notifications } = widgetNotificationSettingsChanged.parse(event.data);
      return { ...base, revision: event.revision, notifications, notificationsUpdatedAt: changedAt };
    }
    const d = widgetSettingsChanged.parse(event.data);
    return { ...base, revision: event.revision, allowedOrigins: d.allowedOrigins, updatedAt: d.changedAt };
  },
});
