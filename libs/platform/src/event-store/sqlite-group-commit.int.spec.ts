// Group commit on the SQLite store: single-stream appends that come in together (one turn of the
// event loop, as concurrent HTTP requests do) share one transaction; each resolves after the
// COMMIT that holds it, keeps its own outcome, and sees the writes before it as if sequential.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, StatementSync } from 'node:sqlite';

import { newEvent } from '@app/testing/contracts/event-store.contract';

import { WrongExpectedRevisionError } from './event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

describe('SqliteEventStore group commit', () => {
  let dir: string;
  let path: string;
  let store: SqliteEventStore;
  let transactions: jest.SpyInstance;
  const begun = () => transactions.mock.contexts.filter((statement: StatementSync) => statement.sourceSQL === 'BEGIN IMMEDIATE').length;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    path = join(dir, 'events.sqlite');
    store = new SqliteEventStore(path);
    // Transactions begin with a prepared BEGIN IMMEDIATE (immediateTransaction): count its runs.
    transactions = jest.spyOn(StatementSync.prototype, 'run');
  });

  afterEach(async () => {
    transactions.mockRestore();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What another connection sees of a stream: only committed events. */
  function committedRevisions(streamId: string): number[] {
    const other = new DatabaseSync(path, { readOnly: true });
    try {
      return (other.prepare('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision').all(streamId) as Array<{ revision: number }>).map((r) => r.revision);
    } finally {
      other.close();
    }
  }

  it('commits concurrent appends to different streams in one transaction, each resolving after its commit', async () => {
    const seenAtResolve: number[][] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.append(`s-${i}`, [newEvent('t.a', { i })], { expectedRevision: 'no_stream' }).then((result) => {
          seenAtResolve[i] = committedRevisions(`s-${i}`);
          return result;
        }),
      ),
    );
    expect(begun()).toBe(1);
    expect(seenAtResolve).toEqual(Array(20).fill([0]));
    expect(results.map((r) => r.nextRevision)).toEqual(Array(20).fill(0));
    const positions = results.map((r) => r.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const [i, result] of results.entries()) {
      expect(result.recorded?.map((e) => [e.streamId, e.position, e.data])).toEqual([[`s-${i}`, result.position, { i }]]);
    }
  });

  it('gathers appends made from separate callbacks of one turn (as concurrent requests do)', async () => {
    const appends = await new Promise<Array<Promise<unknown>>>((resolve) => {
      const out: Array<Promise<unknown>> = [];
      // Each request's handler is its own macrotask callback, after some awaits of its own.
      for (let i = 0; i < 5; i++) {
        setImmediate(async () => {
          await Promise.resolve();
          await store.readStream(`r-${i}`);
          out.push(store.append(`r-${i}`, [newEvent('t.a')], { expectedRevision: 'no_stream' }));
          if (out.length === 5) resolve(out);
        });
      }
    });
    await Promise.all(appends);
    expect(begun()).toBeLessThan(5);
  });

  it('fails only the append whose expected revision is wrong; the others commit in the same transaction', async () => {
    await store.append('taken', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    transactions.mockClear();
    const outcomes = await Promise.allSettled([
      store.append('free-1', [newEvent('t.a')], { expectedRevision: 'no_stream' }),
      store.append('taken', [newEvent('t.b'), newEvent('t.c')], { expectedRevision: 'no_stream' }),
      store.append('free-2', [newEvent('t.c')], { expectedRevision: 'no_stream' }),
    ]);
    expect(begun()).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect(committedRevisions('taken')).toEqual([0]);
    expect((await store.readStream('taken')).map((e) => e.type)).toEqual(['t.a']);
    expect(committedRevisions('free-1')).toEqual([0]);
    expect(committedRevisions('free-2')).toEqual([0]);
    // The positions have no hole where the failed write was rolled back.
    const [free1, free2] = [(outcomes[0] as PromiseFulfilledResult<{ position: number }>).value, (outcomes[2] as PromiseFulfilledResult<{ position: number }>).value];
    expect(free2.position).toBe(free1.position + 1);
  });

  it('appends to one stream in one batch behave as if sequential: a stale expected revision fails', async () => {
    const outcomes = await Promise.allSettled([
      store.append('same', [newEvent('t.a')], { expectedRevision: 'no_stream' }),
      store.append('same', [newEvent('t.b')], { expectedRevision: 'no_stream' }),
      store.append('same', [newEvent('t.c')], { expectedRevision: 0 }),
    ]);
    expect(begun()).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect((outcomes[2] as PromiseFulfilledResult<{ nextRevision: number }>).value.nextRevision).toBe(1);
    expect((await store.readStream('same')).map((e) => e.type)).toEqual(['t.a', 't.c']);
  });

  it('lets concurrent commands on one stream read the commit before them, as without group commit', async () => {
    await store.append('hot', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    const command = async (i: number) => {
      const events = await store.readStream('hot'); // read, decide, append: one run of microtasks
      return store.append('hot', [newEvent('t.b', { i })], { expectedRevision: events[events.length - 1].revision });
    };
    // Separate callbacks, as concurrent requests are; plus a command on another stream, which does not wait.
    const outcomes = await new Promise<Array<PromiseSettledResult<unknown>>>((resolve) => {
      const out: Array<Promise<unknown>> = [];
      for (let i = 0; i < 10; i++) setImmediate(() => out.push(command(i)));
      setImmediate(() => out.push(store.append('cold', [newEvent('t.a')], { expectedRevision: 'no_stream' })));
      setImmediate(() => void Promise.allSettled(out).then(resolve));
    });
    expect(outcomes.map((o) => o.status)).toEqual(Array(11).fill('fulfilled'));
    expect((await store.readStream('hot')).map((e) => e.revision)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(committedRevisions('cold')).toEqual([0]);
  });

  it('recognises an idempotent repeat (same event ids) in the same batch and later', async () => {
    const events = [newEvent('t.a'), newEvent('t.b')];
    const [first, again] = await Promise.all([
      store.append('idem', events, { expectedRevision: 'no_stream' }),
      store.append('idem', events, { expectedRevision: 'no_stream' }),
    ]);
    expect(again).toEqual({ nextRevision: first.nextRevision, position: first.position });
    expect(await store.append('idem', events, { expectedRevision: 'no_stream' })).toEqual({ nextRevision: 1, position: first.position });
    expect(committedRevisions('idem')).toEqual([0, 1]);
  });

  it('keeps appendMany atomic and unbatched', async () => {
    await store.append('m-2', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    transactions.mockClear();
    const single = store.append('m-3', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    await expect(
      store.appendMany([
        { streamId: 'm-1', events: [newEvent('t.a')], expectedRevision: 'no_stream' },
        { streamId: 'm-2', events: [newEvent('t.b')], expectedRevision: 'no_stream' },
      ]),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(committedRevisions('m-1')).toEqual([]);
    await single;
    expect(committedRevisions('m-3')).toEqual([0]);
    expect(begun()).toBe(2); // the appendMany's own, then the queued append's
  });

  it('fails every append of a batch with the storage fault when the disk is full, and recovers', async () => {
    await store.append('seed', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    const pages = (store.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    store.db.exec(`PRAGMA max_page_count = ${pages}`);
    const big = { blob: 'x'.repeat(64 * 1024) };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 }, (_, i) => store.append(`full-${i}`, [newEvent('t.a', big)], { expectedRevision: 'no_stream' })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes) expect((outcome as PromiseRejectedResult).reason).toMatchObject({ name: 'StorageFaultError', kind: 'full' });
    for (let i = 0; i < 3; i++) expect(committedRevisions(`full-${i}`)).toEqual([]);
    store.db.exec('PRAGMA max_page_count = 1073741823');
    await store.ping();
    await expect(store.append('after', [newEvent('t.a')], { expectedRevision: 'no_stream' })).resolves.toMatchObject({ nextRevision: 0 });
  });

  it('writes the appends still queued when the store closes', async () => {
    const pending = store.append('late', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    await store.close();
    await expect(pending).resolves.toMatchObject({ nextRevision: 0 });
    expect(committedRevisions('late')).toEqual([0]);
  });
});
