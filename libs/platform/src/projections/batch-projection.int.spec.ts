// The batch projection engine on the embedded stores: a batch is read once and handed to every
// projection of the lane; a document projection loads the documents the batch touches in one
// getMany, folds the events in memory and writes each changed document once, with the checkpoint,
// in one transaction; a view reads and writes a document once a batch (a BatchCache), unless one
// of its collections has a unique index. Store calls are counted by a wrapping ReadStore.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { Collection, CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import type { InlineProjections } from './inline-projections';
import { documentProjection, type Projection, type StreamDoc } from './projection';
import { CHECKPOINTS, type CheckpointDoc } from './projection-checkpoints';
import { applyBatchTo } from './projection-lane';
import { ProjectionRunner } from './projection-runner';
import { view, viewProjection } from './view-projection';

type Op = 'get' | 'getMany' | 'put' | 'patch' | 'delete' | 'find' | 'count';

/** A ReadStore that counts the calls made on each collection (and the ids getMany asked for). */
class CountingStore implements ReadStore {
  readonly calls: Array<{ collection: string; op: Op; ids?: string[] }> = [];
  constructor(readonly inner: ReadStore) {}

  count(collection: string, op: Op): number {
    return this.calls.filter((c) => c.collection === collection && c.op === op).length;
  }

  reset(): void {
    this.calls.length = 0;
  }

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    const inner = this.inner.collection<T>(spec);
    const note = (op: Op, ids?: readonly string[]) => this.calls.push({ collection: spec.name, op, ...(ids ? { ids: [...ids] } : {}) });
    return {
      spec,
      get: (id) => (note('get'), inner.get(id)),
      getMany: (ids) => (note('getMany', ids), inner.getMany(ids)),
      put: (doc) => (note('put'), inner.put(doc)),
      patch: (id, changes) => (note('patch'), inner.patch(id, changes)),
      delete: (id) => (note('delete'), inner.delete(id)),
      find: (filter, options) => (note('find'), inner.find(filter, options)),
      count: (filter) => (note('count'), inner.count(filter)),
      clear: () => inner.clear(),
    };
  }
  transaction<R>(fn: () => Promise<R>): Promise<R> {
    return this.inner.transaction(fn);
  }
  changeToken(): Promise<string | null> {
    return this.inner.changeToken();
  }
  ping(): Promise<void> {
    return this.inner.ping();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

interface ThingDoc extends StreamDoc {
  name: string;
  seen: number[];
}
const THINGS: CollectionSpec = { name: 'batch_things', indexes: [{ name: 'by_name', fields: [['name', 1]] }] };

let evolved = 0;
const things = documentProjection<ThingDoc>({
  name: 'batch_things',
  version: 1,
  collection: THINGS,
  eventTypes: ['thing.named', 'thing.removed'],
  evolve(doc, event) {
    evolved += 1;
    if (event.type === 'thing.removed') return null;
    const data = event.data as { name: string };
    return { id: '', revision: event.revision, name: data.name, seen: [...(doc?.seen ?? []), event.position] };
  },
});

interface TallyDoc extends Doc {
  n: number;
  names: string[];
}
const TALLIES: CollectionSpec = { name: 'batch_tallies', indexes: [{ name: 'by_n', fields: [['n', 1]] }] };
/** A view every event reads and writes the same document of (and, withFind, finds its own write of). */
function tallyView(spec: CollectionSpec = TALLIES, name = 'batch_tallies', withFind = false): Projection {
  return viewProjection({
    name,
    version: 1,
    collections: [spec],
    eventTypes: ['thing.named'],
    *evolve(event) {
      const current = yield* view.get<TallyDoc>(spec, 'total');
      const data = event.data as { name: string };
      yield* view.put<TallyDoc>(spec, { id: 'total', n: (current?.n ?? 0) + 1, names: [...(current?.names ?? []), data.name] });
      if (!withFind) return;
      // Its own writes of this batch are visible to a find (which flushes them first).
      const found = yield* view.find<TallyDoc>(spec, { n: (current?.n ?? 0) + 1 });
      if (found.items.length !== 1) throw new Error(`find did not see the batch's write (${found.items.length})`);
    },
  });
}

describe('batch projection engine', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let store: CountingStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-batch-projection-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    reads = new SqliteReadStore(join(dir, 'read.db'));
    store = new CountingStore(reads);
    evolved = 0;
  });

  afterEach(async () => {
    await reads.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function append(stream: string, type: string, data: Record<string, unknown> = {}): Promise<number> {
    const result = await events.append(stream, [{ type, data, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } }], { expectedRevision: 'any' });
    return result.position;
  }

  function runner(...projections: Projection[]): ProjectionRunner {
    const r = new ProjectionRunner(events, store, { batchSize: 1000 });
    r.register(...projections);
    return r;
  }

  const doc = (id: string) => reads.collection<ThingDoc>(THINGS).get(id);

  it('given 50 events of one stream, when a batch applies them, then the document is read once and written once', async () => {
    for (let i = 0; i < 50; i += 1) await append('thing-a', 'thing.named', { name: `n${i}` });
    await runner(things).catchUp();
    expect(store.count(THINGS.name, 'getMany')).toBe(1);
    expect(store.count(THINGS.name, 'get')).toBe(0);
    expect(store.count(THINGS.name, 'put')).toBe(1);
    const a = await doc('a');
    expect(a).toMatchObject({ id: 'a', revision: 49, name: 'n49' });
    expect(a?.seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('given events of many streams, then one getMany for all their documents and one put each', async () => {
    for (let i = 0; i < 5; i += 1) for (const s of ['a', 'b', 'c']) await append(`thing-${s}`, 'thing.named', { name: `${s}${i}` });
    await runner(things).catchUp();
    const getManys = store.calls.filter((c) => c.collection === THINGS.name && c.op === 'getMany');
    expect(getManys).toEqual([{ collection: THINGS.name, op: 'getMany', ids: ['a', 'b', 'c'] }]);
    expect(store.count(THINGS.name, 'put')).toBe(3);
    expect((await doc('c'))?.name).toBe('c4');
  });

  it('given a document ended by an event, then it is deleted once; made and ended in one batch, never written', async () => {
    await append('thing-old', 'thing.named', { name: 'old' });
    await runner(things).catchUp();
    store.reset();
    for (let i = 0; i < 10; i += 1) await append('thing-old', 'thing.named', { name: `old${i}` });
    await append('thing-old', 'thing.removed');
    await append('thing-brief', 'thing.named', { name: 'brief' });
    await append('thing-brief', 'thing.removed');
    await append('thing-back', 'thing.named', { name: 'x' });
    await append('thing-back', 'thing.removed');
    await append('thing-back', 'thing.named', { name: 'back' });
    await runner(things).catchUp();
    expect(store.count(THINGS.name, 'getMany')).toBe(1);
    expect(store.calls.filter((c) => c.collection === THINGS.name && c.op !== 'getMany').map((c) => c.op)).toEqual(['delete', 'put']);
    expect(await doc('old')).toBeNull();
    expect(await doc('brief')).toBeNull();
    expect(await doc('back')).toMatchObject({ name: 'back', revision: 2 });
  });

  it('given events of other types, then they are neither folded nor make a document be read', async () => {
    await append('thing-a', 'thing.named', { name: 'a0' });
    await append('thing-a', 'other.happened');
    await append('thing-z', 'other.happened');
    await append('thing-a', 'thing.named', { name: 'a1' });
    await runner(things).catchUp();
    expect(store.calls.filter((c) => c.op === 'getMany' && c.collection === THINGS.name).map((c) => c.ids)).toEqual([['a']]);
    expect(evolved).toBe(2);
    expect(await doc('a')).toMatchObject({ name: 'a1', revision: 2, seen: [1, 4] });
    expect(await doc('z')).toBeNull();
  });

  it('given a checkpoint part-way through the batch, then only the events past it are applied', async () => {
    for (let i = 0; i < 20; i += 1) await append('thing-a', 'thing.named', { name: `n${i}` });
    await runner(things).catchUp();
    for (let i = 20; i < 50; i += 1) await append('thing-a', 'thing.named', { name: `n${i}` });
    store.reset();
    evolved = 0;
    // The whole log handed over again, from its start: the checkpoint (20) decides what applies.
    const batch = await events.readAll({ fromPosition: 0, limit: 1000 });
    const checkpoints = store.collection<CheckpointDoc>(CHECKPOINTS);
    const applied = await applyBatchTo(store, checkpoints, [things], batch, 0);
    expect(applied).toEqual({ reached: new Map([[things.name, 50]]), behind: false });
    expect(evolved).toBe(30);
    expect(store.count(THINGS.name, 'getMany')).toBe(1);
    expect(store.count(THINGS.name, 'put')).toBe(1);
    expect((await doc('a'))?.seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await checkpoints.get(things.name))?.position).toBe(50);
  });

  it('given events a write applied inline already, then they are passed over and the rest folded into its document', async () => {
    const recorded: RecordedEvent[] = [];
    for (let i = 0; i < 8; i += 1) await append('thing-a', 'thing.named', { name: `n${i}` });
    recorded.push(...(await events.readAll({ fromPosition: 0, limit: 100 })));
    // The writes applied the first five to the document themselves (as InlineProjections does).
    for (const event of recorded.slice(0, 5)) await things.apply(event, reads);
    const marks = new Set([1, 2, 3, 4, 5]);
    const passed: number[] = [];
    const inline = {
      takeApplied: (_name: string, position: number) => marks.delete(position),
      passedApplied: (_name: string, upTo: number) => passed.push(upTo),
      resetApplied: () => marks.clear(),
    } as unknown as InlineProjections;
    const inlineThings = documentProjection<ThingDoc>({ ...thingsDefinition(), inline: true });
    evolved = 0;
    store.reset();
    await applyBatchTo(store, store.collection<CheckpointDoc>(CHECKPOINTS), [inlineThings], recorded, 0, inline);
    expect(evolved).toBe(3);
    expect(marks.size).toBe(0);
    expect(passed).toEqual([8]);
    expect(store.count(THINGS.name, 'getMany')).toBe(1);
    expect(store.count(THINGS.name, 'get')).toBe(0);
    expect(store.count(THINGS.name, 'put')).toBe(1);
    expect((await doc('a'))?.seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('given a document projection with a unique index, then it writes in log order (a key released and taken in one batch)', async () => {
    const NAMED: CollectionSpec = { name: 'batch_named', indexes: [{ name: 'by_name', fields: [['name', 1]], unique: true }] };
    const named = documentProjection<ThingDoc>({ ...thingsDefinition(), name: 'batch_named', collection: NAMED });
    await append('thing-a', 'thing.named', { name: 'x' });
    await runner(named).catchUp();
    // b is touched first, a releases x, then b takes it: written in first-touch order, b would clash.
    await append('thing-b', 'thing.named', { name: 'b' });
    await append('thing-a', 'thing.named', { name: 'y' });
    await append('thing-b', 'thing.named', { name: 'x' });
    await runner(named).catchUp();
    const c = reads.collection<ThingDoc>(NAMED);
    expect((await c.get('a'))?.name).toBe('y');
    expect((await c.get('b'))?.name).toBe('x');
  });

  it('given a view touching one document with every event, then it reads and writes it once a batch', async () => {
    for (let i = 0; i < 50; i += 1) await append(`thing-${i % 3}`, 'thing.named', { name: `n${i}` });
    await runner(tallyView()).catchUp();
    expect(store.count(TALLIES.name, 'get')).toBe(1);
    expect(store.count(TALLIES.name, 'put')).toBe(1);
    const total = await reads.collection<TallyDoc>(TALLIES).get('total');
    expect(total?.n).toBe(50);
    expect(total?.names).toEqual(Array.from({ length: 50 }, (_, i) => `n${i}`));
  });

  it('given a view that finds what it wrote earlier in the batch, then the find sees it (flushed first)', async () => {
    for (let i = 0; i < 20; i += 1) await append('thing-a', 'thing.named', { name: `n${i}` });
    await runner(tallyView(TALLIES, 'batch_tallies', true)).catchUp();
    expect(store.count(TALLIES.name, 'get')).toBe(1);
    expect(store.count(TALLIES.name, 'find')).toBe(20);
    expect((await reads.collection<TallyDoc>(TALLIES).get('total'))?.n).toBe(20);
  });

  it('given a view with a unique index, then it writes as it goes (in log order)', async () => {
    const unique: CollectionSpec = { name: 'batch_unique_tallies', indexes: [{ name: 'by_n', fields: [['n', 1]], unique: true }] };
    for (let i = 0; i < 10; i += 1) await append('thing-a', 'thing.named', { name: `n${i}` });
    await runner(tallyView(unique, 'batch_unique_tallies')).catchUp();
    expect(store.count(unique.name, 'get')).toBe(10);
    expect(store.count(unique.name, 'put')).toBe(10);
    expect((await reads.collection<TallyDoc>(unique).get('total'))?.n).toBe(10);
  });
});

function thingsDefinition() {
  return {
    name: things.name,
    version: things.version,
    collection: THINGS,
    eventTypes: things.eventTypes,
    evolve: things.evolve,
  };
}
