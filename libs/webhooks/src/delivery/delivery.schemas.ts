// Request and response schemas of a webhook's deliveries, replay and test routes (they validate and
// they document), with examples, and the mapper from the read model to the answer.
import { z } from 'zod';

import { isoInstant, listResponseSchema, paginationQuery } from '@app/platform';

import { publicEventResponse } from '../events/events.schemas';
import { webhookEventType, webhookExample, webhookIdParams } from '../subscriptions/webhook.schemas';
import type { DeliveryDoc } from './delivery.projection';
import { MAX_REPLAY } from './delivery.service';

const attemptResponse = z.strictObject({
  attempt: z.number().int().nullable().meta({ description: '1-based within its cycle; null when no request was sent (the webhook was off).' }),
  outcome: z.enum(['succeeded', 'failed']),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  responseBody: z.string().meta({ description: 'The first 4 KB of the receiver\'s answer.' }),
  attemptedAt: z.string().meta({ format: 'date-time' }),
});

export const deliveryResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Delivery id (`whd_…`): one per webhook and event.' }),
    webhookId: z.string(),
    eventId: z.string().meta({ description: 'The event delivered (`evt_…`).' }),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attemptCount: z.number().int().meta({ description: 'Attempts in the current cycle (a replay starts a new one).' }),
    attempts: z.array(attemptResponse).meta({ description: 'Every attempt, oldest first (the last 25).' }),
    nextAttemptAt: z.string().nullable().meta({ format: 'date-time' }),
    failureReason: z.enum(['exhausted', 'gone', 'webhook_disabled', 'webhook_deleted']).nullable(),
    replays: z.number().int(),
    createdAt: z.string().meta({ format: 'date-time' }),
    updatedAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'WebhookDelivery' });

export type DeliveryResponse = z.output<typeof deliveryResponse>;

export const deliveryDetailResponse = deliveryResponse
  .extend({ payload: publicEventResponse.nullable().meta({ description: 'The envelope delivered, as read from the log.' }) })
  .meta({ id: 'WebhookDeliveryDetail' });
export const deliveryListResponse = listResponseSchema(deliveryResponse).meta({ id: 'WebhookDeliveryList' });

export const listDeliveriesQuery = paginationQuery.extend({
  eventType: webhookEventType.optional().meta({ description: 'Only deliveries of this event type.' }),
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  from: isoInstant.optional().meta({ description: 'Scheduled at or after this instant.' }),
  to: isoInstant.optional().meta({ description: 'Scheduled before this instant.' }),
});

export const replayBody = z
  .strictObject({
    eventIds: z.array(z.string().regex(/^evt_[0-9a-f]{32}$/, 'an event id, evt_ and 32 hex digits')).min(1).max(MAX_REPLAY).optional(),
    types: z.array(webhookEventType).min(1).optional().meta({ description: 'With from/to; default: every type the webhook subscribes to.' }),
    from: isoInstant.optional().meta({ description: 'Events created at or after this instant.' }),
    to: isoInstant.optional().meta({ description: 'Events created before this instant.' }),
  })
  .superRefine((b, ctx) => {
    const range = b.types !== undefined || b.from !== undefined || b.to !== undefined;
    if (b.eventIds && range) ctx.addIssue({ code: 'custom', path: ['eventIds'], message: 'send either eventIds or a range (types, from, to), not both' });
    else if (!b.eventIds && !b.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'send eventIds, or a range with at least from' });
  })
  .meta({ id: 'ReplayWebhookEvents' });

export const replayResponse = z
  .strictObject({
    scheduled: z.number().int().meta({ description: 'Deliveries scheduled now, oldest event first.' }),
    eventIds: z.array(z.string()),
    skipped: z.array(z.strictObject({ eventId: z.string(), reason: z.enum(['not_found', 'not_subscribed', 'already_pending']) })),
    hasMore: z.boolean().meta({ description: `A range matched more than ${MAX_REPLAY} events: replay again from the last one's time.` }),
  })
  .meta({ id: 'WebhookReplay' });

export const testResponse = z
  .strictObject({
    status: z.number().int().nullable().meta({ description: 'The receiver\'s HTTP status; null when it did not answer.' }),
    body: z.string().meta({ description: 'The first 4 KB of its answer.' }),
    ok: z.boolean(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    eventId: z.string().meta({ description: 'The id of the `webhook.test` event sent.' }),
  })
  .meta({ id: 'WebhookTestResult' });

export const deliveryIdParams = webhookIdParams.extend({
  deliveryId: z.string().min(1).max(64).meta({ description: 'Delivery id (`whd_…`).', examples: ['whd_3f2a9c0d4e5b6a7f8e9d0c1b2a'] }),
});

export const deliveryExample: DeliveryResponse = {
  id: 'whd_3f2a9c0d4e5b6a7f8e9d0c1b2a',
  webhookId: webhookExample.id,
  eventId: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718',
  eventType: 'buyer_request.matched',
  status: 'succeeded',
  attemptCount: 2,
  attempts: [
    { attempt: 1, outcome: 'failed', statusCode: 503, durationMs: 41, error: null, responseBody: 'busy', attemptedAt: '2025-11-22T15:04:05.120Z' },
    { attempt: 2, outcome: 'succeeded', statusCode: 200, durationMs: 12, error: null, responseBody: 'ok', attemptedAt: '2025-11-22T15:05:05.150Z' },
  ],
  nextAttemptAt: null,
  failureReason: null,
  replays: 0,
  createdAt: '2025-11-22T15:04:05.100Z',
  updatedAt: '2025-11-22T15:05:05.150Z',
};

export const testResultExample: z.output<typeof testResponse> = {
  status: 200,
  body: 'ok',
  ok: true,
  durationMs: 38,
  error: null,
  eventId: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60719',
};

export function toDeliveryResponse(doc: DeliveryDoc): DeliveryResponse {
  return {
    id: doc.id,
    webhookId: doc.webhookId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: doc.status,
    attemptCount: doc.attemptCount,
    attempts: doc.attempts,
    nextAttemptAt: doc.nextAttemptAt,
    failureReason: doc.failureReason,
    replays: doc.replays,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
