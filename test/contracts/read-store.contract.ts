// The one contract every ReadStore adapter passes. Each test uses fresh collection names, so the
// suite also runs on a shared database.
import { randomBytes } from 'node:crypto';

import {
  type Collection,
  type Doc,
  DuplicateKeyError,
  effectiveSort,
  encodeCursor,
  fieldValue,
  type Filter,
  type FindOptions,
  type IndexSpec,
  InvalidCursorError,
  type ReadStore,
} from '@app/platform/read-store/read-store.port';

type Open = () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>;

interface Item extends Doc {
  [field: string]: unknown;
}

const uniqueName = (): string => `t_${randomBytes(6).toString('hex')}`;

/** Reference order: null/missing lowest, then by value (the tests keep one type per field). */
function compareBy(sort: ReadonlyArray<readonly [string, 1 | -1]>) {
  return (a: Item, b: Item): number => {
    for (const [field, dir] of sort) {
      const x = fieldValue(a, field) ?? null;
      const y = fieldValue(b, field) ?? null;
      if (x === y) continue;
      if (x === null) return -dir;
      if (y === null) return dir;
      return (x < y ? -1 : 1) * dir;
    }
    return 0;
  };
}

async function walk(c: Collection<Item>, filter: Filter, options: FindOptions, between?: () => Promise<void>) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const page = await c.find(filter, { ...options, after });
    ids.push(...page.items.map((d) => d.id));
    if (!page.nextCursor) return ids;
    after = page.nextCursor;
    await between?.();
  }
  throw new Error('pagination did not end');
}

const ids = (docs: readonly Doc[]): string[] => docs.map((d) => d.id);

export function readStoreContract(name: string, open: Open): void {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    let cleanup: () => Promise<void>;
    const fresh = (indexes: IndexSpec[] = []): Collection<Item> => store.collection<Item>({ name: uniqueName(), indexes });
    const filled = async (docs: Item[], indexes: IndexSpec[] = []) => {
      const c = fresh(indexes);
      for (const doc of docs) await c.put(doc);
      return c;
    };

    beforeAll(async () => ({ store, cleanup } = await open()));
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    it('pings', () => expect(store.ping()).resolves.toBeUndefined());

    describe('documents', () => {
      it('round-trips a document exactly, nested values included', async () => {
        const c = fresh();
        const doc: Item = {
          ...{ id: 'a', text: 'héllo "quoted" \n', empty: '', int: 42, negative: -7, float: 0.1, big: 2 ** 40 },
          ...{ yes: true, no: false, none: null, list: [1, 'two', null, false, { three: 3 }], emptyList: [] },
          ...{ nested: { a: { b: { c: 'deep' } }, flags: [true] }, emptyObject: {} },
        };
        await c.put(doc);
        expect(await c.get('a')).toStrictEqual(doc);
        expect(await c.get('missing')).toBeNull();
      });

      it('put replaces the whole document', async () => {
        const c = await filled([{ id: 'a', x: 1, y: 2 }]);
        await c.put({ id: 'a', x: 3 });
        expect(await c.get('a')).toStrictEqual({ id: 'a', x: 3 });
      });

      it('patch merges shallowly, removes undefined fields and returns false when missing', async () => {
        const c = await filled([{ id: 'a', x: 1, y: 2, nested: { p: 1, q: 2 } }]);
        expect(await c.patch('a', { y: 20, z: 'new', nested: { p: 9 }, x: undefined })).toBe(true);
        expect(await c.get('a')).toStrictEqual({ id: 'a', y: 20, z: 'new', nested: { p: 9 } });
        expect(await c.patch('missing', { y: 1 })).toBe(false);
        expect(await c.get('missing')).toBeNull();
      });

      it('delete returns whether a document was removed; clear removes all', async () => {
        const c = await filled([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
        expect(await c.delete('a')).toBe(true);
        expect(await c.delete('a')).toBe(false);
        expect(await c.getMany(['a', 'b'])).toStrictEqual([{ id: 'b' }]);
        await c.clear();
        expect(await c.count({})).toBe(0);
      });

      it('getMany returns documents in the order asked, skipping missing ones', async () => {
        const [a, b, cc] = [{ id: 'a', n: 1 }, { id: 'b', n: 2 }, { id: 'c', n: 3 }];
        const c = await filled([a, b, cc]);
        expect(await c.getMany(['c', 'missing', 'a', 'b'])).toStrictEqual([cc, a, b]);
        expect(await c.getMany([])).toStrictEqual([]);
      });
    });

    describe('find and count', () => {
      const docs: Item[] = [
        { id: 'p1', status: 'open', price: 10, at: '2024-01-01T00:00:00.000Z', owner: { name: 'ann', tier: 2 }, active: true },
        { id: 'p2', status: 'closed', price: 20, at: '2024-02-01T00:00:00.000Z', owner: { name: 'bob', tier: 1 }, active: false },
        { id: 'p3', status: null, price: 30, at: '2024-03-01T00:00:00.000Z', owner: { name: 'ann', tier: 3 } },
        { id: 'p4', price: 40, at: '2024-04-01T00:00:00.000Z' },
        { id: 'p5', status: 'open', price: 15.5, at: '2023-12-31T23:59:59.999Z', owner: { name: 'cy', tier: 1 }, active: true },
      ];
      const indexes: IndexSpec[] = [{ name: 'by_status_price', fields: [['status', 1], ['price', 1]] }];
      let c: Collection<Item>;
      beforeAll(async () => {
        c = await filled(docs, indexes);
      });

      it.each<[string, Filter, string[]]>([
        ['no condition', {}, ['p1', 'p2', 'p3', 'p4', 'p5']],
        ['string equality', { status: 'open' }, ['p1', 'p5']],
        ['null equality, matching missing fields', { status: null }, ['p3', 'p4']],
        ['$eq', { status: { $eq: 'closed' } }, ['p2']],
        ['number equality', { price: 20 }, ['p2']],
        ['boolean equality', { active: false }, ['p2']],
        ['$in', { status: { $in: ['open', 'closed'] } }, ['p1', 'p2', 'p5']],
        ['$in with null', { status: { $in: ['closed', null] } }, ['p2', 'p3', 'p4']],
        ['empty $in', { status: { $in: [] } }, []],
        ['$ne, matching missing fields', { status: { $ne: 'open' } }, ['p2', 'p3', 'p4']],
        ['$ne null', { status: { $ne: null } }, ['p1', 'p2', 'p5']],
        ['$gt number', { price: { $gt: 15.5 } }, ['p2', 'p3', 'p4']],
        ['$gte number', { price: { $gte: 15.5 } }, ['p2', 'p3', 'p4', 'p5']],
        ['$gt and $lte', { price: { $gt: 10, $lte: 30 } }, ['p2', 'p3', 'p5']],
        ['$lt number', { price: { $lt: 15.5 } }, ['p1']],
        ['ISO string range', { at: { $gte: '2024-01-01T00:00:00.000Z', $lt: '2024-03-01T00:00:00.000Z' } }, ['p1', 'p2']],
        ['$lte ISO string', { at: { $lte: '2024-01-01T00:00:00.000Z' } }, ['p1', 'p5']],
        ['AND across fields', { status: 'open', price: { $gt: 12 } }, ['p5']],
        ['dotted equality', { 'owner.name': 'ann' }, ['p1', 'p3']],
        ['dotted range', { 'owner.tier': { $lte: 1 } }, ['p2', 'p5']],
        ['dotted $ne, matching missing parents', { 'owner.name': { $ne: 'ann' } }, ['p2', 'p4', 'p5']],
        ['id $in', { id: { $in: ['p4', 'nope', 'p2'] } }, ['p2', 'p4']],
      ])('%s', async (_label, filter, expected) => {
        expect(ids((await c.find(filter)).items)).toEqual(expected);
        expect(await c.count(filter)).toBe(expected.length);
      });

      it('compares ranges within one type, as MongoDB does', async () => {
        const mixed = await filled([{ id: 'n', v: 5 }, { id: 's', v: 'abc' }, { id: 'z', v: null }, { id: 'm' }]);
        expect(ids((await mixed.find({ v: { $gt: 1 } })).items)).toEqual(['n']);
        expect(ids((await mixed.find({ v: { $lt: 'zzz' } })).items)).toEqual(['s']);
        expect(ids((await mixed.find({ v: { $gte: '' } })).items)).toEqual(['s']);
        expect(ids((await mixed.find({ v: { $lte: 100 } })).items)).toEqual(['n']);
      });
    });

    describe('sort and pagination', () => {
      // Insertion order differs from every sort order, and sort keys repeat and hold nulls.
      const docs: Item[] = Array.from({ length: 23 }, (_, k) => {
        const i = (k * 7) % 23;
        const doc: Item = { id: `d${String(i).padStart(2, '0')}`, rank: i % 5, at: `2024-01-${String((i % 9) + 1).padStart(2, '0')}` };
        if (i % 3 !== 0) doc.group = `g${i % 4}`;
        else if (i % 2 === 0) doc.group = null;
        return doc;
      });
      let c: Collection<Item>;
      beforeAll(async () => {
        c = await filled(docs, [{ name: 'by_group_rank', fields: [['group', 1], ['rank', -1]] }]);
      });

      it('breaks ties on id, in the direction of the last key', async () => {
        const small = await filled([{ id: 'b', n: 1 }, { id: 'c', n: 2 }, { id: 'a', n: 1 }]);
        expect(ids((await small.find({}, { sort: [['n', 1]] })).items)).toEqual(['a', 'b', 'c']);
        expect(ids((await small.find({}, { sort: [['n', -1]] })).items)).toEqual(['c', 'b', 'a']);
        expect(ids((await small.find({}, { sort: [['n', -1], ['id', 1]] })).items)).toEqual(['c', 'a', 'b']);
      });

      const all = (): boolean => true;
      it.each<[string, FindOptions['sort'], Filter, (d: Item) => boolean]>([
        ['id only', undefined, {}, all],
        ['one key ascending', [['rank', 1]], {}, all],
        ['one key descending', [['rank', -1]], {}, all],
        ['ISO strings descending', [['at', -1]], {}, all],
        ['two keys, nulls and missing lowest', [['group', 1], ['rank', -1]], {}, all],
        ['two keys descending then ascending', [['group', -1], ['rank', 1]], {}, all],
        ['filtered', [['group', -1], ['at', -1]], { rank: { $ne: 2 } }, (d) => d.rank !== 2],
      ])('sorts and walks every page once: %s', async (_label, sort, filter, keep) => {
        const expected = ids(docs.filter(keep).sort(compareBy(effectiveSort({ sort }))));
        expect(ids((await c.find(filter, { sort, limit: 1000 })).items)).toEqual(expected);
        for (const limit of [1, 4, expected.length]) expect(await walk(c, filter, { sort, limit })).toEqual(expected);
      });

      it('stays correct while documents are inserted and removed between pages', async () => {
        const live = await filled(Array.from({ length: 10 }, (_, i) => ({ id: `a${i}`, n: i * 10 })));
        const changes = [
          async () => {
            await live.put({ id: 'low', n: 5 }); // sorts before the cursor: never seen
            await live.put({ id: 'a1z', n: 20 }); // ties with the cursor's n (20, a2) but sorts before it
            await live.put({ id: 'a2z', n: 20 }); // ties, sorts after it: seen next
            await live.put({ id: 'high', n: 55 }); // ahead: seen later
          },
          async () => {
            await live.delete('a7'); // ahead: never seen
            await live.put({ id: 'a3', n: 5 }); // already seen, moved behind: not seen again
          },
        ];
        const seen = await walk(live, {}, { sort: [['n', 1]], limit: 3 }, async () => changes.shift()?.());
        expect(seen).toEqual(['a0', 'a1', 'a2', 'a2z', 'a3', 'a4', 'a5', 'high', 'a6', 'a8', 'a9']);
      });

      it('rejects an invalid cursor', async () => {
        for (const after of ['not a cursor', encodeCursor([1]), encodeCursor([{ $gt: 1 }, 'a']), encodeCursor([1, null])]) {
          await expect(c.find({}, { sort: [['rank', 1]], after })).rejects.toBeInstanceOf(InvalidCursorError);
        }
      });
    });

    describe('unique indexes', () => {
      it('raise DuplicateKeyError naming the collection and the index', async () => {
        const c = await filled(
          [{ id: 'u1', email: 'x@y', ws: 'w', sku: 'A' }],
          [
            { name: 'by_email', fields: [['email', 1]], unique: true },
            { name: 'by_ws_sku', fields: [['ws', 1], ['sku', -1]], unique: true },
          ],
        );
        const err = await c.put({ id: 'u2', email: 'x@y', ws: 'w', sku: 'B' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DuplicateKeyError);
        expect(err).toMatchObject({ collection: c.spec.name, index: 'by_email' });
        await expect(c.put({ id: 'u3', email: 'z@y', ws: 'w', sku: 'A' })).rejects.toMatchObject({ index: 'by_ws_sku' });
        await c.put({ id: 'u4', email: 'q@y', ws: 'w', sku: 'C' });
        await expect(c.patch('u4', { email: 'x@y' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await c.put({ id: 'u1', email: 'x@y', ws: 'w', sku: 'A', v: 2 }); // replacing itself is no conflict
        expect(ids((await c.find({})).items)).toEqual(['u1', 'u4']);
        expect(await c.get('u4')).toMatchObject({ email: 'q@y' });
      });
    });

    describe('transactions', () => {
      it('commit every write together and return the result', async () => {
        const [a, b] = [fresh(), fresh()];
        await a.put({ id: 'old', n: 1 });
        const result = await store.transaction(async () => {
          await a.put({ id: 'x', n: 1 });
          await b.put({ id: 'y', n: 2 });
          await a.patch('old', { n: 2 });
          expect(await a.get('x')).toStrictEqual({ id: 'x', n: 1 }); // reads see the transaction's writes
          expect(await a.count({ n: 2 })).toBe(1);
          return 42;
        });
        expect(result).toBe(42);
        expect(await a.getMany(['x', 'old'])).toStrictEqual([{ id: 'x', n: 1 }, { id: 'old', n: 2 }]);
        expect(await b.get('y')).toStrictEqual({ id: 'y', n: 2 });
      });

      it('leave nothing written, in any collection, when fn throws', async () => {
        const [a, b] = [fresh(), fresh()];
        await a.put({ id: 'keep', n: 1 });
        await b.put({ id: 'other', n: 1 });
        const failing = store.transaction(async () => {
          await a.put({ id: 'new', n: 1 });
          await a.delete('keep');
          await b.patch('other', { n: 2 });
          await b.put({ id: 'new', n: 1 });
          await a.clear();
          throw new Error('boom');
        });
        await expect(failing).rejects.toThrow('boom');
        expect(await a.find({})).toStrictEqual({ items: [{ id: 'keep', n: 1 }], nextCursor: null });
        expect(await b.find({})).toStrictEqual({ items: [{ id: 'other', n: 1 }], nextCursor: null });
      });

      it('roll back everything when a write inside fails on a unique index', async () => {
        const c = fresh([{ name: 'by_email', fields: [['email', 1]], unique: true }]);
        await c.put({ id: 'u1', email: 'x' });
        const failing = store.transaction(async () => {
          await c.put({ id: 'u2', email: 'y' });
          await c.put({ id: 'u3', email: 'x' });
        });
        await expect(failing).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await c.count({})).toBe(1);
      });

      it('hide uncommitted writes from reads outside the transaction', async () => {
        const c = fresh();
        await c.put({ id: 'before', n: 1 });
        let wrote!: () => void;
        const written = new Promise<void>((resolve) => (wrote = resolve));
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const running = store.transaction(async () => {
          await c.put({ id: 'inside', n: 2 });
          await c.patch('before', { n: 3 });
          wrote();
          await gate;
        });
        await Promise.race([written, running]); // this context is outside the transaction
        expect(await c.get('inside')).toBeNull();
        expect(await c.get('before')).toStrictEqual({ id: 'before', n: 1 });
        expect(await c.count({})).toBe(1);
        release();
        await running;
        expect(await c.count({})).toBe(2);
        expect(await c.get('before')).toStrictEqual({ id: 'before', n: 3 });
      });

      it('keep a collection first opened inside a rolled-back transaction usable', async () => {
        const name = uniqueName();
        const spec = { name, indexes: [{ name: 'by_n', fields: [['n', 1]] as const }] };
        await expect(
          store.transaction(async () => {
            await store.collection<Item>(spec).put({ id: 'x', n: 1 });
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        const c = store.collection<Item>(spec);
        expect(await c.get('x')).toBeNull();
        await c.put({ id: 'y', n: 2 });
        expect(ids((await c.find({ n: { $gte: 0 } })).items)).toEqual(['y']);
      });

      it('do not nest', async () => {
        const c = fresh();
        const nested = store.transaction(async () => {
          await c.put({ id: 'x' });
          await store.transaction(async () => undefined);
        });
        await expect(nested).rejects.toThrow(/nest/);
        expect(await c.get('x')).toBeNull();
      });
    });

    describe('changeToken', () => {
      it('is null, or moves with every committed write and stays put without one', async () => {
        const c = fresh();
        const before = await store.changeToken();
        if (before === null) return; // the adapter offers no token: callers must not cache
        expect(await store.changeToken()).toBe(before);
        await c.put({ id: 'x', n: 1 });
        const afterPut = await store.changeToken();
        expect(afterPut).not.toBe(before);
        await store.transaction(async () => {
          await c.patch('x', { n: 2 });
        });
        expect(await store.changeToken()).not.toBe(afterPut);
      });
    });
  });
}
