import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StatementSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';

import { eventStoreContract, newEvent, Puller } from '@app/testing/contracts/event-store.contract';

import type { RecordedEvent } from './event-store.port';
import { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';

const OPTIONS: SqliteEventStoreOptions = { pollIntervalMs: 20 };

function tempFile(): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-'));
  return { path: join(dir, 'events.sqlite'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Takes the write lock on `path` in a worker thread and releases it after `holdMs`. Resolves
 * once the lock is held, with a promise that settles when it was released.
 */
/** Another thread takes the write lock and holds it `holdMs`; `lockedAt` is when it took it (that thread's clock reading). */
async function holdWriteLock(path: string, holdMs: number): Promise<{ lockedAt: number; released: Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const { DatabaseSync } = require('node:sqlite');
     const db = new DatabaseSync(workerData.path);
     db.exec('BEGIN IMMEDIATE');
     parentPort.postMessage(Date.now());
     setTimeout(() => { db.exec('COMMIT'); db.close(); process.exit(0); }, workerData.holdMs);`,
    { eval: true, workerData: { path, holdMs } },
  );
  const released = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  const [lockedAt] = (await Promise.race([once(worker, 'message'), released.then(() => [Number.NaN])])) as [number];
  return { lockedAt, released };
}

eventStoreContract('SQLite', async () => {
  const file = tempFile();
  let store = new SqliteEventStore(file.path, OPTIONS);
  return {
    store,
    atomicBatches: true,
    reopen: async () => {
      await store.close();
      store = new SqliteEventStore(file.path, OPTIONS);
      return store;
    },
    cleanup: async () => {
      await store.close();
      file.remove();
    },
  };
});

describe('SqliteEventStore specifics', () => {
  let file: ReturnType<typeof tempFile>;
  const stores: SqliteEventStore[] = [];
  const openStore = (options: SqliteEventStoreOptions = OPTIONS): SqliteEventStore => {
    const store = new SqliteEventStore(file.path, options);
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    file = tempFile();
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    file.remove();
  });

  it('a filtered read near the head in a process that did not append the events: the same answer, and the end of the log cached for the others', async () => {
    const api = openStore();
    const worker = openStore();
    const types = ['t.a', 't.b', 't.c'];
    const appended = await api.appendMany(Array.from({ length: 60 }, (_, i) => ({ streamId: `s-${i}`, events: [newEvent(types[i % 3])], expectedRevision: 'no_stream' as const })));
    const head = appended[appended.length - 1].position;
    const expected = (await api.readAll({ fromPosition: 5, limit: 1000 })).filter((e) => e.type === 't.b');
    // The worker's first read of these events is filtered (a process manager's).
    const filtered = worker.readAllSync(5, 7, { types: ['t.b'] });
    expect(filtered.map((e) => e.position)).toEqual(expected.slice(0, 7).map((e) => e.position));
    expect(worker.readAllSync(5, 1000, { types: ['t.b'] }).map((e) => e.position)).toEqual(expected.map((e) => e.position));
    // Its other subscribers (unfiltered, or of other types) get the very same parsed events from memory.
    const all = worker.readAllSync(5, 1000);
    expect(all.map((e) => e.position)).toEqual(Array.from({ length: head - 5 }, (_, i) => i + 6));
    expect(all.find((e) => e.position === filtered[0].position)).toBe(filtered[0]);
    expect(Object.isFrozen(filtered[0])).toBe(true);
    expect(worker.readAllSync(head, 10, { types: ['t.a'] })).toEqual([]);
  });

  it('a filtered read far behind the head is read with its filter from SQLite (a catch-up)', async () => {
    const api = openStore();
    const worker = openStore();
    const batch = (n: number, type: (i: number) => string) => Array.from({ length: n }, (_, i) => ({ streamId: `s-${type(i)}-${i}-${Math.random()}`, events: [newEvent(type(i))], expectedRevision: 'no_stream' as const }));
    await api.appendMany(batch(2_500, (i) => (i % 100 === 0 ? 't.rare' : 't.common')));
    const rare = worker.readAllSync(0, 1000, { types: ['t.rare'] });
    expect(rare).toHaveLength(25);
    expect(Object.isFrozen(rare[0])).toBe(false); // not through the cache
  });

  it('a second connection on the same file (as the CLI would be) appends while the first is open', async () => {
    const server = openStore();
    // A busy timeout far above the 200 ms hold: a busy machine may be slow to let the holder commit.
    const cli = openStore({ ...OPTIONS, busyTimeoutMs: 20_000 });
    await server.append('s-1', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    // Another thread holds the write lock, as the server does mid-append; node:sqlite is
    // synchronous, so the lock holder cannot live on this thread.
    const { lockedAt, released } = await holdWriteLock(file.path, 200);
    await expect(cli.append('s-1', [newEvent('t.b')], { expectedRevision: 0 })).resolves.toMatchObject({
      nextRevision: 1,
    });
    // It waited for the lock: done no sooner than the hold ended (counted from when the lock was
    // taken, not from when this thread got round to asking — a busy machine may be late for that).
    expect(Date.now() - lockedAt).toBeGreaterThanOrEqual(190);
    await released;
    expect((await server.readStream('s-1')).map((e) => e.type)).toEqual(['t.a', 't.b']);
  });

  it('without a busy timeout a locked database fails fast, which is why we set one', async () => {
    const server = openStore();
    const impatient = openStore({ ...OPTIONS, busyTimeoutMs: 0 });
    server.db.exec('BEGIN IMMEDIATE');
    try {
      await expect(impatient.append('s-1', [newEvent('t.a')], { expectedRevision: 'any' })).rejects.toThrow(/locked/);
    } finally {
      server.db.exec('COMMIT');
    }
  });

  it('a subscription of one instance sees events appended by another instance (by polling)', async () => {
    const a = openStore();
    const b = openStore();
    const subscription = a.subscribe();
    try {
      const puller = new Puller(subscription);
      expect(await puller.next(60)).toBeUndefined();
      const event = newEvent('t.from-b');
      await b.append('s-b', [event], { expectedRevision: 'no_stream' });
      const batch = await puller.next(1_000);
      expect(batch?.map((e) => e.id)).toEqual([event.id]);
    } finally {
      await subscription.close();
    }
  });

  it.each([
    ['NORMAL', 1],
    ['FULL', 2],
  ] as const)('applies synchronous = %s', (synchronous, pragma) => {
    const store = openStore({ ...OPTIONS, synchronous });
    expect(store.db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: pragma });
  });

  describe('persistent subscription', () => {
    it('hands out at most bufferSize unsettled events per consumer', async () => {
      const store = openStore();
      await store.append('s-1', [newEvent('t.a'), newEvent('t.b'), newEvent('t.c')], { expectedRevision: 'no_stream' });
      const subscription = store.persistentSubscription('g', { bufferSize: 2 });
      try {
        const puller = new Puller(subscription);
        const [first] = await puller.take(2);
        expect(await puller.next(100)).toBeUndefined();
        await first.ack();
        expect((await puller.next(1_000))?.event.type).toBe('t.c');
      } finally {
        await subscription.close();
      }
    });

    it("a new group with startFrom 'end' only sees events appended after it was created", async () => {
      const store = openStore();
      await store.append('s-1', [newEvent('t.old')], { expectedRevision: 'no_stream' });
      const subscription = store.persistentSubscription('g', { startFrom: 'end' });
      try {
        await store.append('s-1', [newEvent('t.new')], { expectedRevision: 0 });
        const delivered = await new Puller(subscription).next(1_000);
        expect(delivered?.event.type).toBe('t.new');
      } finally {
        await subscription.close();
      }
    });

    it('closing a consumer hands its unsettled events to a competing consumer', async () => {
      const store = openStore();
      await store.append('s-1', [newEvent('t.a')], { expectedRevision: 'no_stream' });
      const leaving = store.persistentSubscription('g');
      const staying = store.persistentSubscription('g');
      try {
        const held = await new Puller(leaving).next(1_000);
        expect(held?.retryCount).toBe(0);
        const waiting = new Puller(staying);
        expect(await waiting.next(60)).toBeUndefined();
        await leaving.close();
        const handedOver = await waiting.next(1_000);
        expect([handedOver?.event.id, handedOver?.retryCount]).toEqual([held?.event.id, 1]);
      } finally {
        await Promise.all([leaving.close(), staying.close()]);
      }
    });

    it('advances the checkpoint past contiguous settled events, keeping one claim range per run of held events', async () => {
      const store = openStore();
      await store.append('s-1', [newEvent('t.a'), newEvent('t.b'), newEvent('t.c'), newEvent('t.d')], { expectedRevision: 'no_stream' });
      const subscription = store.persistentSubscription('g');
      const state = () => ({
        checkpoint: store.db.prepare('SELECT checkpoint FROM persistent_subscription_groups WHERE group_name = ?').get('g'),
        ranges: store.db.prepare('SELECT first, last FROM persistent_subscription_claims WHERE group_name = ? ORDER BY first').all('g'),
        rows: store.db
          .prepare('SELECT position, state FROM persistent_subscription_events WHERE group_name = ? ORDER BY position')
          .all('g'),
      });
      try {
        const [a, b, c, d] = await new Puller(subscription).take(4);
        // One claim, one range, no row per event.
        expect(state()).toEqual({ checkpoint: { checkpoint: 0 }, ranges: [{ first: 1, last: 4 }], rows: [] });
        await b.ack();
        expect(state()).toEqual({ checkpoint: { checkpoint: 0 }, ranges: [{ first: 1, last: 1 }, { first: 3, last: 4 }], rows: [] });
        await a.ack();
        expect(state()).toEqual({ checkpoint: { checkpoint: 2 }, ranges: [{ first: 3, last: 4 }], rows: [] });
        await c.nack('park', 'poison');
        expect(state()).toEqual({ checkpoint: { checkpoint: 3 }, ranges: [{ first: 4, last: 4 }], rows: [{ position: 3, state: 'parked' }] });
        await d.nack('retry', 'later');
        const again = await new Puller(subscription).next(1_000);
        expect([again?.event.position, again?.retryCount]).toEqual([4, 1]);
        await again?.ack();
        expect(state()).toEqual({ checkpoint: { checkpoint: 4 }, ranges: [], rows: [{ position: 3, state: 'parked' }] });
      } finally {
        await subscription.close();
      }
    });

    it('a restart takes over the claim ranges of the instance before: their held events come back once, with retryCount 1', async () => {
      const first = openStore();
      await first.append('s-1', Array.from({ length: 6 }, (_, i) => newEvent(i % 2 ? 't.odd' : 't.even', { i })), { expectedRevision: 'no_stream' });
      const before = first.persistentSubscription('g', { filter: { types: ['t.even'] } });
      const [e0, e2] = await new Puller(before).take(3);
      await e0.ack();
      expect(e2.event.position).toBe(3);
      await first.close(); // a crash: nothing handed back
      const second = openStore();
      const after = second.persistentSubscription('g', { filter: { types: ['t.even'] } });
      try {
        const redelivered = await new Puller(after).take(2);
        expect(redelivered.map((d) => [d.event.position, d.retryCount])).toEqual([
          [3, 1],
          [5, 1],
        ]);
        expect(await new Puller(after).next(100)).toBeUndefined();
        await Promise.all(redelivered.map((d) => d.ack()));
        expect(second.db.prepare('SELECT checkpoint FROM persistent_subscription_groups WHERE group_name = ?').get('g')).toEqual({ checkpoint: 6 });
      } finally {
        await after.close();
      }
    });

    describe('skip', () => {
      const skipOdd = (seen: Array<{ positions: number[]; after: number; upTo: number }>) => (events: readonly RecordedEvent[], scanned: { after: number; upTo: number }) => {
        seen.push({ positions: events.map((e) => e.position), ...scanned });
        return events.map((e) => e.type === 't.odd');
      };

      it('hands out only what the consumer does not skip, and shows it every event of the filter, in order, with the part of the log scanned', async () => {
        const store = openStore();
        await store.append('s-1', Array.from({ length: 6 }, (_, i) => newEvent(i % 2 ? 't.odd' : 't.even', { i })), { expectedRevision: 'no_stream' });
        const seen: Array<{ positions: number[]; after: number; upTo: number }> = [];
        const subscription = store.persistentSubscription('g', { skip: skipOdd(seen) });
        try {
          const puller = new Puller(subscription);
          const delivered = await puller.take(3);
          expect(delivered.map((d) => d.event.position)).toEqual([1, 3, 5]);
          expect(seen[0]).toEqual({ positions: [1, 2, 3, 4, 5, 6], after: 0, upTo: 6 });
          await Promise.all(delivered.map((d) => d.ack()));
          expect(await puller.next(100)).toBeUndefined();
          expect(store.db.prepare('SELECT checkpoint FROM persistent_subscription_groups WHERE group_name = ?').get('g')).toEqual({ checkpoint: 6 });
          expect(store.db.prepare('SELECT count(*) AS n FROM persistent_subscription_claims').get()).toEqual({ n: 0 });
        } finally {
          await subscription.close();
        }
      });

      it('skipping all it read takes no write lock; the read position is written within moments, and events not yet written are offered again after a restart', async () => {
        const store = openStore();
        const seen: Array<{ positions: number[]; after: number; upTo: number }> = [];
        const subscription = store.persistentSubscription('g', { skip: skipOdd(seen) });
        const transactions = jest.spyOn(StatementSync.prototype, 'run');
        const begun = () => transactions.mock.contexts.filter((statement) => statement.sourceSQL === 'BEGIN IMMEDIATE').length;
        const group = () => store.db.prepare('SELECT checkpoint, read_position FROM persistent_subscription_groups WHERE group_name = ?').get('g');
        try {
          const puller = new Puller(subscription);
          expect(await puller.next(50)).toBeUndefined();
          await store.append('s-1', [newEvent('t.odd'), newEvent('t.odd')], { expectedRevision: 'no_stream' });
          transactions.mockClear();
          expect(await puller.next(60)).toBeUndefined();
          expect(seen.at(-1)).toEqual({ positions: [1, 2], after: 0, upTo: 2 });
          expect(begun()).toBe(0);
          expect(group()).toEqual({ checkpoint: 0, read_position: 0 });
          await new Promise((r) => setTimeout(r, 400));
          expect(group()).toEqual({ checkpoint: 2, read_position: 2 });
          expect(begun()).toBe(1);
          // Skipped but not written yet when the store goes (a crash): scanned, and skipped, again.
          await store.append('s-1', [newEvent('t.odd')], { expectedRevision: 1 });
          expect(await puller.next(60)).toBeUndefined();
          expect(seen.at(-1)).toEqual({ positions: [3], after: 2, upTo: 3 });
          await store.close();
          const reopened = openStore();
          const seenAgain: Array<{ positions: number[]; after: number; upTo: number }> = [];
          const after = reopened.persistentSubscription('g', { skip: skipOdd(seenAgain) });
          try {
            await reopened.append('s-1', [newEvent('t.even')], { expectedRevision: 2 });
            const delivered = await new Puller(after).next(1_000);
            expect([delivered?.event.position, delivered?.retryCount]).toEqual([4, 0]);
            expect(seenAgain[0]).toMatchObject({ positions: [3, 4], after: 2 });
          } finally {
            await after.close();
          }
        } finally {
          transactions.mockRestore();
          await subscription.close();
        }
      });

      it('a consumer moved past events another consumer of the group scanned is shown where its own scan starts', async () => {
        const store = openStore();
        await store.append('s-1', Array.from({ length: 4 }, () => newEvent('t.odd')), { expectedRevision: 'no_stream' });
        const seen: Array<{ positions: number[]; after: number; upTo: number }> = [];
        const one = store.persistentSubscription('g', { skip: skipOdd(seen) });
        try {
          expect(await new Puller(one).next(50)).toBeUndefined();
          expect(seen).toEqual([{ positions: [1, 2, 3, 4], after: 0, upTo: 4 }]);
          // Another process on the same file moves the group on (its own scan).
          store.db.prepare('UPDATE persistent_subscription_groups SET read_position = 10 WHERE group_name = ?').run('g');
          await store.append('s-2', Array.from({ length: 8 }, () => newEvent('t.odd')), { expectedRevision: 'no_stream' });
          await new Promise((r) => setTimeout(r, 100));
          expect(seen.at(-1)).toEqual({ positions: [11, 12], after: 10, upTo: 12 });
        } finally {
          await one.close();
        }
      });
    });

    it('claims what the buffer has room for in one go, and commits the acks of one turn together', async () => {
      const store = openStore();
      await store.append('s-1', Array.from({ length: 30 }, (_, i) => newEvent('t.a', { i })), { expectedRevision: 'no_stream' });
      const subscription = store.persistentSubscription('g', { bufferSize: 25 });
      // Transactions begin with a prepared BEGIN IMMEDIATE (immediateTransaction): count its runs.
      const transactions = jest.spyOn(StatementSync.prototype, 'run');
      const begun = () => transactions.mock.contexts.filter((statement) => statement.sourceSQL === 'BEGIN IMMEDIATE').length;
      try {
        const puller = new Puller(subscription);
        const first = await puller.take(25);
        expect(first.map((d) => (d.event.data as { i: number }).i)).toEqual(Array.from({ length: 25 }, (_, i) => i));
        expect(begun()).toBe(1);
        expect(await puller.next(50)).toBeUndefined(); // the buffer is full
        transactions.mockClear();
        await Promise.all(first.map((d) => d.ack()));
        expect(begun()).toBe(1);
        const state = store.db.prepare('SELECT checkpoint FROM persistent_subscription_groups WHERE group_name = ?').get('g');
        expect(state).toEqual({ checkpoint: 25 });
        const rest = await puller.take(5);
        expect(rest.map((d) => (d.event.data as { i: number }).i)).toEqual([25, 26, 27, 28, 29]);
      } finally {
        transactions.mockRestore();
        await subscription.close();
      }
    });

    it('refuses to settle once the store is closed', async () => {
      const store = openStore();
      await store.append('s-1', [newEvent('t.a')], { expectedRevision: 'no_stream' });
      const subscription = store.persistentSubscription('g');
      const delivered = await new Puller(subscription).next(1_000);
      await store.close();
      await expect(delivered?.ack()).rejects.toThrow(/closed/);
      await subscription.close();
    });
  });
});
