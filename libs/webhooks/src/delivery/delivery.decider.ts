// One delivery of one event to one webhook, as a pure state machine: scheduled, then attempts on
// the retry schedule until one succeeds, the schedule runs out or the endpoint answers 410 Gone.
// A replay starts a new cycle on the same delivery. Stale commands (an attempt some other process
// already recorded) decide nothing, so a retried or duplicated dispatch never records twice.
import type { Decider } from '@app/platform/domain';

import { type AttemptOutcome, type DeliveryEvent, RESPONSE_BODY_LIMIT } from './delivery.events';

/** Retry-After is honoured up to this long; a receiver cannot park a delivery for ever. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export interface EventRef {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  eventPosition: number;
  eventCreatedAt: string;
}

export interface SendOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string;
  retryAfterMs: number | null;
  ok: boolean;
}

export type DeliveryCommand =
  | { type: 'ScheduleDelivery'; ref: EventRef; reason: 'event' | 'replay'; firstDelayMs: number; now: Date }
  | { type: 'RecordAttempt'; attempt: number; url: string; outcome: SendOutcome; schedule: readonly number[]; now: Date }
  | { type: 'CancelDelivery'; reason: 'webhook_disabled' | 'webhook_deleted'; url: string; now: Date };

export type DeliveryState =
  | { status: 'none' }
  | (EventRef & { status: 'pending' | 'succeeded' | 'failed'; attempt: number; nextAttemptAt: string | null });

/** The delay before the attempt after `attempt` (1-based), Retry-After included; null when none is left. */
export function nextDelayMs(attempt: number, schedule: readonly number[], outcome: SendOutcome): number | null {
  if (attempt >= schedule.length) return null;
  const planned = schedule[attempt];
  const asksToWait = outcome.statusCode === 429 || outcome.statusCode === 503;
  if (!asksToWait || outcome.retryAfterMs === null) return planned;
  return Math.max(planned, Math.min(outcome.retryAfterMs, MAX_RETRY_AFTER_MS));
}

function record(state: EventRef, attempt: number | null, url: string, outcome: Omit<SendOutcome, 'ok' | 'retryAfterMs'>, now: Date): AttemptOutcome {
  return {
    deliveryId: state.deliveryId,
    webhookId: state.webhookId,
    attempt,
    url,
    statusCode: outcome.statusCode,
    durationMs: Math.max(0, Math.round(outcome.durationMs)),
    error: outcome.error,
    responseBody: truncateUtf8(outcome.responseBody, RESPONSE_BODY_LIMIT),
    attemptedAt: now.toISOString(),
  };
}

/** At most `limit` bytes of UTF-8, never cutting a character in half. */
export function truncateUtf8(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  return bytes.subarray(0, limit).toString('utf8').replace(/\uFFFD$/, '');
}

export const deliveryDecider: Decider<DeliveryCommand, DeliveryEvent, DeliveryState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'ScheduleDelivery': {
        // A redelivered source event finds its delivery already there; only a replay starts over.
        if (state.status === 'pending') return [];
        if (state.status !== 'none' && command.reason === 'event') return [];
        const { ref, now } = command;
        return [
          {
            type: 'webhook.delivery_scheduled',
            data: {
              ...ref,
              reason: command.reason,
              scheduledAt: now.toISOString(),
              dueAt: new Date(now.getTime() + command.firstDelayMs).toISOString(),
            },
          },
        ];
      }
      case 'RecordAttempt': {
        if (state.status !== 'pending' || command.attempt !== state.attempt + 1) return [];
        const { outcome, now } = command;
        const base = record(state, command.attempt, command.url, outcome, now);
        if (outcome.ok) return [{ type: 'webhook.delivery_succeeded', data: base }];
        if (outcome.statusCode === 410) return [{ type: 'webhook.delivery_failed', data: { ...base, reason: 'gone' } }];
        const delay = nextDelayMs(command.attempt, command.schedule, outcome);
        if (delay === null) return [{ type: 'webhook.delivery_failed', data: { ...base, reason: 'exhausted' } }];
        return [{ type: 'webhook.delivery_attempted', data: { ...base, nextAttemptAt: new Date(now.getTime() + delay).toISOString() } }];
      }
      case 'CancelDelivery': {
        if (state.status !== 'pending') return [];
        const error = command.reason === 'webhook_disabled' ? 'the webhook is disabled' : 'the webhook was deleted';
        const base = record(state, null, command.url, { statusCode: null, durationMs: 0, error, responseBody: '' }, command.now);
        return [{ type: 'webhook.delivery_failed', data: { ...base, reason: command.reason } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'webhook.delivery_scheduled': {
        const d = event.data;
        return {
          deliveryId: d.deliveryId,
          webhookId: d.webhookId,
          eventId: d.eventId,
          eventType: d.eventType,
          eventPosition: d.eventPosition,
          eventCreatedAt: d.eventCreatedAt,
          status: 'pending',
          attempt: 0,
          nextAttemptAt: d.dueAt,
        };
      }
      case 'webhook.delivery_attempted':
        if (state.status === 'none') return state;
        return { ...state, attempt: event.data.attempt ?? state.attempt, nextAttemptAt: event.data.nextAttemptAt };
      case 'webhook.delivery_succeeded':
        if (state.status === 'none') return state;
        return { ...state, status: 'succeeded', attempt: event.data.attempt ?? state.attempt, nextAttemptAt: null };
      case 'webhook.delivery_failed':
        if (state.status === 'none') return state;
        return { ...state, status: 'failed', attempt: event.data.attempt ?? state.attempt, nextAttemptAt: null };
      default:
        return state;
    }
  },
};
