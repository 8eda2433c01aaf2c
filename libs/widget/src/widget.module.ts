// The want-list widget: its script, its public routes (whether it works on a page, card
// suggestions, want lists that become buyer requests through demand's command) and each
// workspace's settings (allowed origins).
import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { AccessModule } from '@app/access';
import { ProjectionRunner } from '@app/platform';

import { WantListController } from './public/want-list.http';
import { WidgetAvailabilityController } from './public/widget-availability.http';
import { WidgetGate } from './public/widget-gate';
import { WIDGET_SETTINGS_HANDLERS } from './settings/widget-settings.handlers';
import { WidgetSettingsController } from './settings/widget-settings.http';
import { widgetSettingsProjection } from './settings/widget-settings.projection';
import { NOTIFICATION_SETTINGS_READER, NotificationSettingsReadModel, WidgetSettingsReader } from './settings/widget-settings.queries';
import { WidgetScriptController } from './web/widget.http';

@Module({
  imports: [CqrsModule, AccessModule],
  controllers: [WidgetScriptController, WidgetAvailabilityController, WantListController, WidgetSettingsController],
  providers: [
    ...WIDGET_SETTINGS_HANDLERS,
    WidgetSettingsReader,
    WidgetGate,
    NotificationSettingsReadModel,
    { provide: NOTIFICATION_SETTINGS_READER, useExisting: NotificationSettingsReadModel },
  ],
  exports: [NOTIFICATION_SETTINGS_READER],
})
export class WidgetModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(widgetSettingsProjection);
  }
}
