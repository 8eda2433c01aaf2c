// Read model of each workspace's widget settings (one document per workspace, id = workspace id).
import { documentProjection, type StreamDoc } from '@app/platform';

import { widgetSettingsChanged } from './widget-settings.events';

export interface WidgetSettingsDoc extends StreamDoc {
  workspaceId: string;
  allowedOrigins: string[];
  updatedAt: string;
}

export const WIDGET_SETTINGS = { name: 'widget_settings', indexes: [] } as const;

export const widgetSettingsProjection = documentProjection<WidgetSettingsDoc>({
  name: 'widget_settings',
  version: 1,
  // The settings routes' own read model (and the gate's, behind its cache): the PUT brings it up to date.
  inline: true,
  collection: WIDGET_SETTINGS,
  eventTypes: ['widget.settings_changed'],
  evolve(doc, event) {
    const d = widgetSettingsChanged.parse(event.data);
    return { ...doc, id: event.metadata.workspaceId, revision: event.revision, workspaceId: event.metadata.workspaceId, allowedOrigins: d.allowedOrigins, updatedAt: d.changedAt };
  },
});
