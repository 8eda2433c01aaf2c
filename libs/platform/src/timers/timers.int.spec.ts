// Durable timers on the embedded stores, with a probe source and a handler going through the write
// path: due timers fire once in effect, others do not; a restart and a second worker process fire
// again only in vain; a throwing handler is retried; a rebuild keeps the pending timers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FakeClock } from '@app/testing/support/fake-clock';
import {
  cancelled,
  firedProbes,
  PROBE_KIND,
  probeHandler,
  probeSource,
  probeStream,
  probeTimerId,
  scheduled,
  scheduleProbes,
} from '@app/testing/support/timer-probe';

import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { ProjectionRunner } from '../projections/projection-runner';
import { type SqliteCollection, SqliteReadStore } from '../read-store/sqlite-read-store';
import { DurableTimers, type DurableTimersOptions, type DueTimer, type TimerDoc, TIMERS, type TimerSource } from './timers';

const T0 = '2025-01-01T12:00:00.000Z';
const at = (offsetMs: number) => new Date(Date.parse(T0) + offsetMs).toISOString();
const MINUTE = 60_000;

describe('DurableTimers', () => {
  let dir: string;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'timers-'));
  });

  afterEach(async () => {
    for (const c of open.splice(0).reverse()) await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One process: its own connections to the stores in `dir`, its runner and its scheduler. */
  function worker(options: { clock?: FakeClock; before?: (timers: readonly DueTimer[]) => void; sources?: TimerSource[] } & DurableTimersOptions = {}) {
    const clock = options.clock ?? new FakeClock(T0);
    const events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    const reads = new SqliteReadStore(join(dir, 'read.db'));
    const projections = new ProjectionRunner(events, reads, { pollMs: 10 });
    const logger = { error: jest.fn<void, [string]>(), warn: jest.fn<void, [string]>() };
    const timers = new DurableTimers(events, reads, projections, clock, { logger, retryMs: 1000, ...options });
    for (const source of options.sources ?? [probeSource]) timers.register(source);
    const handler = probeHandler(events, options.before);
    timers.handle(handler);
    const stored = reads.collection<TimerDoc>(TIMERS);
    const pending = async () => (await stored.find({}, { sort: [['dueAt', 1]], limit: 100_000 })).items;
    const p = {
      clock,
      events,
      reads,
      projections,
      timers,
      handler,
      logger,
      stored,
      pending,
      async close() {
        await timers.stop();
        await projections.stop();
        await events.close();
        await reads.close();
      },
    };
    open.push(p);
    return p;
  }

  it('fires due timers once in effect; not those not yet due, nor cancelled ones', async () => {
    const p = worker();
    await p.events.append(probeStream('a'), [scheduled('a', at(-MINUTE))], { expectedRevision: 'no_stream' });
    await p.events.append(probeStream('b'), [scheduled('b', at(10 * MINUTE))], { expectedRevision: 'no_stream' });
    await p.events.append(probeStream('c'), [scheduled('c', at(-MINUTE)), cancelled('c')], { expectedRevision: 'no_stream' });
    await p.projections.catchUp();
    expect((await p.pending()).map((t) => t.id)).toEqual([probeTimerId('a'), probeTimerId('b')]);

    expect(await p.timers.runDue()).toEqual({ due: 1, fired: 1, failed: 0, waiting: 0 });
    expect(p.handler.calls).toEqual([[{ timerId: probeTimerId('a'), kind: PROBE_KIND, dueAt: at(-MINUTE), workspaceId: 'ws_probe', subjectId: 'a' }]]);
    // Its cancel (the probe.fired event) has not reached the projection yet: not fired again.
    expect(await p.timers.runDue()).toEqual({ due: 1, fired: 0, failed: 0, waiting: 1 });
    await p.projections.catchUp();
    expect((await p.pending()).map((t) => t.id)).toEqual([probeTimerId('b')]);

    p.clock.advance(10 * MINUTE);
    expect(await p.timers.runDue()).toMatchObject({ due: 1, fired: 1 });
    expect((await firedProbes(p.events)).sort()).toEqual(['a', 'b']);
    expect(p.handler.calls).toHaveLength(2);
  });

  it('fires by itself where it runs: polls, wakes, and stops gracefully', async () => {
    const p = worker({ pollMs: 20 });
    await p.projections.start();
    await p.timers.start();
    await p.events.append(probeStream('a'), [scheduled('a', at(0))], { expectedRevision: 'no_stream' });
    await waitUntil(async () => (await firedProbes(p.events)).length === 1);
    await p.events.append(probeStream('b'), [scheduled('b', at(5 * MINUTE))], { expectedRevision: 'no_stream' });
    p.clock.advance(5 * MINUTE);
    p.timers.wake();
    await waitUntil(async () => (await firedProbes(p.events)).length === 2);
    await waitUntil(async () => (await p.pending()).length === 0);
    await p.timers.stop();
    expect(p.timers.isRunning).toBe(false);
    expect(p.logger.error).not.toHaveBeenCalled();
  });

  it('after a restart, fires what fell due while it was down, and not what was done', async () => {
    const first = worker();
    await scheduleProbes(first.events, ['a'], at(-MINUTE));
    await scheduleProbes(first.events, ['b'], at(5 * MINUTE));
    await first.projections.catchUp();
    await first.timers.runDue();
    await first.projections.catchUp();
    await first.close();

    // Down for ten minutes; meanwhile another process scheduled `c`, already due.
    const second = worker({ clock: new FakeClock(at(10 * MINUTE)) });
    await scheduleProbes(second.events, ['c'], at(MINUTE));
    await second.projections.catchUp();
    expect(await second.timers.runDue()).toMatchObject({ due: 2, fired: 2 });
    expect(second.handler.calls.flat().map((t) => t.subjectId)).toEqual(['c', 'b']);
    expect((await firedProbes(second.events)).sort()).toEqual(['a', 'b', 'c']);
  });

  it('fires again in vain after a crash between the effect and the projection', async () => {
    const first = worker();
    await scheduleProbes(first.events, ['a', 'b'], at(-MINUTE));
    await first.projections.catchUp();
    await first.timers.runDue();
    await first.close(); // the projection never applied the probe.fired events

    const second = worker();
    expect(await second.pending()).toHaveLength(2);
    expect(await second.timers.runDue()).toMatchObject({ due: 2, fired: 2 }); // the handler ran…
    expect((await firedProbes(second.events)).sort()).toEqual(['a', 'b']); // …and decided nothing
    await second.projections.catchUp();
    expect(await second.pending()).toEqual([]);
  });

  it('two schedulers on the same store (two worker processes): each timer takes effect once', async () => {
    const one = worker();
    const two = worker();
    const ids = Array.from({ length: 300 }, (_, i) => `p${String(i).padStart(3, '0')}`);
    await scheduleProbes(one.events, ids, at(-MINUTE));
    // One of them runs the projections (two SQLite writers in one thread would wait on each other);
    // the other's scheduler reads the shared read model and the stored checkpoint, as across processes.
    await one.projections.catchUp();
    const [a, b] = await Promise.all([one.timers.runDue(), two.timers.runDue()]);
    expect(a.fired + b.fired).toBeGreaterThanOrEqual(300);
    const fired = await firedProbes(one.events);
    expect(fired).toHaveLength(300);
    expect(new Set(fired).size).toBe(300);

    // And running on their own, with more timers falling due while both poll.
    await one.projections.start();
    await Promise.all([one.timers.start(), two.timers.start()]);
    const more = Array.from({ length: 200 }, (_, i) => `q${String(i).padStart(3, '0')}`);
    await scheduleProbes(two.events, more, at(MINUTE));
    one.clock.advance(MINUTE);
    two.clock.advance(MINUTE);
    await waitUntil(async () => (await firedProbes(one.events)).length >= 500 && (await one.pending()).length === 0);
    const all = await firedProbes(one.events);
    expect(all).toHaveLength(500);
    expect(new Set(all).size).toBe(500);
  });

  it('retries a throwing handler later, with a backoff, and logs no stack', async () => {
    let failing = 2;
    const p = worker({
      before: () => {
        if (failing > 0) {
          failing -= 1;
          throw new Error('store briefly unavailable');
        }
      },
    });
    await scheduleProbes(p.events, ['a', 'b'], at(-MINUTE));
    await p.projections.catchUp();
    // The batch fails, then one of the two alone; the other goes through.
    expect(await p.timers.runDue()).toMatchObject({ due: 2, fired: 1, failed: 1 });
    expect(await p.timers.runDue()).toMatchObject({ fired: 0, waiting: 2 }); // backing off
    p.clock.advance(1000);
    expect(await p.timers.runDue()).toMatchObject({ fired: 1, failed: 0 });
    expect((await firedProbes(p.events)).sort()).toEqual(['a', 'b']);
    const logged = p.logger.error.mock.calls.map(([m]) => m).join('\n');
    expect(logged).toContain('Error: store briefly unavailable');
    expect(logged).toContain('retrying in 1000 ms');
    expect(logged).not.toMatch(/\n\s+at /);
  });

  it('keeps a poison timer from holding back the others, and logs an unknown kind once', async () => {
    const stray: TimerSource = {
      name: 'stray',
      eventTypes: ['stray.scheduled'],
      timersOf: (e) => ({ schedule: [{ timerId: `stray:${e.streamId}`, kind: 'nobody.handles', dueAt: at(-MINUTE), workspaceId: 'ws_probe', subjectId: e.streamId }] }),
    };
    const p = worker({
      sources: [probeSource, stray],
      before: (timers) => {
        if (timers.some((t) => t.subjectId === 'poison')) throw new Error('cannot fire poison');
      },
    });
    await scheduleProbes(p.events, ['a', 'poison', 'z'], at(-MINUTE));
    await p.events.append('stray-1', [{ type: 'stray.scheduled', data: {}, metadata: { workspaceId: 'ws_probe', schemaVersion: 1 } }], { expectedRevision: 'no_stream' });
    await p.projections.catchUp();
    expect(await p.timers.runDue()).toEqual({ due: 4, fired: 2, failed: 1, waiting: 1 });
    await p.timers.runDue();
    expect((await firedProbes(p.events)).sort()).toEqual(['a', 'z']);
    const unknown = p.logger.error.mock.calls.filter(([m]) => m.includes('nobody.handles'));
    expect(unknown).toHaveLength(1);
  });

  it('fires a timer its effect does not cancel again only after a doubling backoff, and warns', async () => {
    const p = worker({ sources: [{ ...probeSource, eventTypes: ['probe.scheduled'] }] }); // forgets to cancel
    await scheduleProbes(p.events, ['a'], at(-MINUTE));
    await p.projections.catchUp();
    expect(await p.timers.runDue()).toMatchObject({ fired: 1 });
    await p.projections.catchUp();
    expect(await p.timers.runDue()).toMatchObject({ fired: 0, waiting: 1 });
    p.clock.advance(1000);
    expect(await p.timers.runDue()).toMatchObject({ fired: 1 });
    p.clock.advance(1000);
    expect(await p.timers.runDue()).toMatchObject({ fired: 0 });
    p.clock.advance(1000);
    expect(await p.timers.runDue()).toMatchObject({ fired: 1 });
    expect(p.logger.warn).toHaveBeenCalledTimes(1);
    expect(p.logger.warn.mock.calls[0][0]).toContain(`timer ${probeTimerId('a')} (${PROBE_KIND}) was fired 3 times`);
    expect(await firedProbes(p.events)).toEqual(['a']);
  });

  it('survives a handler that throws before returning a promise', async () => {
    const p = worker();
    p.timers.handle({
      kind: 'sync.throw',
      fire: () => {
        throw new Error('not even async');
      },
    });
    const sync: TimerSource = {
      name: 'sync',
      eventTypes: ['sync.scheduled'],
      timersOf: (e) => ({ schedule: [{ timerId: `sync:${e.streamId}`, kind: 'sync.throw', dueAt: at(-MINUTE), workspaceId: 'ws_probe', subjectId: e.streamId }] }),
    };
    p.timers.register(sync);
    const meta = { workspaceId: 'ws_probe', schemaVersion: 1 };
    await p.events.appendMany(
      ['s-1', 's-2'].map((streamId) => ({ streamId, events: [{ type: 'sync.scheduled', data: {}, metadata: meta }], expectedRevision: 'no_stream' as const })),
    );
    await scheduleProbes(p.events, ['a'], at(-MINUTE));
    await p.projections.catchUp();
    expect(await p.timers.runDue()).toEqual({ due: 3, fired: 1, failed: 2, waiting: 0 });
    expect(await firedProbes(p.events)).toEqual(['a']);
  });

  it('a rebuild of the projection keeps the pending timers exactly', async () => {
    const p = worker();
    await scheduleProbes(p.events, ['a', 'b', 'c'], at(-MINUTE));
    await scheduleProbes(p.events, ['later'], at(MINUTE));
    await p.events.append(probeStream('b'), [cancelled('b')], { expectedRevision: 0 });
    await p.projections.catchUp();
    await p.timers.runDue(); // a and c fire
    await p.projections.catchUp();
    const before = await p.pending();
    expect(before.map((t) => t.id)).toEqual([probeTimerId('later')]);
    await p.projections.rebuild('timers');
    expect(await p.pending()).toEqual(before);
  });

  it('rebuilds the timers when a source is added, so timers scheduled before it are kept', async () => {
    const late: TimerSource = {
      name: 'late',
      eventTypes: ['late.scheduled'],
      timersOf: (e) => ({ schedule: [{ timerId: `late:${e.streamId}`, kind: PROBE_KIND, dueAt: at(MINUTE), workspaceId: 'ws_probe', subjectId: 'x' }] }),
    };
    const first = worker();
    await first.events.append('late-1', [{ type: 'late.scheduled', data: {}, metadata: { workspaceId: 'ws_probe', schemaVersion: 1 } }], { expectedRevision: 'no_stream' });
    await scheduleProbes(first.events, ['a'], at(MINUTE));
    await first.projections.catchUp();
    expect(await first.pending()).toHaveLength(1);
    await first.close();

    const second = worker({ sources: [probeSource, late] });
    await second.projections.start();
    await second.projections.waitFor(await second.events.headPosition(), 5000);
    expect((await second.pending()).map((t) => t.id).sort()).toEqual(['late:late-1', probeTimerId('a')]);
    expect(() => second.timers.register({ ...late, name: 'too-late' })).toThrow('after the projections started');
  });

  it('finds due timers through its index, in order, without sorting', async () => {
    const p = worker();
    const plan = (p.stored as SqliteCollection<TimerDoc>).explain({ dueAt: { $lte: T0 } }, { sort: [['dueAt', 1]], limit: 500 }).join('\n');
    expect(plan).toContain('c_timers__by_due');
    expect(plan).not.toContain('TEMP B-TREE');
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
