// The deliveries read models, given/when/then: given a delivery's events (as the decider makes
// them), then its document with its attempts, and the webhook's health (since when every attempt
// has failed). Applying an event twice is applying it once.
import type { RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { type DeliveryCommand, deliveryDecider, type SendOutcome } from './delivery.decider';
import type { DeliveryEvent } from './delivery.events';
import { ATTEMPTS_KEPT, type DeliveryDoc, deliveryProjection, WEBHOOK_DELIVERIES, WEBHOOK_HEALTH } from './delivery.projection';

const ref = {
  deliveryId: 'whd_1',
  webhookId: 'wh_1',
  eventId: '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60718',
  eventType: 'buyer_request.created',
  eventPosition: 7,
  eventCreatedAt: '2026-01-01T00:00:00.000Z',
};
const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();
const schedule = [0, 60_000, 300_000];
const ok: SendOutcome = { statusCode: 200, durationMs: 12, error: null, responseBody: 'ok', retryAfterMs: null, ok: true };
const fail: SendOutcome = { statusCode: 500, durationMs: 5, error: null, responseBody: 'nope', retryAfterMs: null, ok: false };

const scheduleIt = (reason: 'event' | 'replay', ms: number): DeliveryCommand => ({ type: 'ScheduleDelivery', ref, reason, firstDelayMs: 0, now: at(ms) });
const attempt = (n: number, outcome: SendOutcome, ms: number): DeliveryCommand => ({ type: 'RecordAttempt', attempt: n, url: 'https://x.test/h', outcome, schedule, now: at(ms) });
const cancel = (ms: number): DeliveryCommand => ({ type: 'CancelDelivery', reason: 'webhook_disabled', url: 'https://x.test/h', now: at(ms) });

/** The delivery's events as recorded, one command after another, decided on what came before. */
function history(...commands: DeliveryCommand[]): RecordedEvent[] {
  const events: DeliveryEvent[] = [];
  for (const command of commands) events.push(...deliveryDecider.decide(command, events.reduce(deliveryDecider.evolve, deliveryDecider.initialState)));
  return events.map((e, revision) => ({
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    type: e.type,
    data: e.data,
    metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
    streamId: `webhook_delivery-${ref.deliveryId}`,
    revision,
    position: 100 + revision,
    createdAt: t0.toISOString(),
  }));
}

const pending: DeliveryDoc = {
  id: 'whd_1',
  revision: 0,
  workspaceId: 'ws_1',
  webhookId: 'wh_1',
  eventId: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718',
  eventType: 'buyer_request.created',
  eventPosition: 7,
  eventCreatedAt: '2026-01-01T00:00:00.000Z',
  status: 'pending',
  attemptCount: 0,
  attempts: [],
  nextAttemptAt: iso(0),
  failureReason: null,
  replays: 0,
  createdAt: iso(0),
  updatedAt: iso(0),
};
const failedAttempt = (n: number, ms: number) => ({ attempt: n, outcome: 'failed' as const, statusCode: 500, durationMs: 5, error: null, responseBody: 'nope', attemptedAt: iso(ms) });

describe('webhook deliveries projection', () => {
  it('given a scheduled delivery, then a pending document due at once, and no health yet', () => {
    viewSpec(deliveryProjection)
      .given()
      .when(...history(scheduleIt('event', 0)))
      .then({ [WEBHOOK_DELIVERIES.name]: [pending], [WEBHOOK_HEALTH.name]: [] });
  });

  it('given a failed attempt, then the attempt, the next one due, and the webhook failing since then', () => {
    viewSpec(deliveryProjection)
      .given()
      .when(...history(scheduleIt('event', 0), attempt(1, fail, 10)))
      .then({
        [WEBHOOK_DELIVERIES.name]: [{ ...pending, revision: 1, attemptCount: 1, attempts: [failedAttempt(1, 10)], nextAttemptAt: iso(60_010), updatedAt: iso(10) }],
        [WEBHOOK_HEALTH.name]: [{ id: 'wh_1', failingSince: iso(10) }],
      });
  });

  it('a later failure keeps the first failingSince; a success clears it', () => {
    const events = history(scheduleIt('event', 0), attempt(1, fail, 10), attempt(2, fail, 60_010), attempt(3, ok, 360_010));
    const failing = viewSpec(deliveryProjection).given().when(...events.slice(0, 3)).documents();
    expect(failing[WEBHOOK_HEALTH.name]).toEqual([{ id: 'wh_1', failingSince: iso(10) }]);
    const after = viewSpec(deliveryProjection).given().when(...events).documents();
    expect(after[WEBHOOK_HEALTH.name]).toEqual([{ id: 'wh_1', failingSince: null }]);
    expect(after[WEBHOOK_DELIVERIES.name]).toEqual([
      expect.objectContaining({ revision: 3, status: 'succeeded', attemptCount: 3, nextAttemptAt: null, failureReason: null, updatedAt: iso(360_010) }),
    ]);
    expect((after[WEBHOOK_DELIVERIES.name][0] as DeliveryDoc).attempts.map((a) => a.outcome)).toEqual(['failed', 'failed', 'succeeded']);
  });

  it('a success on a healthy webhook writes no health document', () => {
    viewSpec(deliveryProjection)
      .given()
      .when(...history(scheduleIt('event', 0), attempt(1, ok, 10)))
      .then({ [WEBHOOK_HEALTH.name]: [] });
  });

  it('a cancel without a request fails the delivery, records no attempt and leaves the health alone', () => {
    viewSpec(deliveryProjection)
      .given()
      .when(...history(scheduleIt('event', 0), cancel(20)))
      .then({
        [WEBHOOK_DELIVERIES.name]: [{ ...pending, revision: 1, status: 'failed', nextAttemptAt: null, failureReason: 'webhook_disabled', updatedAt: iso(20) }],
        [WEBHOOK_HEALTH.name]: [],
      });
  });

  it('a replay starts a new cycle: attempts kept, attempt count reset, one more replay, created as before', () => {
    const events = history(scheduleIt('event', 0), attempt(1, ok, 10), scheduleIt('replay', 500));
    const [doc] = viewSpec(deliveryProjection).given().when(...events).documents()[WEBHOOK_DELIVERIES.name] as DeliveryDoc[];
    expect(doc).toMatchObject({ revision: 2, status: 'pending', attemptCount: 0, replays: 1, createdAt: iso(0), updatedAt: iso(500), nextAttemptAt: iso(500) });
    expect(doc.attempts).toHaveLength(1);
  });

  it(`keeps the last ${ATTEMPTS_KEPT} attempts`, () => {
    const base = viewSpec(deliveryProjection).given().when(...history(scheduleIt('event', 0))).documents();
    const full: DeliveryDoc = { ...(base[WEBHOOK_DELIVERIES.name][0] as DeliveryDoc), attempts: Array.from({ length: ATTEMPTS_KEPT }, (_, i) => failedAttempt(i, i)) };
    const [, failed] = history(scheduleIt('event', 0), attempt(1, fail, 10));
    const [doc] = viewSpec(deliveryProjection).given({ [WEBHOOK_DELIVERIES.name]: [full] }).when(failed).documents()[WEBHOOK_DELIVERIES.name] as DeliveryDoc[];
    expect(doc.attempts).toHaveLength(ATTEMPTS_KEPT);
    expect(doc.attempts[0].attempt).toBe(1);
    expect(doc.attempts[ATTEMPTS_KEPT - 1]).toEqual(failedAttempt(1, 10));
  });

  it('applying an event twice is applying it once; an attempt on an unknown delivery writes nothing', () => {
    const events = history(scheduleIt('event', 0), attempt(1, fail, 10));
    const once = viewSpec(deliveryProjection).given().when(...events).documents();
    viewSpec(deliveryProjection)
      .given(once)
      .when(...events)
      .then(once);
    viewSpec(deliveryProjection)
      .given()
      .when(events[1])
      .then({ [WEBHOOK_DELIVERIES.name]: [], [WEBHOOK_HEALTH.name]: [] });
  });
});
