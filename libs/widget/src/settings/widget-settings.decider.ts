// A workspace's widget settings: one decision, replacing the allowed origins. The same list again
// (in any order, any duplicates) records nothing.
import type { Decider } from '@app/platform/domain';

import type { WidgetSettingsEvent } from './widget-settings.events';

export interface SetWidgetSettings {
  type: 'SetWidgetSettings';
  /** Normalized origins (scheme://host[:port], lowercase). */
  allowedOrigins: readonly string[];
  now: Date;
}

export type WidgetSettingsCommand = SetWidgetSettings;

export interface WidgetSettingsState {
  allowedOrigins: readonly string[];
  /** When they last changed; null: never set. */
  updatedAt: string | null;
}

const sortedUnique = (origins: readonly string[]): string[] => [...new Set(origins)].sort();

export const widgetSettingsDecider: Decider<WidgetSettingsCommand, WidgetSettingsEvent, WidgetSettingsState> = {
  initialState: { allowedOrigins: [], updatedAt: null },

  decide(command, state) {
    switch (command.type) {
      case 'SetWidgetSettings': {
        const allowedOrigins = sortedUnique(command.allowedOrigins);
        if (JSON.stringify(allowedOrigins) === JSON.stringify(state.allowedOrigins)) return [];
        return [{ type: 'widget.settings_changed', data: { allowedOrigins, changedAt: command.now.toISOString() } }];
      }
      default: {
        const never: never = command.type;
        throw new Error(`Unknown command ${String(never)}`);
      }
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'widget.settings_changed':
        return { allowedOrigins: event.data.allowedOrigins, updatedAt: event.data.changedAt };
      default: {
        const never: never = event.type;
        return never;
      }
    }
  },
};
