// Queries of webhook subscriptions: one (with its delivery health) and the workspace's list.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { WEBHOOK_HEALTH, type WebhookHealthDoc } from '../delivery/delivery.projection';
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

/** A webhook as answered, and its version (its stream's revision: the ETag). */
export interface VersionedWebhook {
  webhook: WebhookView;
  revision: number;
}

/** The webhook of this workspace, or NOT_FOUND. */
export class GetWebhookQuery extends Query<VersionedWebhook> {
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

  async execute({ workspaceId, webhookId }: GetWebhookQuery): Promise<VersionedWebhook> {
    const doc = await getOwned(this.reads.collection<WebhookDoc>(WEBHOOKS), workspaceId, webhookId, 'webhook');
    const health = await this.reads.collection<WebhookHealthDoc>(WEBHOOK_HEALTH).get(webhookId);
    return { webhook: toWebhookView(doc, health, this.clock.now()), revision: doc.revision };
  }
}

/** A webhook a write just decided on (its document from the write itself), with its delivery health. */
export class AnswerWebhookQuery extends Query<WebhookView> {
  constructor(readonly webhook: WebhookDoc) {
    super();
  }
}

@QueryHandler(AnswerWebhookQuery)
export class AnswerWebhookHandler implements IQueryHandler<AnswerWebhookQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ webhook }: AnswerWebhookQuery): Promise<WebhookView> {
    const health = await this.reads.collection<WebhookHealthDoc>(WEBHOOK_HEALTH).get(webhook.id);
    return toWebhookView(webhook, health, this.clock.now());
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

export const WEBHOOK_QUERY_HANDLERS = [GetWebhookHandler, AnswerWebhookHandler, ListWebhooksHandler];
