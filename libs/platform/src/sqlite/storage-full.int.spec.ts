// A full disk met by the embedded stores. The fault is genuine: SQLite's own size cap
// (PRAGMA max_page_count, per connection) makes a write that needs a page fail with the
// SQLITE_FULL a full disk gives, and PRAGMA query_only the SQLITE_READONLY of a read-only file.
// Raising the cap again is "space is back".
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';

import { SystemClock } from '../clock';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { mapError } from '../http/error-mapping';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { ProjectionRunner } from '../projections/projection-runner';
import type { Doc } from '../read-store/read-store.port';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { StorageFaultError, storageFaultOf } from './storage-fault';

/** No page left to grow into (SQLite clamps the cap to the current size), or no cap at all. */
function cap(db: DatabaseSync): void {
  db.exec('PRAGMA max_page_count = 1');
}
function uncap(db: DatabaseSync): void {
  db.exec('PRAGMA max_page_count = 4294967294');
}

const big = (i: number) => ({ type: 'thing.happened', data: { i, pad: 'x'.repeat(3000) }, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } });
const rejection = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'resolved', (error: unknown) => error);

describe('a full disk on the embedded stores', () => {
  let stores: TempStores;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;

  beforeEach(() => {
    stores = openTempStores('cc-full-');
    ({ events, reads } = stores);
  });

  afterEach(() => closeTempStores(stores));

  it('an append refused for want of room keeps nothing, says so, and the next one lands once there is room', async () => {
    await events.append('a', [big(0)], { expectedRevision: 'no_stream' });
    const head = await events.headPosition();
    cap(events.db);
    const error = await rejection(
      events.appendMany([
        { streamId: 'a', events: [big(1), big(2)], expectedRevision: 0 },
        { streamId: 'b', events: [big(3)], expectedRevision: 'no_stream' },
      ]),
    );
    expect(error).toBeInstanceOf(StorageFaultError);
    expect(error).toMatchObject({ kind: 'full', cause: { code: 'ERR_SQLITE_ERROR', errcode: 13, errstr: 'database or disk is full' } });
    // All streams or none: the transaction is rolled back, the connection is usable.
    expect(events.db.isTransaction).toBe(false);
    expect(await events.headPosition()).toBe(head);
    expect((await events.readStream('a')).map((e) => e.revision)).toEqual([0]);
    expect(await events.readStream('b')).toEqual([]);

    expect(mapError(error)).toEqual({
      status: 503,
      body: {
        code: 'STORAGE_FULL',
        message: "The server's storage is full: nothing of this write was kept. Retry after 30 seconds.",
        details: { retry_after: 30 },
      },
      headers: { 'retry-after': '30' },
      unexpected: false,
    });
    // Readiness fails while there is no room: its probe asks for room, and keeps nothing either.
    expect(await rejection(events.ping())).toMatchObject({ kind: 'full' });
    expect(await rejection(events.ping())).toMatchObject({ kind: 'full' });
    expect(events.db.isTransaction).toBe(false);

    uncap(events.db);
    await expect(events.ping()).resolves.toBeUndefined();
    const [a, b] = await events.appendMany([
      { streamId: 'a', events: [big(1)], expectedRevision: 0 },
      { streamId: 'b', events: [big(3)], expectedRevision: 'no_stream' },
    ]);
    expect([a.nextRevision, b.nextRevision, b.position]).toEqual([1, 0, head + 2]);
    // The probe left no table behind.
    expect(events.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'storage_probe'").get()).toEqual({ n: 0 });
  });

  it('the read model refuses a transaction alike, even one that goes on after the failed write', async () => {
    const things = reads.collection<Doc & { pad: string }>({ name: 'things', indexes: [] });
    await things.put({ id: 'kept', pad: '' });
    cap(reads.writer);
    const error = await rejection(
      reads.transaction(async () => {
        await things.put({ id: 'small', pad: '' });
        // SQLite rolls the whole transaction back here; what follows must not be written alone.
        await things.put({ id: 'big', pad: 'x'.repeat(20000) }).catch(() => undefined);
        await things.put({ id: 'after', pad: '' });
      }),
    );
    expect(error).not.toBe('resolved');
    expect((await things.find({})).items.map((d) => d.id)).toEqual(['kept']);
    expect(await rejection(things.put({ id: 'big', pad: 'x'.repeat(20000) }))).toMatchObject({ kind: 'full' });
    expect(await rejection(reads.ping())).toMatchObject({ kind: 'full' });

    uncap(reads.writer);
    await expect(reads.ping()).resolves.toBeUndefined();
    await things.put({ id: 'big', pad: 'x'.repeat(20000) });
    expect((await things.find({})).items.map((d) => d.id)).toEqual(['big', 'kept']);
  });

  it('a read-only database is told apart from a full one', async () => {
    events.db.exec('PRAGMA query_only = ON');
    const error = await rejection(events.append('a', [big(0)], { expectedRevision: 'any' }));
    expect(error).toMatchObject({ kind: 'read_only', cause: { errcode: 8 } });
    expect(mapError(error)).toMatchObject({ status: 503, body: { code: 'STORAGE_READ_ONLY' }, headers: { 'retry-after': '30' } });
    expect(await rejection(events.ping())).toMatchObject({ kind: 'read_only' });
    events.db.exec('PRAGMA query_only = OFF');
    await expect(events.ping()).resolves.toBeUndefined();
  });

  it('projections meeting a full read model log, retry and catch up once there is room; the process goes on', async () => {
    const logged: string[] = [];
    const runner = new ProjectionRunner(events, reads, { logger: { error: (message) => logged.push(message) } });
    const COUNTS = { name: 'counts', indexes: [] } as const;
    runner.register({
      name: 'counting',
      version: 1,
      collections: [COUNTS],
      eventTypes: ['thing.happened'],
      async apply(event, store) {
        await store.collection<Doc & { pad: string }>(COUNTS).put({ id: String(event.position), pad: 'x'.repeat(3000) });
      },
    });
    await runner.start();
    try {
      cap(reads.writer);
      const { position } = await events.append('a', [big(0), big(1), big(2)], { expectedRevision: 'any' });
      expect(await runner.waitFor(position, 300)).toBe(false);
      expect(logged).toContain('projections failed; retrying');
      expect(await rejection(reads.ping())).toMatchObject({ kind: 'full' });

      uncap(reads.writer);
      expect(await runner.waitFor(position, 10000)).toBe(true);
      expect(await reads.collection(COUNTS).count({})).toBe(3);
    } finally {
      await runner.stop();
    }
  });

  it('the idempotency store meeting a full read model refuses the claim as a storage fault (503), not a crash', async () => {
    const store = new IdempotencyStore(reads, new SystemClock(), { ttlMs: 86_400_000, leaseMs: 60_000, waitMs: 0 });
    await store.begin({ workspaceId: 'ws_1', key: 'warm', fingerprint: 'f' });
    cap(reads.writer);
    let error: unknown;
    // The records' pages have some room left: claim until one needs a page.
    for (let i = 0; error === undefined && i < 500; i += 1) {
      error = await store.begin({ workspaceId: 'ws_1', key: `k${i}-${'x'.repeat(200)}`, fingerprint: 'f' }).then(() => undefined, (e: unknown) => e);
    }
    expect(storageFaultOf(error)).toBe('full');
    expect(mapError(error).status).toBe(503);
  });
});

describe('storageFaultOf', () => {
  const sqlite = (errcode: number) => ({ code: 'ERR_SQLITE_ERROR', errcode, errstr: 'x', message: 'x' });

  it.each<[string, string | undefined, unknown]>([
    ['SQLITE_FULL', 'full', sqlite(13)],
    ['SQLITE_READONLY', 'read_only', sqlite(8)],
    ['SQLITE_READONLY_DBMOVED', 'read_only', sqlite(1032)],
    ['a unique constraint', undefined, sqlite(2067)],
    ['SQLITE_BUSY', undefined, sqlite(5)],
    ['an I/O error, without the file to ask its file system', undefined, sqlite(778)],
    ['ENOSPC from the file system', 'full', Object.assign(new Error('no space'), { code: 'ENOSPC' })],
    ['EROFS from the file system', 'read_only', Object.assign(new Error('read-only'), { code: 'EROFS' })],
    ['anything else', undefined, new Error('boom')],
  ])('%s → %s', (_what, kind, error) => {
    expect(storageFaultOf(error)).toBe(kind);
  });

  it('an I/O error on a file system with room is no storage fault (a failing disk is a 500)', () => {
    expect(storageFaultOf(sqlite(778), join(tmpdir(), 'x.db'))).toBeUndefined();
  });
});
