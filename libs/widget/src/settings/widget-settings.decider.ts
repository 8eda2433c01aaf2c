// A workspace's widget settings: two decisions, each replacing its part — the allowed origins, and
// the buyer emails' settings. The same values again (origins in any order, any duplicates) record
// nothing.
import type { Decider } from '@app/platform/domain';

import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings, type WidgetSettingsEvent } from './widget-settings.events';

export interface SetWidgetSettings {
  type: 'SetWidgetSettings';
  /** Normalized origins (scheme://host[:port], lowercase). */
  allowedOrigins: readonly string[];
  now: Date;
}

export interface SetNotificationSettings {
  type: 'SetNotificationSettings';
  /** Validated: the shop URL https (or http://localhost), the reply-to an address. */
  settings: NotificationSettings;
  now: Date;
}

export type WidgetSettingsCommand = SetWidgetSettings | SetNotificationSettings;

export interface WidgetSettingsState {
  allowedOrigins: readonly string[];
  /** When they last changed; null: never set. */
  updatedAt: string | null;
  notifications: NotificationSettings;
  /** When the notification settings last changed; null: never set. */
  notificationsUpdatedAt: string | null;
}

const sortedUnique = (origins: readonly string[]): string[] => [...new Set(origins)].sort();

const sameNotifications = (a: NotificationSettings, b: NotificationSettings): boolean =>
  a.enabled === b.enabled && a.shopName === b.shopName && a.replyTo === b.replyTo && a.shopUrl === b.shopUrl;

export const widgetSettingsDecider: Decider<WidgetSettingsCommand, WidgetSettingsEvent, WidgetSettingsState> = {
  initialState: { allowedOrigins: [], updatedAt: null, notifications: DEFAULT_NOTIFICATION_SETTINGS, notificationsUpdatedAt: null },

  decide(command, state) {
    switch (command.type) {
      case 'SetWidgetSettings': {
        const allowedOrigins = sortedUnique(command.allowedOrigins);
        if (JSON.stringify(allowedOrigins) === JSON.stringify(state.allowedOrigins)) return [];
        return [{ type: 'widget.settings_changed', data: { allowedOrigins, changedAt: command.now.toISOString() } }];
      }
      case 'SetNotificationSettings': {
        const { enabled, shopName, replyTo, shopUrl } = command.settings;
        const next = { enabled, shopName, replyTo, shopUrl };
        if (state.notificationsUpdatedAt !== null && sameNotifications(next, state.notifications)) return [];
        return [{ type: 'widget.notification_settings_changed', data: { ...next, changedAt: command.now.toISOString() } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'widget.settings_changed':
        return { ...state, allowedOrigins: event.data.allowedOrigins, updatedAt: event.data.changedAt };
      case 'widget.notification_settings_changed': {
        const { changedAt, ...notifications } = event.data;
        return { ...state, notifications, notificationsUpdatedAt: changedAt };
      }
      default: {
        const never: never = event;
        return never;
      }
    }
  },
};
