// Stored contract of webhook deliveries (internal events, never delivered). One stream per
// (webhook, public event): the stream's revision makes each attempt's record exactly-once, whichever
// dispatcher process made it, and its history is the delivery log the API shows.
import { createHash } from 'node:crypto';

import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

/** At most this much of a receiver's answer is kept per attempt. */
export const RESPONSE_BODY_LIMIT = 4096;

export const deliveryScheduled = z.object({
  deliveryId: z.string(),
  webhookId: z.string(),
  /**
   * The public event delivered, by its key (public as `evt_…`): the stored event's uuid, or for
   * one of the public events a stored event fans out to, the uuid derived from it (`fannedOutEventId`).
   */
  eventId: z.string(),
  /** The public type. */
  eventType: z.string(),
  /** The stored event's position (its body is rebuilt from there). */
  eventPosition: z.number().int(),
  eventCreatedAt: z.string(),
  reason: z.enum(['event', 'replay']),
  scheduledAt: z.string(),
  /** When the first attempt of this cycle is due. */
  dueAt: z.string(),
});

export const attemptOutcome = z.object({
  deliveryId: z.string(),
  webhookId: z.string(),
  /** 1-based within the current cycle (a replay starts a new cycle); null when no request was sent. */
  attempt: z.number().int().nullable(),
  url: z.string(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  /** The first 4 KB of the receiver's answer. */
  responseBody: z.string(),
  attemptedAt: z.string(),
});

export const deliveryAttempted = attemptOutcome.extend({ nextAttemptAt: z.string() });
export const deliverySucceeded = attemptOutcome;
export const FAILURE_REASONS = ['exhausted', 'gone', 'webhook_disabled', 'webhook_deleted'] as const;
export const deliveryFailed = attemptOutcome.extend({ reason: z.enum(FAILURE_REASONS) });

export type AttemptOutcome = z.infer<typeof attemptOutcome>;
export type DeliveryEvent =
  | { type: 'webhook.delivery_scheduled'; data: z.infer<typeof deliveryScheduled> }
  /** A failed attempt with another one scheduled. */
  | { type: 'webhook.delivery_attempted'; data: z.infer<typeof deliveryAttempted> }
  | { type: 'webhook.delivery_succeeded'; data: z.infer<typeof deliverySucceeded> }
  /** The delivery gave up: the last attempt failed, the endpoint is gone, or the webhook is off. */
  | { type: 'webhook.delivery_failed'; data: z.infer<typeof deliveryFailed> };

export const DELIVERY_EVENT_TYPES = [
  'webhook.delivery_scheduled',
  'webhook.delivery_attempted',
  'webhook.delivery_succeeded',
  'webhook.delivery_failed',
] as const;

export const parseDeliveryEvent = parseOnce((event: RecordedEvent): DeliveryEvent => {
  switch (event.type) {
    case 'webhook.delivery_scheduled':
      return { type: event.type, data: deliveryScheduled.parse(event.data) };
    case 'webhook.delivery_attempted':
      return { type: event.type, data: deliveryAttempted.parse(event.data) };
    case 'webhook.delivery_succeeded':
      return { type: event.type, data: deliverySucceeded.parse(event.data) };
    case 'webhook.delivery_failed':
      return { type: event.type, data: deliveryFailed.parse(event.data) };
    default:
      throw new Error(`Not a webhook delivery event: ${event.type}`);
  }
});

/** Deterministic: the same (webhook, public event key) pair is always the same delivery. */
export function deliveryIdOf(webhookId: string, eventId: string): string {
  return `whd_${createHash('sha256').update(`${webhookId}:${eventId}`).digest('hex').slice(0, 26)}`;
}

export const DELIVERY_STREAM_PREFIX = 'webhook_delivery-';
export const deliveryStream = (deliveryId: string) => `${DELIVERY_STREAM_PREFIX}${deliveryId}`;
