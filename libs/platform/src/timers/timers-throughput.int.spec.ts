// The scheduler's share of the bench target "10,000 holds expiring at the same instant are all
// released within 5 s": 10,000 probes due at one instant, fired through the write path by a batch
// handler, on the embedded stores — each once, in batches of the scheduler's size (a count, not a
// time: the test holds on a busy machine). It times nothing: the 5 s target is measured end to end
// by the trading bench (`npm run bench:trading`, its holds scenario).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FakeClock } from '@app/testing/support/fake-clock';
import { firedProbes, probeHandler, probeSource, scheduleProbes } from '@app/testing/support/timer-probe';

import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { ProjectionRunner } from '../projections/projection-runner';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { DurableTimers, TIMERS } from './timers';

const COUNT = 10_000;
const BATCH = 500;
const DUE = '2025-01-01T12:00:00.000Z';

describe('DurableTimers throughput', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'timers-bench-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(`fires ${COUNT.toLocaleString('en')} timers due at the same instant, each once, ${BATCH} at a time`, async () => {
    const clock = new FakeClock('2025-01-01T11:59:00.000Z');
    const events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    const reads = new SqliteReadStore(join(dir, 'read.db'));
    const projections = new ProjectionRunner(events, reads, { pollMs: 10 });
    const errors: string[] = [];
    const timers = new DurableTimers(events, reads, projections, clock, { batchSize: BATCH, logger: { error: (m) => errors.push(m), warn: (m) => errors.push(m) } });
    timers.register(probeSource);
    let fired = 0;
    const handler = probeHandler(events);
    timers.handle({
      kind: handler.kind,
      async fire(batch, now) {
        await handler.fire(batch, now);
        fired += batch.length;
      },
    });
    const pending = reads.collection(TIMERS);
    try {
      const ids = Array.from({ length: COUNT }, (_, i) => `p${String(i).padStart(5, '0')}`);
      await scheduleProbes(events, ids, DUE);
      await projections.start();
      await projections.waitFor(await events.headPosition(), 30_000);
      expect(await pending.count({})).toBe(COUNT);
      await timers.start();

      // The instant comes; the scheduler finds it at its next poll (TIMER_POLL_MS, default 250).
      clock.set(DUE);
      // A deadline that only catches a hang.
      const hang = Date.now() + 90_000;
      while (fired < COUNT && Date.now() < hang) await new Promise((r) => setTimeout(r, 5));
      while ((await pending.count({})) > 0 && Date.now() < hang) await new Promise((r) => setTimeout(r, 5));

      const effects = await firedProbes(events);
      expect(effects).toHaveLength(COUNT);
      expect(new Set(effects).size).toBe(COUNT);
      // Batches, never one timer at a time: full pages of the due timers (a look may end on a part
      // of one), each handed to the handler whole.
      expect(handler.calls.every((batch) => batch.length <= BATCH)).toBe(true);
      expect(handler.calls.length).toBeLessThanOrEqual(2 * (COUNT / BATCH));
      expect(await pending.count({})).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await timers.stop();
      await projections.stop();
      await events.close();
      await reads.close();
    }
  }, 180_000);
});
