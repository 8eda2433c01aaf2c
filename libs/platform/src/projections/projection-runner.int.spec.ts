// The runner's guarantees on the embedded stores: exactly-once application per projection even
// with two processes (here: two store instances on the same files), resume from checkpoint,
// rebuild on version change, read-your-writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { documentProjection, type Projection, type StreamDoc } from './projection';
import { ProjectionRunner } from './projection-runner';

interface CounterDoc extends Doc {
  count: number;
  seen: number[];
}
const COUNTERS = { name: 'counters', indexes: [] } as const;

/** Counts every application: a double-applied or skipped event shows in `count` and `seen`. */
function countingProjection(version = 1): Projection {
  return {
    name: 'counting',
    version,
    collections: [COUNTERS],
    eventTypes: ['thing.happened'],
    async apply(event: RecordedEvent, store: ReadStore) {
      const counters = store.collection<CounterDoc>(COUNTERS);
      const doc = (await counters.get('total')) ?? { id: 'total', count: 0, seen: [] };
      await counters.put({ ...doc, count: doc.count + 1, seen: [...doc.seen, event.position] });
    },
  };
}

interface ThingDoc extends StreamDoc {
  name: string;
  changes: number;
}
const THINGS = { name: 'things', indexes: [] } as const;
const thingProjection = documentProjection<ThingDoc>({
  name: 'things',
  version: 1,
  collection: THINGS,
  eventTypes: ['thing.happened'],
  evolve(doc, event) {
    const data = event.data as { name: string };
    return { id: '', revision: event.revision, name: data.name, changes: (doc?.changes ?? 0) + 1 };
  },
});

describe('ProjectionRunner', () => {
  let dir: string;
  const opened: Array<{ close(): Promise<void> }> = [];

  function open(pollIntervalMs = 10): { events: SqliteEventStore; reads: SqliteReadStore } {
    const events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs });
    const reads = new SqliteReadStore(join(dir, 'read.db'));
    opened.push(events, reads);
    return { events, reads };
  }

  async function appendThings(events: SqliteEventStore, n: number, stream = 'thing-a'): Promise<number> {
    let position = 0;
    for (let i = 0; i < n; i += 1) {
      const result = await events.append(stream, [{ type: 'thing.happened', data: { name: `n${i}` }, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } }], {
        expectedRevision: 'any',
      });
      position = result.position;
    }
    return position;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-runner-'));
  });

  afterEach(async () => {
    for (const s of opened.splice(0).reverse()) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies each event once and stores its checkpoint', async () => {
    const { events, reads } = open();
    const runner = new ProjectionRunner(events, reads, { batchSize: 7 });
    runner.register(countingProjection());
    const head = await appendThings(events, 30);
    await runner.catchUp();
    await runner.catchUp(); // nothing new: a no-op
    const total = await reads.collection<CounterDoc>(COUNTERS).get('total');
    expect(total?.count).toBe(30);
    expect((await runner.status())[0]).toMatchObject({ name: 'counting', position: head, head, lag: 0 });
  });

  it('a document projection applied twice equals applied once', async () => {
    const { events, reads } = open();
    await appendThings(events, 3);
    const all = await events.readAll();
    for (const e of all) await thingProjection.apply(e, reads);
    const once = await reads.collection<ThingDoc>(THINGS).get('a');
    for (const e of all) await thingProjection.apply(e, reads);
    expect(await reads.collection<ThingDoc>(THINGS).get('a')).toEqual(once);
    expect(once).toMatchObject({ id: 'a', revision: 2, name: 'n2', changes: 3 });
  });

  it('two runners on the same files take turns without double-applying or skipping', async () => {
    // Two store instances stand for two processes (server and CLI). node:sqlite is synchronous, so
    // in one thread their transactions must not overlap: they take turns here, and the truly
    // concurrent case runs across real processes in test/cli.e2e.spec.ts.
    const a = open();
    const b = open();
    const runnerA = new ProjectionRunner(a.events, a.reads, { batchSize: 5 });
    const runnerB = new ProjectionRunner(b.events, b.reads, { batchSize: 3 });
    runnerA.register(countingProjection());
    runnerB.register(countingProjection());
    await appendThings(a.events, 12);
    await runnerA.catchUp();
    await appendThings(b.events, 10, 'thing-b');
    await runnerB.catchUp();
    await appendThings(a.events, 4);
    await runnerA.catchUp();
    await runnerB.rebuild('counting'); // B resets the checkpoint A relied on, then replays all
    await appendThings(a.events, 3);
    await runnerA.catchUp();
    const total = await a.reads.collection<CounterDoc>(COUNTERS).get('total');
    expect(total?.count).toBe(29);
    expect(total?.seen).toEqual([...new Set(total?.seen)].sort((x, y) => x - y));
  });

  it('a live runner skips what another process already applied', async () => {
    // A polls for foreign appends every 300 ms, so B appends and applies first, in between.
    const a = open(300);
    const b = open();
    const live = new ProjectionRunner(a.events, a.reads);
    const other = new ProjectionRunner(b.events, b.reads);
    live.register(countingProjection());
    other.register(countingProjection());
    await live.start();
    const first = await appendThings(a.events, 5);
    expect(await live.waitFor(first, 5000)).toBe(true);
    await appendThings(b.events, 3, 'thing-b');
    await other.catchUp(); // checkpoint 5 → 8 behind A's back
    const third = await appendThings(a.events, 2);
    expect(await live.waitFor(third, 5000)).toBe(true);
    await live.stop();
    const total = await a.reads.collection<CounterDoc>(COUNTERS).get('total');
    expect(total?.count).toBe(10); // without the checkpoint check, events 6–8 would count twice
    expect(total?.seen).toEqual([...new Set(total?.seen)].sort((x, y) => x - y));
  });

  it('stops cleanly and does not spin when its stores are closed under it', async () => {
    const { events, reads } = open();
    const failures: unknown[] = [];
    const runner = new ProjectionRunner(events, reads, { logger: { error: (_message, error) => void failures.push(error) } });
    runner.register(countingProjection());
    await runner.start();
    const subscribe = jest.spyOn(events, 'subscribe');
    await events.close();
    await new Promise((r) => setTimeout(r, 1000));
    // Counted, not timed: over a second, a lane backing off (100 ms, doubling) tries again a few
    // times; a spinning one would try thousands of times (one spinning on promises alone would
    // never let the timer fire: jest's timeout would fail the test).
    expect(subscribe.mock.calls.length).toBeLessThanOrEqual(10);
    expect(failures.length).toBeLessThanOrEqual(10);
    await runner.stop();
  });

  it('resumes from its checkpoint after a restart', async () => {
    const first = open();
    const runner1 = new ProjectionRunner(first.events, first.reads);
    runner1.register(countingProjection());
    await appendThings(first.events, 10);
    await runner1.catchUp();
    await appendThings(first.events, 5);
    await first.events.close();
    await first.reads.close();

    const second = open();
    const runner2 = new ProjectionRunner(second.events, second.reads);
    runner2.register(countingProjection());
    await runner2.start();
    expect(await runner2.waitFor(await second.events.headPosition(), 5000)).toBe(true);
    await runner2.stop();
    const total = await second.reads.collection<CounterDoc>(COUNTERS).get('total');
    expect(total?.count).toBe(15);
  });

  it('rebuilds a projection whose version changed, and rebuild() replays to the same result', async () => {
    const { events, reads } = open();
    const v1 = new ProjectionRunner(events, reads);
    v1.register(countingProjection(1), thingProjection);
    await appendThings(events, 8);
    await v1.catchUp();
    const things = await reads.collection<ThingDoc>(THINGS).get('a');

    await v1.rebuild('things');
    expect(await reads.collection<ThingDoc>(THINGS).get('a')).toEqual(things);

    const v2 = new ProjectionRunner(events, reads);
    v2.register(countingProjection(2), thingProjection);
    await v2.start(); // version 2 ≠ stored 1: cleared and replayed, not counted on top
    expect(await v2.waitFor(await events.headPosition(), 5000)).toBe(true);
    await v2.stop();
    expect((await reads.collection<CounterDoc>(COUNTERS).get('total'))?.count).toBe(8);
  });

  it('waitFor follows a live projection, and times out when nothing runs it', async () => {
    const { events, reads } = open();
    const live = new ProjectionRunner(events, reads);
    live.register(thingProjection);
    await live.start();
    const position = await appendThings(events, 1, 'thing-live');
    expect(await live.waitFor(position, 5000)).toBe(true);
    expect(await reads.collection<ThingDoc>(THINGS).get('live')).toMatchObject({ name: 'n0' });
    await live.stop();

    const idle = new ProjectionRunner(events, reads, { pollMs: 5 });
    idle.register(thingProjection);
    const later = await appendThings(events, 1, 'thing-late');
    expect(await idle.waitFor(later, 100)).toBe(false);
  });

  /** Counts, like countingProjection, on the eventual lane; `gate` holds its batches while set. */
  function eventualCounting(state: { gate: Promise<void> | null }): Projection {
    return { ...countingProjection(), name: 'counting-eventual', consistency: 'eventual', async apply(event, store) {
      if (state.gate) await state.gate;
      const counters = store.collection<CounterDoc>(COUNTERS);
      const doc = (await counters.get('total')) ?? { id: 'total', count: 0, seen: [] };
      doc.count += 1;
      doc.seen.push(event.position);
      await counters.put(doc);
    } };
  }

  /** The read store as the runner sees it, counting the documents written to `counters`. */
  function countingPuts(reads: ReadStore): { store: ReadStore; puts: () => number } {
    let puts = 0;
    const store: ReadStore = {
      collection: <T extends Doc>(spec: CollectionSpec) => {
        const inner = reads.collection<T>(spec);
        if (spec.name !== COUNTERS.name) return inner;
        return Object.assign(Object.create(inner) as typeof inner, { put: (doc: T) => ((puts += 1), inner.put(doc)) });
      },
      transaction: (fn) => reads.transaction(fn),
      changeToken: () => reads.changeToken(),
      ping: () => reads.ping(),
      close: () => reads.close(),
    };
    return { store, puts: () => puts };
  }

  it('an eventual projection: writes do not wait for it, its readers do, and a reader ends its pause', async () => {
    const { events, reads } = open();
    let release!: () => void;
    const state: { gate: Promise<void> | null } = { gate: new Promise<void>((r) => (release = r)) };
    const runner = new ProjectionRunner(events, reads, { eventualIntervalMs: 60_000 });
    runner.register(thingProjection, eventualCounting(state));
    await runner.start();
    const first = await appendThings(events, 1, 'thing-x');
    // The read-your-writes lane answers while the eventual one is held.
    expect(await runner.waitFor(first, 5000)).toBe(true);
    expect(await runner.waitFor(first, 50, ['counting-eventual'])).toBe(false);
    state.gate = null;
    release();
    expect(await runner.waitForHead(['counting-eventual'], 5000)).toBe(true);
    // Now the lane pauses a minute between batches — unless a reader waits for it.
    const second = await appendThings(events, 1, 'thing-y');
    // Answered well within the minute's pause (waitFor's own time-out, 20 s, only catches a hang).
    expect(await runner.waitFor(second, 20_000, ['counting-eventual'])).toBe(true);
    expect((await reads.collection<CounterDoc>(COUNTERS).get('total'))?.count).toBe(2);
    expect((await runner.status()).map((s) => [s.name, s.consistency])).toEqual([
      ['things', 'read-your-writes'],
      ['counting-eventual', 'eventual'],
    ]);
    await runner.stop();
  });

  it('an eventual projection\'s batch gathers events and writes each document once, to the same result', async () => {
    const { events, reads } = open();
    const { store, puts } = countingPuts(reads);
    const runner = new ProjectionRunner(events, store, { eventualIntervalMs: 200 });
    runner.register(eventualCounting({ gate: null }));
    await runner.start();
    const positions: number[] = [];
    for (let i = 0; i < 40; i += 1) positions.push(await appendThings(events, 1, `thing-${i}`));
    expect(await runner.waitForHead(['counting-eventual'], 5000)).toBe(true);
    await runner.stop();
    const total = await reads.collection<CounterDoc>(COUNTERS).get('total');
    expect(total).toMatchObject({ count: 40, seen: positions });
    // 40 events, one put of the document per batch: the pause let them gather.
    expect(puts()).toBeLessThan(10);
    // A catch-up from scratch (one batch) gives the same document.
    const again = new ProjectionRunner(events, reads);
    again.register(eventualCounting({ gate: null }));
    await again.rebuild('counting-eventual');
    expect(await reads.collection<CounterDoc>(COUNTERS).get('total')).toEqual(total);
  });

  it('an eventual store of its own: that lane\'s documents and checkpoints live there, and a process running only it never commits to the main store', async () => {
    const { events, reads } = open();
    const eventual = new SqliteReadStore(join(dir, 'eventual.db'));
    opened.push(eventual);
    const runner = new ProjectionRunner(events, reads, { eventualStore: eventual, batchSize: 4 });
    runner.register(thingProjection, eventualCounting({ gate: null }));
    await appendThings(events, 10);
    await runner.catchUp(); // both lanes, each batch in one transaction per store
    expect(await reads.collection<ThingDoc>(THINGS).get('a')).toMatchObject({ changes: 10 });
    expect(await eventual.collection<CounterDoc>(COUNTERS).get('total')).toMatchObject({ count: 10 });
    expect(await reads.collection<CounterDoc>(COUNTERS).get('total')).toBeNull();
    const checkpoints = (store: ReadStore) => store.collection<Doc & { position: number }>({ name: 'projection_checkpoints', indexes: [] });
    expect((await checkpoints(reads).getMany(['things', 'counting-eventual'])).map((c) => c.id)).toEqual(['things']);
    expect((await checkpoints(eventual).getMany(['things', 'counting-eventual'])).map((c) => c.id)).toEqual(['counting-eventual']);
    expect((await runner.status()).map((s) => [s.name, s.lag])).toEqual([['things', 0], ['counting-eventual', 0]]);

    // The background process: the eventual lane alone. The API applies the read-your-writes lane.
    const worker = open();
    const workerEventual = new SqliteReadStore(join(dir, 'eventual.db'));
    opened.push(workerEventual);
    const background = new ProjectionRunner(worker.events, worker.reads, { eventualStore: workerEventual, eventualIntervalMs: 10, lanes: { primary: false, eventual: true } });
    background.register(thingProjection, eventualCounting({ gate: null }));
    await background.start();
    const before = await worker.reads.changeToken();
    const head = await appendThings(events, 5, 'thing-b');
    expect(await background.waitFor(head, 5000, ['counting-eventual'])).toBe(true);
    expect(await workerEventual.collection<CounterDoc>(COUNTERS).get('total')).toMatchObject({ count: 15 });
    expect(await worker.reads.changeToken()).toBe(before); // read.db: not one commit
    await background.stop();

    // A rebuild clears and replays the eventual projection in its own store.
    await runner.rebuild('counting-eventual');
    expect(await eventual.collection<CounterDoc>(COUNTERS).get('total')).toMatchObject({ count: 15 });
    expect(await reads.collection<CounterDoc>(COUNTERS).get('total')).toBeNull();
  });
});
