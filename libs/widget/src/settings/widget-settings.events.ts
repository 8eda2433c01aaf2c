// Stored contract of a workspace's widget settings: which web origins may embed its want-list
// widget (empty: any). Internal: never delivered to webhooks.
import { z } from 'zod';

export const widgetSettingsChanged = z.object({
  /** Origins (`https://shop.example`) whose pages may send the want list; empty: any page. */
  allowedOrigins: z.array(z.string()),
  changedAt: z.string(),
});
export type WidgetSettingsChanged = z.infer<typeof widgetSettingsChanged>;

export type WidgetSettingsEvent = { type: 'widget.settings_changed'; data: WidgetSettingsChanged };

export const widgetSettingsStream = (workspaceId: string) => `widget_settings-${workspaceId}`;
