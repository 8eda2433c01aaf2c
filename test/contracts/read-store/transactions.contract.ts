// The ReadStore contract: transactions (all or nothing, isolation, no nesting) and the change token.
import { DuplicateKeyError, type ReadStore } from '@app/platform/read-store/read-store.port';

import { ids, type Item, type ReadStoreFixture, uniqueName } from './support';

export function transactionsContract(f: ReadStoreFixture): void {
  describe('transactions', () => {
    let store: ReadStore;
    const { fresh } = f;
    beforeAll(() => {
      ({ store } = f);
    });

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
}

export function changeTokenContract(f: ReadStoreFixture): void {
  describe('changeToken', () => {
    let store: ReadStore;
    const { fresh } = f;
    beforeAll(() => {
      ({ store } = f);
    });

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
}
