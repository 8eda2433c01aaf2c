// Read models of deliveries: one document per (webhook, event) with its attempts — what
// `GET /webhooks/:id/deliveries` lists and what the retry scheduler polls for due attempts — and
// per webhook since when every attempt has failed (the 24 h auto-disable rule, shown on the webhook).
import { publicEventId, type Doc, type StreamDoc, view, type ViewProjection, viewProjection } from '@app/platform';

import { DELIVERY_EVENT_TYPES, type FAILURE_REASONS, parseDeliveryEvent } from './delivery.events';

/** Attempts kept per delivery document (the log keeps them all). */
export const ATTEMPTS_KEPT = 25;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface AttemptView {
  attempt: number | null;
  outcome: 'succeeded' | 'failed';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string;
  attemptedAt: string;
}

export interface DeliveryDoc extends StreamDoc {
  workspaceId: string;
  webhookId: string;
  /** Public `evt_…` id. */
  eventId: string;
  eventType: string;
  eventPosition: number;
  eventCreatedAt: string;
  status: DeliveryStatus;
  /** Attempts made in the current cycle (a replay starts a new one). */
  attemptCount: number;
  attempts: AttemptView[];
  nextAttemptAt: string | null;
  failureReason: (typeof FAILURE_REASONS)[number] | null;
  replays: number;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookHealthDoc extends Doc {
  /** Since when every attempt has failed; null after a success. */
  failingSince: string | null;
}

export const WEBHOOK_DELIVERIES = {
  name: 'webhook_deliveries',
  indexes: [
    { name: 'by_webhook_created', fields: [['webhookId', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_webhook_status_created', fields: [['webhookId', 1], ['status', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_webhook_type_created', fields: [['webhookId', 1], ['eventType', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_due', fields: [['status', 1], ['nextAttemptAt', 1], ['id', 1]] },
  ],
} as const;

export const WEBHOOK_HEALTH = { name: 'webhook_health', indexes: [] } as const;

export const deliveryProjection: ViewProjection = viewProjection({
  name: 'webhook_deliveries',
  version: 1,
  collections: [WEBHOOK_DELIVERIES, WEBHOOK_HEALTH],
  eventTypes: DELIVERY_EVENT_TYPES,
  *evolve(event) {
    const e = parseDeliveryEvent(event);
    const current = yield* view.get<DeliveryDoc>(WEBHOOK_DELIVERIES, e.data.deliveryId);
    if (current && current.revision >= event.revision) return;
    if (e.type === 'webhook.delivery_scheduled') {
      const d = e.data;
      yield* view.put<DeliveryDoc>(WEBHOOK_DELIVERIES, {
        id: d.deliveryId,
        revision: event.revision,
        workspaceId: event.metadata.workspaceId,
        webhookId: d.webhookId,
        eventId: publicEventId(d.eventId),
        eventType: d.eventType,
        eventPosition: d.eventPosition,
        eventCreatedAt: d.eventCreatedAt,
        status: 'pending',
        attemptCount: 0,
        attempts: current?.attempts ?? [],
        nextAttemptAt: d.dueAt,
        failureReason: null,
        replays: current ? current.replays + 1 : 0,
        createdAt: current?.createdAt ?? d.scheduledAt,
        updatedAt: d.scheduledAt,
      });
      return;
    }
    if (!current) return;
    const d = e.data;
    const succeeded = e.type === 'webhook.delivery_succeeded';
    const attempts =
      d.attempt === null && d.statusCode === null && d.durationMs === 0
        ? current.attempts
        : [
            ...current.attempts,
            {
              attempt: d.attempt,
              outcome: succeeded ? ('succeeded' as const) : ('failed' as const),
              statusCode: d.statusCode,
              durationMs: d.durationMs,
              error: d.error,
              responseBody: d.responseBody,
              attemptedAt: d.attemptedAt,
            },
          ].slice(-ATTEMPTS_KEPT);
    yield* view.put<DeliveryDoc>(WEBHOOK_DELIVERIES, {
      ...current,
      revision: event.revision,
      status: succeeded ? 'succeeded' : e.type === 'webhook.delivery_failed' ? 'failed' : 'pending',
      attemptCount: d.attempt ?? current.attemptCount,
      attempts,
      nextAttemptAt: e.type === 'webhook.delivery_attempted' ? e.data.nextAttemptAt : null,
      failureReason: e.type === 'webhook.delivery_failed' ? e.data.reason : null,
      updatedAt: d.attemptedAt,
    });
    // Health changes only on a transition, so a steady stream of successes writes nothing here.
    if (d.attempt === null) return;
    const known = yield* view.get<WebhookHealthDoc>(WEBHOOK_HEALTH, d.webhookId);
    if (succeeded) {
      if (known?.failingSince) yield* view.put<WebhookHealthDoc>(WEBHOOK_HEALTH, { id: d.webhookId, failingSince: null });
    } else if (!known?.failingSince) {
      yield* view.put<WebhookHealthDoc>(WEBHOOK_HEALTH, { id: d.webhookId, failingSince: d.attemptedAt });
    }
  },
});
