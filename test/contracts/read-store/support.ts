// Shared by the ReadStore contract's parts: test documents, fresh collection names, a reference
// sort order, a paging walk, and what every part sees of the suite's store.
import { randomBytes } from 'node:crypto';

import {
  type Collection,
  type Doc,
  fieldValue,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadStore,
} from '@app/platform/read-store/read-store.port';

export type Open = () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>;

export interface Item extends Doc {
  [field: string]: unknown;
}

export const uniqueName = (): string => `t_${randomBytes(6).toString('hex')}`;

/** Reference order: null/missing lowest, then by value (the tests keep one type per field). */
export function compareBy(sort: ReadonlyArray<readonly [string, 1 | -1]>) {
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

export async function walk(c: Collection<Item>, filter: Filter, options: FindOptions, between?: () => Promise<void>) {
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

export const ids = (docs: readonly Doc[]): string[] => docs.map((d) => d.id);

/** The suite's store (a getter: it is opened in the suite's beforeAll) and collections made on it. */
export interface ReadStoreFixture {
  readonly store: ReadStore;
  /** An empty collection with a fresh name. */
  fresh(indexes?: IndexSpec[]): Collection<Item>;
  /** A fresh collection holding `docs`. */
  filled(docs: Item[], indexes?: IndexSpec[]): Promise<Collection<Item>>;
}
