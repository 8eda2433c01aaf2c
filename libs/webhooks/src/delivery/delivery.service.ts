// What the API's delivery commands do: replay events from the log (same `evt_` id, same bytes)
// and send a signed test event at once. Reading the history: delivery.queries.ts.
import { Inject, Injectable } from '@nestjs/common';

import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  eventIdFromPublic,
  InlineProjections,
  instantRange,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEvent,
  type PublicEventCatalogue,
  READ_STORE,
  type ReadStore,
  uuidv7,
} from '@app/platform';
import { DomainError, handleCommands } from '@app/platform/domain';

import { assertPublicEventTypes } from '../events/event-types';
import { PUBLIC_EVENTS, type PublicEventDoc } from '../events/public-event.projection';
import { webhookStream } from '../subscriptions/webhook.events';
import { type WebhookDoc, webhookProjection } from '../subscriptions/webhook.projection';
import { deliveryAggregate } from './delivery.aggregate';
import { deliveryIdOf, deliveryStream } from './delivery.events';
import { DeliverySender } from './delivery-sender';
import { DeliveryWorker } from './delivery-worker';

/** Events one replay request may schedule; `hasMore` says when the selection was larger. */
export const MAX_REPLAY = 1000;

export type ReplaySelection = { eventIds: readonly string[] } | { types?: readonly string[]; from: string; to?: string };

export interface ReplayResult {
  scheduled: number;
  eventIds: string[];
  skipped: Array<{ eventId: string; reason: 'not_found' | 'not_subscribed' | 'already_pending' }>;
  hasMore: boolean;
}

export interface TestResult {
  status: number | null;
  body: string;
  ok: boolean;
  durationMs: number;
  error: string | null;
  eventId: string;
}

@Injectable()
export class WebhookDeliveries {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly sender: DeliverySender,
    private readonly worker: DeliveryWorker,
    private readonly inline: InlineProjections,
  ) {}

  /**
   * The workspace's webhook as the log holds it (its read model, brought up from the log should it
   * lag), or NOT_FOUND (another workspace's answers the same): a replay decides on its status and
   * events, a test sends to its url with its secrets.
   */
  private async webhook(workspaceId: string, webhookId: string): Promise<WebhookDoc> {
    const doc = await this.inline.document(webhookProjection, webhookStream(webhookId));
    if (!doc || doc.workspaceId !== workspaceId) throw new DomainError('NOT_FOUND', `No webhook with id ${webhookId}`);
    return doc;
  }

  /** Schedules the selected events again for this webhook, read from the log when delivered. */
  async replay(workspaceId: string, webhookId: string, selection: ReplaySelection): Promise<ReplayResult> {
    if ('types' in selection) assertPublicEventTypes(this.catalogue, 'body', 'types', selection.types);
    const webhook = await this.webhook(workspaceId, webhookId);
    if (webhook.status !== 'enabled') {
      throw new DomainError('INVALID_TRANSITION', `Webhook ${webhookId} is disabled: enable it first (PATCH {"enabled": true}), then replay`);
    }
    const { candidates, skipped, hasMore } = await this.select(workspaceId, webhook, selection);
    // All the selected deliveries are scheduled in one append; one still pending is skipped.
    const { value: scheduled } = await handleCommands(this.events, { workspaceId, actor: 'system' }, async (tx) => {
      const now = this.clock.now();
      const out: Array<{ doc: PublicEventDoc; deliveryId: string }> = [];
      for (const doc of candidates) {
        const uuid = eventIdFromPublic(doc.id) as string;
        const deliveryId = deliveryIdOf(webhook.id, uuid);
        const delivery = await tx.load(deliveryStream(deliveryId), deliveryAggregate);
        const ref = { deliveryId, webhookId, eventId: uuid, eventType: doc.type, eventPosition: doc.position, eventCreatedAt: doc.createdAt };
        if (tx.decide(delivery, { type: 'ScheduleDelivery', ref, reason: 'replay', firstDelayMs: 0, now }).length > 0) out.push({ doc, deliveryId });
      }
      return out;
    });
    const scheduledIds = new Set(scheduled.map((s) => s.doc.id));
    for (const doc of candidates) if (!scheduledIds.has(doc.id)) skipped.push({ eventId: doc.id, reason: 'already_pending' });
    for (const { deliveryId } of scheduled) this.worker.submit({ deliveryId, webhookId, workspaceId });
    return { scheduled: scheduled.length, eventIds: scheduled.map((s) => s.doc.id), skipped, hasMore };
  }

  /** Sends a signed `webhook.test` event now and reports the receiver's answer; nothing is recorded. */
  async test(workspaceId: string, webhookId: string): Promise<TestResult> {
    const webhook = await this.webhook(workspaceId, webhookId);
    const now = this.clock.now();
    const envelope: PublicEvent = {
      id: `evt_${uuidv7(now.getTime()).replace(/-/g, '')}`,
      type: 'webhook.test',
      created_at: now.toISOString(),
      workspace_id: workspaceId,
      data: { webhook_id: webhook.id, message: 'A test delivery: answer any 2xx to acknowledge.' },
    };
    const result = await this.sender.send({ webhookId: webhook.id, url: webhook.url, secrets: webhook.secrets }, envelope.id, JSON.stringify(envelope), now);
    return { status: result.status, body: result.responseBody, ok: result.ok, durationMs: result.durationMs, error: result.error, eventId: envelope.id };
  }

  private async select(
    workspaceId: string,
    webhook: WebhookDoc,
    selection: ReplaySelection,
  ): Promise<{ candidates: PublicEventDoc[]; skipped: ReplayResult['skipped']; hasMore: boolean }> {
    const events = this.reads.collection<PublicEventDoc>(PUBLIC_EVENTS);
    const skipped: ReplayResult['skipped'] = [];
    if ('eventIds' in selection) {
      const ids = [...new Set(selection.eventIds)];
      const found = new Map((await events.getMany(ids)).filter((d) => d.workspaceId === workspaceId).map((d) => [d.id, d]));
      const candidates: PublicEventDoc[] = [];
      for (const id of ids) {
        const doc = found.get(id);
        if (!doc) skipped.push({ eventId: id, reason: 'not_found' });
        else if (!webhook.events.includes(doc.type)) skipped.push({ eventId: id, reason: 'not_subscribed' });
        else candidates.push(doc);
      }
      return { candidates: candidates.sort((a, b) => a.position - b.position), skipped, hasMore: false };
    }
    const types = selection.types ?? webhook.events;
    const unsubscribed = types.filter((t) => !webhook.events.includes(t));
    if (unsubscribed.length > 0) {
      const message = `This webhook does not subscribe to ${unsubscribed.join(', ')}`;
      throw DomainError.validation(message, [{ path: 'types', message }]);
    }
    const createdAt = instantRange(selection.from, selection.to) as NonNullable<ReturnType<typeof instantRange>>;
    const page = await events.find(
      { workspaceId, type: { $in: types }, createdAt },
      { sort: [['createdAt', 1], ['position', 1]], limit: MAX_REPLAY },
    );
    return { candidates: page.items, skipped, hasMore: page.nextCursor !== null };
  }
}
