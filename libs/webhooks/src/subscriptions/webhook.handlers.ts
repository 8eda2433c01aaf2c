// Commands and queries of webhook subscriptions: create (the secret is returned once and stored
// sealed), update, enable/disable, rotate the secret, delete, list and read.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import {
  ApiError,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  handleCommand,
  ID_GENERATOR,
  type IdGenerator,
  type Page,
  READ_STORE,
  type ReadStore,
  SECRET_BOX,
  type SecretBox,
} from '@app/platform';

import { sealContext } from '../delivery/delivery-sender';
import { WEBHOOK_HEALTH, type WebhookHealthDoc } from '../delivery/delivery.projection';
import { generateWebhookSecret } from '../delivery/signing';
import { checkWebhookTarget } from '../delivery/target-guard';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { webhookAggregate } from './webhook.aggregate';
import { type StoredSecret, webhookStream } from './webhook.events';
import { WEBHOOKS, type WebhookDoc } from './webhook.projection';

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: WebhookDoc['disabledReason'];
  disabledDetail: string | null;
  disabledAt: string | null;
  /** Since when every delivery attempt has failed (null when the last one succeeded). */
  failingSince: string | null;
  /** After a re-enable: the period it was off, what `POST …/replay {from, to}` re-delivers. */
  missedWhileDisabled: { from: string; to: string } | null;
  /** When the current secret was created; retired secrets sign until `previousSecretsExpireAt`. */
  secretCreatedAt: string;
  previousSecretsExpireAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Written<T> {
  value: T;
  position: number;
}

export function toWebhookView(doc: WebhookDoc, health: WebhookHealthDoc | null, now: Date): WebhookView {
  const retired = doc.secrets.slice(1).filter((s) => s.expiresAt !== null && s.expiresAt > now.toISOString());
  return {
    id: doc.id,
    url: doc.url,
    events: doc.events,
    description: doc.description,
    status: doc.status,
    disabledReason: doc.disabledReason,
    disabledDetail: doc.disabledDetail,
    disabledAt: doc.disabledAt,
    failingSince: health?.failingSince ?? null,
    missedWhileDisabled: doc.status === 'enabled' ? doc.lastDisabled : null,
    secretCreatedAt: doc.secrets[0].createdAt,
    previousSecretsExpireAt: retired.length > 0 ? retired.map((s) => s.expiresAt as string).sort().at(-1) ?? null : null,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** Refuses a url the dispatcher would refuse: scheme, credentials, private or metadata addresses. */
async function assertDeliverable(url: string, settings: WebhookSettings): Promise<void> {
  const check = await checkWebhookTarget(url, settings.policy);
  if (!check.ok) throw ApiError.validation(`Invalid body field "url": ${check.message}`, [{ path: 'url', message: check.message }]);
}

function seal(box: SecretBox, webhookId: string, secret: string, now: Date): StoredSecret {
  return { sealed: box.seal(secret, sealContext(webhookId)), createdAt: now.toISOString(), expiresAt: null };
}

export class CreateWebhookCommand extends Command<Written<{ id: string; secret: string }>> {
  constructor(
    readonly workspaceId: string,
    readonly url: string,
    readonly events: readonly string[],
    readonly description: string | null,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async execute(command: CreateWebhookCommand): Promise<Written<{ id: string; secret: string }>> {
    await assertDeliverable(command.url, this.settings);
    const count = await this.reads.collection<WebhookDoc>(WEBHOOKS).count({ workspaceId: command.workspaceId });
    const max = this.settings.maxPerWorkspace;
    if (count >= max) {
      throw new ApiError(409, 'LIMIT_EXCEEDED', `A workspace has at most ${max} webhooks; delete one first`, { limit: 'webhooks_per_workspace', max });
    }
    const webhookId = this.ids.next('wh');
    const secret = generateWebhookSecret();
    const now = this.clock.now();
    const result = await handleCommand(
      this.events,
      webhookStream(webhookId),
      webhookAggregate,
      {
        type: 'CreateWebhook',
        webhookId,
        workspaceId: command.workspaceId,
        url: command.url,
        events: [...new Set(command.events)],
        description: command.description,
        secret: seal(this.box, webhookId, secret, now),
        now,
      },
      { workspaceId: command.workspaceId, actor: command.actor },
      { newStream: true },
    );
    return { value: { id: webhookId, secret }, position: result.position ?? 0 };
  }
}

export interface WebhookChanges {
  url?: string;
  events?: readonly string[];
  description?: string | null;
  enabled?: boolean;
}

export class UpdateWebhookCommand extends Command<{ position: number | null }> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly changes: WebhookChanges,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async execute({ workspaceId, webhookId, changes, actor }: UpdateWebhookCommand): Promise<{ position: number | null }> {
    if (changes.url !== undefined) await assertDeliverable(changes.url, this.settings);
    const meta = { workspaceId, actor };
    const stream = webhookStream(webhookId);
    let position: number | null = null;
    const { url, events, description } = changes;
    if (url !== undefined || events !== undefined || description !== undefined) {
      const now = this.clock.now();
      const uniqueEvents = events ? [...new Set(events)] : undefined;
      const result = await handleCommand(this.events, stream, webhookAggregate, { type: 'UpdateWebhook', webhookId, workspaceId, url, events: uniqueEvents, description, now }, meta);
      position = result.position ?? position;
    }
    if (changes.enabled !== undefined) {
      const now = this.clock.now();
      const command = changes.enabled
        ? ({ type: 'EnableWebhook', webhookId, workspaceId, now } as const)
        : ({ type: 'DisableWebhook', webhookId, workspaceId, reason: 'manual', detail: 'disabled through the API', now } as const);
      const result = await handleCommand(this.events, stream, webhookAggregate, command, meta);
      position = result.position ?? position;
    }
    if (position === null) {
      // Nothing changed: still a 404 for a webhook that is not there.
      await handleCommand(this.events, stream, webhookAggregate, { type: 'UpdateWebhook', webhookId, workspaceId, now: this.clock.now() }, meta);
    }
    return { position };
  }
}

export class RotateWebhookSecretCommand extends Command<Written<{ secret: string }>> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async execute({ workspaceId, webhookId, actor }: RotateWebhookSecretCommand): Promise<Written<{ secret: string }>> {
    const secret = generateWebhookSecret();
    const now = this.clock.now();
    const result = await handleCommand(
      this.events,
      webhookStream(webhookId),
      webhookAggregate,
      { type: 'RotateWebhookSecret', webhookId, workspaceId, secret: seal(this.box, webhookId, secret, now), overlapMs: this.settings.secretOverlapMs, now },
      { workspaceId, actor },
    );
    return { value: { secret }, position: result.position ?? 0 };
  }
}

export class DeleteWebhookCommand extends Command<{ position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, webhookId, actor }: DeleteWebhookCommand): Promise<{ position: number }> {
    const result = await handleCommand(
      this.events,
      webhookStream(webhookId),
      webhookAggregate,
      { type: 'DeleteWebhook', webhookId, workspaceId, now: this.clock.now() },
      { workspaceId, actor },
    );
    return { position: result.position ?? 0 };
  }
}

export class GetWebhookQuery extends Query<WebhookView | null> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, webhookId }: GetWebhookQuery): Promise<WebhookView | null> {
    const doc = await this.reads.collection<WebhookDoc>(WEBHOOKS).get(webhookId);
    if (!doc || doc.workspaceId !== workspaceId) return null;
    const health = await this.reads.collection<WebhookHealthDoc>(WEBHOOK_HEALTH).get(webhookId);
    return toWebhookView(doc, health, this.clock.now());
  }
}

export class ListWebhooksQuery extends Query<Page<WebhookView>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, limit, cursor }: ListWebhooksQuery): Promise<Page<WebhookView>> {
    const page = await this.reads
      .collection<WebhookDoc>(WEBHOOKS)
      .find({ workspaceId }, { sort: [['createdAt', -1]], limit, after: cursor });
    const health = await this.reads.collection<WebhookHealthDoc>(WEBHOOK_HEALTH).getMany(page.items.map((d) => d.id));
    const byId = new Map(health.map((h) => [h.id, h]));
    const now = this.clock.now();
    return { items: page.items.map((d) => toWebhookView(d, byId.get(d.id) ?? null, now)), nextCursor: page.nextCursor };
  }
}

export const WEBHOOK_HANDLERS = [
  CreateWebhookHandler,
  UpdateWebhookHandler,
  RotateWebhookSecretHandler,
  DeleteWebhookHandler,
  GetWebhookHandler,
  ListWebhooksHandler,
];
