// Changing a workspace's widget settings through the write path, and reading them: the admin
// routes read the read model; the public routes read it through a one-second cache (a change
// applies within a second in every API process, without a read per public request).
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, READ_STORE, type ReadStore } from '@app/platform';
import { handleCommand, type RecordedEvent } from '@app/platform/domain';

import { widgetSettingsDecider } from './widget-settings.decider';
import { type WidgetSettingsEvent, widgetSettingsChanged, widgetSettingsStream } from './widget-settings.events';
import { WIDGET_SETTINGS, type WidgetSettingsDoc } from './widget-settings.projection';

const widgetSettingsAggregate = {
  decider: widgetSettingsDecider,
  parseEvent(event: RecordedEvent): WidgetSettingsEvent {
    if (event.type !== 'widget.settings_changed') throw new Error(`Not a widget settings event: ${event.type}`);
    return { type: event.type, data: widgetSettingsChanged.parse(event.data) };
  },
};

export class SetWidgetSettingsCommand extends Command<{ position: number | null }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly allowedOrigins: readonly string[],
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(SetWidgetSettingsCommand)
export class SetWidgetSettingsHandler implements ICommandHandler<SetWidgetSettingsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, allowedOrigins, correlationId }: SetWidgetSettingsCommand): Promise<{ position: number | null }> {
    const result = await handleCommand(
      this.events,
      widgetSettingsStream(workspaceId),
      widgetSettingsAggregate,
      { type: 'SetWidgetSettings', allowedOrigins, now: this.clock.now() },
      { workspaceId, actor, correlationId },
    );
    return { position: result.position };
  }
}

export interface WidgetSettingsView {
  allowedOrigins: string[];
  updatedAt: string | null;
}

const CACHE_TTL_MS = 1000;
const MAX_CACHED = 10_000;

@Injectable()
export class WidgetSettingsReader {
  private readonly cache = new Map<string, { expiresAt: number; settings: Promise<WidgetSettingsView> }>();

  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  /** The settings as the read model holds them now. */
  async current(workspaceId: string): Promise<WidgetSettingsView> {
    const doc = await this.reads.collection<WidgetSettingsDoc>(WIDGET_SETTINGS).get(workspaceId);
    return { allowedOrigins: doc?.allowedOrigins ?? [], updatedAt: doc?.updatedAt ?? null };
  }

  /** The settings, read at most once a second per workspace. */
  cached(workspaceId: string): Promise<WidgetSettingsView> {
    const now = performance.now();
    const hit = this.cache.get(workspaceId);
    if (hit && hit.expiresAt > now) return hit.settings;
    const settings = this.current(workspaceId);
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(workspaceId, { expiresAt: now + CACHE_TTL_MS, settings });
    settings.catch(() => this.cache.delete(workspaceId));
    return settings;
  }
}

export const WIDGET_SETTINGS_HANDLERS = [SetWidgetSettingsHandler];
