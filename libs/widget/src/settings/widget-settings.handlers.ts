// Changing a workspace's widget settings through the write path. The decided settings are put
// in force in this process's gate (WidgetSettingsReader) before the command returns, so the
// answer to the PUT means the list is in force — not once a cache catches up; the read model the
// GET reads is inline, written by the change itself.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore } from '@app/platform';
import { handleCommand, type RecordedEvent } from '@app/platform/domain';

import { widgetSettingsDecider } from './widget-settings.decider';
import { type NotificationSettings, type WidgetSettingsEvent, widgetNotificationSettingsChanged, widgetSettingsChanged, widgetSettingsStream } from './widget-settings.events';
import { type VersionedWidgetSettings, WidgetSettingsReader } from './widget-settings.queries';

const widgetSettingsAggregate = {
  decider: widgetSettingsDecider,
  parseEvent(event: RecordedEvent): WidgetSettingsEvent {
    if (event.type === 'widget.settings_changed') return { type: event.type, data: widgetSettingsChanged.parse(event.data) };
    if (event.type === 'widget.notification_settings_changed') return { type: event.type, data: widgetNotificationSettingsChanged.parse(event.data) };
    throw new Error(`Not a widget settings event: ${event.type}`);
  },
};

/**
 * The settings as decided (folded from the log), at the revision the write left: the same list
 * again answers them as they are.
 */
export class SetWidgetSettingsCommand extends Command<VersionedWidgetSettings> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly allowedOrigins: readonly string[],
    readonly correlationId?: string,
    /** `If-Match`: the settings' revision the change was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(SetWidgetSettingsCommand)
export class SetWidgetSettingsHandler implements ICommandHandler<SetWidgetSettingsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly reader: WidgetSettingsReader,
  ) {}

  async execute({ workspaceId, actor, allowedOrigins, correlationId, ifMatch }: SetWidgetSettingsCommand): Promise<VersionedWidgetSettings> {
    const result = await handleCommand(
      this.events,
      widgetSettingsStream(workspaceId),
      widgetSettingsAggregate,
      { type: 'SetWidgetSettings', allowedOrigins, now: this.clock.now() },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    const settings = { allowedOrigins: [...result.state.allowedOrigins], updatedAt: result.state.updatedAt };
    this.reader.inForce(workspaceId, settings, result.revision);
    return { view: settings, revision: result.revision };
  }
}

/** The buyer emails' settings as decided, at the revision the write left (`notificationsUpdatedAt` null: never set). */
export interface VersionedNotificationSettings {
  settings: NotificationSettings;
  updatedAt: string | null;
  revision: number;
}

export class SetNotificationSettingsCommand extends Command<VersionedNotificationSettings> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly settings: NotificationSettings,
    readonly correlationId?: string,
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(SetNotificationSettingsCommand)
export class SetNotificationSettingsHandler implements ICommandHandler<SetNotificationSettingsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, settings, correlationId, ifMatch }: SetNotificationSettingsCommand): Promise<VersionedNotificationSettings> {
    const result = await handleCommand(
      this.events,
      widgetSettingsStream(workspaceId),
      widgetSettingsAggregate,
      { type: 'SetNotificationSettings', settings, now: this.clock.now() },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    return { settings: result.state.notifications, updatedAt: result.state.notificationsUpdatedAt, revision: result.revision };
  }
}

export const WIDGET_SETTINGS_HANDLERS = [SetWidgetSettingsHandler, SetNotificationSettingsHandler];
