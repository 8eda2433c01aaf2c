// The ReadStore contract: queries — find and count with every filter operator, sort and pagination.
import {
  type Collection,
  effectiveSort,
  encodeCursor,
  type Filter,
  type FindOptions,
  type IndexSpec,
  InvalidCursorError,
} from '@app/platform/read-store/read-store.port';

import { compareBy, ids, type Item, type ReadStoreFixture, walk } from './support';

export function findAndCountContract(f: ReadStoreFixture): void {
  describe('find and count', () => {
    const { filled } = f;

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
}

export function sortAndPaginationContract(f: ReadStoreFixture): void {
  describe('sort and pagination', () => {
    const { filled } = f;

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
}
