// The one contract every ReadStore adapter passes. Each test uses fresh collection names, so the
// suite also runs on a shared database. Its parts live under read-store/; this file composes them.
import type { Collection, IndexSpec, ReadStore } from '@app/platform/read-store/read-store.port';

import { documentsContract, uniqueIndexesContract } from './read-store/documents.contract';
import { findAndCountContract, sortAndPaginationContract } from './read-store/queries.contract';
import { type Item, type Open, type ReadStoreFixture, uniqueName } from './read-store/support';
import { changeTokenContract, transactionsContract } from './read-store/transactions.contract';

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
    const fixture: ReadStoreFixture = {
      get store() {
        return store;
      },
      fresh,
      filled,
    };

    beforeAll(async () => ({ store, cleanup } = await open()));
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    it('pings', () => expect(store.ping()).resolves.toBeUndefined());

    documentsContract(fixture);
    findAndCountContract(fixture);
    sortAndPaginationContract(fixture);
    uniqueIndexesContract(fixture);
    transactionsContract(fixture);
    changeTokenContract(fixture);
  });
}
