// The ReadStore contract: documents (put, get, patch, delete, clear, getMany) and unique indexes.
import { DuplicateKeyError } from '@app/platform/read-store/read-store.port';

import { type Item, type ReadStoreFixture, ids } from './support';

export function documentsContract(f: ReadStoreFixture): void {
  describe('documents', () => {
    const { fresh, filled } = f;

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
}

export function uniqueIndexesContract(f: ReadStoreFixture): void {
  describe('unique indexes', () => {
    const { filled } = f;

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
}
