// The delivery state machine, given/when/then: the schedule, Retry-After, 410, stale commands.
import { type DeliveryCommand, deliveryDecider, type DeliveryState, MAX_RETRY_AFTER_MS, nextDelayMs, type SendOutcome, truncateUtf8 } from './delivery.decider';
import type { DeliveryEvent } from './delivery.events';

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
const schedule = [0, 60_000, 300_000, 1_800_000, 7_200_000];
const ok: SendOutcome = { statusCode: 200, durationMs: 12, error: null, responseBody: 'ok', retryAfterMs: null, ok: true };
const fail = (statusCode: number | null, extra: Partial<SendOutcome> = {}): SendOutcome => ({
  statusCode,
  durationMs: 5,
  error: statusCode === null ? 'ECONNREFUSED' : null,
  responseBody: 'nope',
  retryAfterMs: null,
  ok: false,
  ...extra,
});

function given(events: DeliveryEvent[]) {
  const state = events.reduce(deliveryDecider.evolve, deliveryDecider.initialState as DeliveryState);
  return { when: (command: DeliveryCommand) => deliveryDecider.decide(command, state) };
}

const scheduled = deliveryDecider.decide({ type: 'ScheduleDelivery', ref, reason: 'event', firstDelayMs: 0, now: t0 }, { status: 'none' });
const attempt = (n: number, outcome: SendOutcome, ms: number): DeliveryCommand => ({ type: 'RecordAttempt', attempt: n, url: 'https://x.test/h', outcome, schedule, now: at(ms) });

describe('delivery decider', () => {
  it('schedules a new delivery due after the first delay', () => {
    expect(scheduled).toEqual([{ type: 'webhook.delivery_scheduled', data: expect.objectContaining({ ...ref, reason: 'event', dueAt: t0.toISOString() }) }]);
  });

  it('a redelivered source event schedules nothing twice; a replay of a settled delivery starts a new cycle', () => {
    expect(given(scheduled).when({ type: 'ScheduleDelivery', ref, reason: 'event', firstDelayMs: 0, now: at(5) })).toEqual([]);
    const done = [...scheduled, ...given(scheduled).when(attempt(1, ok, 10))];
    expect(given(done).when({ type: 'ScheduleDelivery', ref, reason: 'event', firstDelayMs: 0, now: at(20) })).toEqual([]);
    expect(given(done).when({ type: 'ScheduleDelivery', ref, reason: 'replay', firstDelayMs: 0, now: at(20) })[0].type).toBe('webhook.delivery_scheduled');
    expect(given(scheduled).when({ type: 'ScheduleDelivery', ref, reason: 'replay', firstDelayMs: 0, now: at(20) })).toEqual([]);
  });

  it('follows the schedule: each failure plans the next attempt after its delay, the last one gives up', () => {
    let history = [...scheduled];
    const offsets: string[] = [];
    let now = 0;
    for (let n = 1; n <= schedule.length; n += 1) {
      const [event] = given(history).when(attempt(n, fail(500), now));
      history = [...history, event];
      if (event.type === 'webhook.delivery_attempted') {
        offsets.push(event.data.nextAttemptAt);
        now = Date.parse(event.data.nextAttemptAt) - t0.getTime();
      } else {
        expect(n).toBe(schedule.length);
        expect(event).toMatchObject({ type: 'webhook.delivery_failed', data: { reason: 'exhausted', attempt: 5, statusCode: 500 } });
      }
    }
    expect(offsets).toEqual([at(60_000), at(360_000), at(2_160_000), at(9_360_000)].map((d) => d.toISOString()));
  });

  it('succeeds on any 2xx and records the attempt', () => {
    expect(given(scheduled).when(attempt(1, ok, 10))).toEqual([
      {
        type: 'webhook.delivery_succeeded',
        data: expect.objectContaining({ attempt: 1, statusCode: 200, durationMs: 12, responseBody: 'ok', attemptedAt: at(10).toISOString() }),
      },
    ]);
  });

  it('a 410 fails the delivery at once', () => {
    expect(given(scheduled).when(attempt(1, fail(410), 0))[0]).toMatchObject({ type: 'webhook.delivery_failed', data: { reason: 'gone' } });
  });

  it('a stale or duplicate attempt decides nothing', () => {
    const after1 = [...scheduled, ...given(scheduled).when(attempt(1, fail(500), 0))];
    expect(given(after1).when(attempt(1, ok, 5))).toEqual([]);
    expect(given(after1).when(attempt(3, ok, 5))).toEqual([]);
    expect(given([]).when(attempt(1, ok, 5))).toEqual([]);
  });

  it('cancels a pending delivery whose webhook is off, without an attempt number', () => {
    const [event] = given(scheduled).when({ type: 'CancelDelivery', reason: 'webhook_disabled', url: 'https://x.test/h', now: at(1) });
    expect(event).toMatchObject({ type: 'webhook.delivery_failed', data: { reason: 'webhook_disabled', attempt: null, statusCode: null } });
  });

  it('keeps only the first 4 KB of the answer', () => {
    const [event] = given(scheduled).when(attempt(1, { ...ok, responseBody: 'é'.repeat(3000) }, 0));
    expect(Buffer.byteLength((event.data as { responseBody: string }).responseBody)).toBeLessThanOrEqual(4096);
    expect(truncateUtf8('aé', 2)).toBe('a');
  });
});

describe('Retry-After', () => {
  it('is honoured for 429 and 503 when it asks for longer than the schedule, capped at 24 h', () => {
    expect(nextDelayMs(1, schedule, fail(429, { retryAfterMs: 120_000 }))).toBe(120_000);
    expect(nextDelayMs(1, schedule, fail(503, { retryAfterMs: 5_000 }))).toBe(60_000);
    expect(nextDelayMs(1, schedule, fail(500, { retryAfterMs: 120_000 }))).toBe(60_000);
    expect(nextDelayMs(1, schedule, fail(503, { retryAfterMs: 10 * MAX_RETRY_AFTER_MS }))).toBe(MAX_RETRY_AFTER_MS);
    expect(nextDelayMs(5, schedule, fail(503, { retryAfterMs: 1 }))).toBeNull();
  });
});
