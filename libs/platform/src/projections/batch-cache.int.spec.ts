// BatchCache on a real SQLite read store: inside one transaction, a document read and changed by
// many events is read once and written once at the flush; deletes, patches and getMany see the
// batch's own writes; find and count flush first; nothing reaches the store before the flush.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Doc } from '../read-store/read-store.port';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { BatchCache } from './batch-cache';

interface Counter extends Doc {
  n: number;
  kind: string;
}
const SPEC = { name: 'batch_counters', indexes: [{ name: 'by_kind', fields: [['kind', 1]] as const }] };

describe('BatchCache', () => {
  let dir: string;
  let store: SqliteReadStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-batch-'));
    store = new SqliteReadStore(join(dir, 'read.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a document once, keeps the batch\'s changes, and writes each document once at the flush', async () => {
    await store.collection<Counter>(SPEC).put({ id: 'a', n: 1, kind: 'x' });
    const proto = Object.getPrototypeOf(store.collection<Counter>(SPEC)) as { get: (id: string) => unknown; put: () => unknown };
    const gets = jest.spyOn(proto, 'get');
    const puts = jest.spyOn(proto, 'put');
    await store.transaction(async () => {
      const batch = new BatchCache(store);
      const c = batch.collection<Counter>(SPEC);
      for (let i = 0; i < 100; i += 1) {
        const doc = (await c.get('a')) as Counter;
        doc.n += 1;
        await c.put(doc);
      }
      await c.put({ id: 'b', n: 7, kind: 'y' });
      expect(await c.patch('b', { n: 8 })).toBe(true);
      expect(await c.patch('missing', { n: 1 })).toBe(false);
      expect((await c.getMany(['a', 'b', 'missing'])).map((d) => [d.id, d.n])).toEqual([
        ['a', 101],
        ['b', 8],
      ]);
      // Nothing written yet.
      expect(puts).not.toHaveBeenCalled();
      expect(await store.collection<Counter>(SPEC).get('b')).toBeNull();
      await batch.flush();
      expect(batch.written).toBe(2);
      // The store was asked for 'a' once in 100 reads, for 'missing' once (patch, then getMany
      // from the cache), and for 'b' by this test's own check above.
      expect(gets.mock.calls.map(([id]) => id)).toEqual(['a', 'missing', 'b']);
      expect(puts).toHaveBeenCalledTimes(2);
    });
    gets.mockRestore();
    puts.mockRestore();
    expect(await store.collection<Counter>(SPEC).get('a')).toEqual({ id: 'a', n: 101, kind: 'x' });
    expect(await store.collection<Counter>(SPEC).get('b')).toEqual({ id: 'b', n: 8, kind: 'y' });
  });

  it('deletes at the flush, and a find or count sees the batch\'s writes', async () => {
    await store.collection<Counter>(SPEC).put({ id: 'a', n: 1, kind: 'x' });
    await store.transaction(async () => {
      const batch = new BatchCache(store);
      const c = batch.collection<Counter>(SPEC);
      expect(await c.delete('a')).toBe(true);
      expect(await c.get('a')).toBeNull();
      expect(await c.delete('a')).toBe(false);
      await c.put({ id: 'c', n: 3, kind: 'x' });
      expect((await c.find({ kind: 'x' })).items.map((d) => d.id)).toEqual(['c']);
      expect(await c.count({ kind: 'x' })).toBe(1);
      await expect(c.clear()).rejects.toThrow(/outside a batch/);
      await batch.flush();
    });
    expect(await store.collection<Counter>(SPEC).get('a')).toBeNull();
    expect(await store.collection<Counter>(SPEC).count({})).toBe(1);
  });
});
