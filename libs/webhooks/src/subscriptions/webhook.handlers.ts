// Commands of webhook subscriptions: create (the secret is returned once and stored sealed),
// update, enable/disable, rotate the secret, delete. The event types asked for must be in the
// public catalogue the app was composed with. Each answers the webhook's document as its own write
// left it (the read model is inline), or as the log holds it when the write changed nothing.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  ID_GENERATOR,
  type IdGenerator,
  type InlineDocuments,
  InlineProjections,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEventCatalogue,
  READ_STORE,
  type ReadStore,
  SECRET_BOX,
  type SecretBox,
} from '@app/platform';
import { DomainError, handleCommand, handleCommands } from '@app/platform/domain';

import { sealContext } from '../delivery/delivery-sender';
import { generateWebhookSecret } from '../delivery/signing';
import { checkWebhookTarget } from '../delivery/target-guard';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { webhookAggregate } from './webhook.aggregate';
import { type StoredSecret, webhookStream } from './webhook.events';
import { assertPublicEventTypes } from '../events/event-types';
import { type WebhookDoc, webhookProjection, WEBHOOKS } from './webhook.projection';

/** A webhook with the signing secret it was just given (shown this once). */
export interface WebhookWithSecret {
  webhook: WebhookDoc;
  secret: string;
}

/** The webhook's document as a write left it (or as the log holds it); none is a bug, not a missing webhook. */
async function webhookAfter(inline: InlineProjections, webhookId: string, documents: InlineDocuments | null): Promise<WebhookDoc> {
  const doc = await inline.document(webhookProjection, webhookStream(webhookId), documents);
  if (!doc) throw new Error(`Webhook ${webhookId} was decided on, yet its read model has no document`);
  return doc;
}

/** Refuses a url the dispatcher would refuse: scheme, credentials, private or metadata addresses. */
async function assertDeliverable(url: string, settings: WebhookSettings): Promise<void> {
  const check = await checkWebhookTarget(url, settings.policy);
  if (!check.ok) throw DomainError.validation(`Invalid body field "url": ${check.message}`, [{ path: 'url', message: check.message }]);
}

function seal(box: SecretBox, webhookId: string, secret: string, now: Date): StoredSecret {
  return { sealed: box.seal(secret, sealContext(webhookId)), createdAt: now.toISOString(), expiresAt: null };
}

export class CreateWebhookCommand extends Command<WebhookWithSecret> {
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
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly inline: InlineProjections,
  ) {}

  async execute(command: CreateWebhookCommand): Promise<WebhookWithSecret> {
    assertPublicEventTypes(this.catalogue, 'body', 'events', command.events);
    await assertDeliverable(command.url, this.settings);
    // A limit, not a decision on a webhook: the read model counts every webhook whose write has
    // answered (it is inline), so only creations racing each other can pass it together.
    const count = await this.reads.collection<WebhookDoc>(WEBHOOKS).count({ workspaceId: command.workspaceId });
    const max = this.settings.maxPerWorkspace;
    if (count >= max) {
      throw new DomainError('LIMIT_EXCEEDED', `A workspace has at most ${max} webhooks; delete one first`, { limit: 'webhooks_per_workspace', max });
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
    return { webhook: await webhookAfter(this.inline, webhookId, result.documents), secret };
  }
}

export interface WebhookChanges {
  url?: string;
  events?: readonly string[];
  description?: string | null;
  enabled?: boolean;
}

/** The webhook after the change; a change that changes nothing answers it as the log holds it. */
export class UpdateWebhookCommand extends Command<WebhookDoc> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly changes: WebhookChanges,
    readonly actor: string,
    /** `If-Match`: the webhook's revision the change was decided on. */
    readonly ifMatch?: number,
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
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly inline: InlineProjections,
  ) {}

  /** The changed fields and the switch on or off are one append. */
  async execute({ workspaceId, webhookId, changes, actor, ifMatch }: UpdateWebhookCommand): Promise<WebhookDoc> {
    assertPublicEventTypes(this.catalogue, 'body', 'events', changes.events);
    if (changes.url !== undefined) await assertDeliverable(changes.url, this.settings);
    const { url, events, description, enabled } = changes;
    const result = await handleCommands(this.events, { workspaceId, actor }, async (tx) => {
      const webhook = await tx.load(webhookStream(webhookId), webhookAggregate, { ifMatch });
      const now = this.clock.now();
      const decided = [];
      if (url !== undefined || events !== undefined || description !== undefined) {
        const uniqueEvents = events ? [...new Set(events)] : undefined;
        decided.push(...tx.decide(webhook, { type: 'UpdateWebhook', webhookId, workspaceId, url, events: uniqueEvents, description, now }));
      }
      if (enabled !== undefined) {
        const command = enabled
          ? ({ type: 'EnableWebhook', webhookId, workspaceId, now } as const)
          : ({ type: 'DisableWebhook', webhookId, workspaceId, reason: 'manual', detail: 'disabled through the API', now } as const);
        decided.push(...tx.decide(webhook, command));
      }
      // Nothing changed: still a 404 for a webhook that is not there.
      if (decided.length === 0) tx.decide(webhook, { type: 'UpdateWebhook', webhookId, workspaceId, now });
    });
    return webhookAfter(this.inline, webhookId, result.documents);
  }
}

export class RotateWebhookSecretCommand extends Command<WebhookWithSecret> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly actor: string,
    /** `If-Match`: the webhook's revision the rotation was decided on. */
    readonly ifMatch?: number,
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
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, webhookId, actor, ifMatch }: RotateWebhookSecretCommand): Promise<WebhookWithSecret> {
    const secret = generateWebhookSecret();
    const now = this.clock.now();
    const result = await handleCommand(
      this.events,
      webhookStream(webhookId),
      webhookAggregate,
      { type: 'RotateWebhookSecret', webhookId, workspaceId, secret: seal(this.box, webhookId, secret, now), overlapMs: this.settings.secretOverlapMs, now },
      { workspaceId, actor },
      { ifMatch },
    );
    return { webhook: await webhookAfter(this.inline, webhookId, result.documents), secret };
  }
}

/**
 * Deletes the webhook (its document goes with it): a deleted webhook no longer exists (deleting it
 * again is NOT_FOUND). Answers the stream revision the deletion left.
 */
export class DeleteWebhookCommand extends Command<number> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly actor: string,
    /** `If-Match`: the webhook's revision the deletion was decided on. */
    readonly ifMatch?: number,
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

  async execute({ workspaceId, webhookId, actor, ifMatch }: DeleteWebhookCommand): Promise<number> {
    const result = await handleCommand(
      this.events,
      webhookStream(webhookId),
      webhookAggregate,
      { type: 'DeleteWebhook', webhookId, workspaceId, now: this.clock.now() },
      { workspaceId, actor },
      { ifMatch },
    );
    return result.revision;
  }
}

export const WEBHOOK_COMMAND_HANDLERS = [CreateWebhookHandler, UpdateWebhookHandler, RotateWebhookSecretHandler, DeleteWebhookHandler];
