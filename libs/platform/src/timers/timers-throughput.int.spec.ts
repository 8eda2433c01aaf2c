// The scheduler's share of the bench target "10,000 holds expiring at the same instant are all
// released within 5 s": 10,000 probes due at one instant, fired through the write path by a batch
// handler, on the embedded stores. Prints the figures; fails beyond 5 s.
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
const DUE = '2025-01-01T12:00:00.000Z';

describe('DurableTimers throughput', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'timers-bench-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(`fires ${COUNT.toLocaleString('en')} timers due at the same instant within 5 s`, async () => {
    const clock = new FakeClock('2025-01-01T11:59:00.000Z');
    const events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    const reads = new SqliteReadStore(join(dir, 'read.db'));
    const projections = new ProjectionRunner(events, reads, { pollMs: 10 });
    const errors: string[] = [];
    const timers = new DurableTimers(events, reads, projections, clock, { logger: { error: (m) => errors.push(m), warn: (m) => errors.push(m) } });
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
      let started = performance.now();
      await projections.start();
      await projections.waitFor(await events.headPosition(), 30_000);
      const projectMs = performance.now() - started;
      expect(await pending.count({})).toBe(COUNT);
      await timers.start();

      // The instant comes; the scheduler finds it at its next poll (TIMER_POLL_MS, default 250).
      clock.set(DUE);
      started = performance.now();
      while (fired < COUNT && performance.now() - started < 10_000) await new Promise((r) => setTimeout(r, 5));
      const fireMs = performance.now() - started;
      while ((await pending.count({})) > 0 && performance.now() - started < 20_000) await new Promise((r) => setTimeout(r, 5));
      const cancelledMs = performance.now() - started;

      const effects = await firedProbes(events);
      console.log(
        `${COUNT} timers: projected (scheduled) in ${projectMs.toFixed(0)} ms; all fired in effect ${fireMs.toFixed(0)} ms after they fell due ` +
          `(poll included, ${handler.calls.length} handler calls); all cancelled in the read model after ${cancelledMs.toFixed(0)} ms`,
      );
      expect(effects).toHaveLength(COUNT);
      expect(new Set(effects).size).toBe(COUNT);
      expect(fireMs).toBeLessThan(5000);
      expect(errors).toEqual([]);
    } finally {
      await timers.stop();
      await projections.stop();
      await events.close();
      await reads.close();
    }
  });
});
