// A write-behind view of a ReadStore for one projection batch: a document read or written several
// times while the batch's events are applied is read once and written once, when the batch is
// flushed (inside the runner's transaction, so the checkpoint and the documents still commit
// together). An analytics projection whose aggregates every event touches (a set's demand, a
// card's price counts) then costs a batch what one event costs, not what each of them does.
//
// Contract for the projection: a document returned by `get` may be the batch's own copy — the
// same object on the next `get` — so change it only on the way to `put` (which a projection does
// anyway). `find` and `count` read the store, so they see the batch's pending writes of that
// collection only after flushing them first; `clear` is not for a batch (rebuilds clear outside).
import type { Collection, CollectionSpec, Doc, Filter, FindOptions, Page, ReadStore } from '../read-store/read-store.port';

/** A pending document: its latest state (null: deleted) and whether it differs from the store's. */
interface Entry {
  doc: Doc | null;
  dirty: boolean;
}

export class BatchCache implements ReadStore {
  private readonly collections = new Map<string, CachedCollection<Doc>>();

  constructor(private readonly store: ReadStore) {}

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    let c = this.collections.get(spec.name);
    if (!c) {
      c = new CachedCollection<Doc>(this.store.collection<Doc>(spec));
      this.collections.set(spec.name, c);
    }
    return c as unknown as Collection<T>;
  }

  /** Writes every pending document to the store (call inside the batch's transaction). */
  async flush(): Promise<void> {
    for (const c of this.collections.values()) await c.flush();
  }

  /** Documents written to the store by the flushes so far (for the runner's figures and tests). */
  get written(): number {
    let n = 0;
    for (const c of this.collections.values()) n += c.written;
    return n;
  }

  transaction<R>(fn: () => Promise<R>): Promise<R> {
    return fn(); // the batch runs inside the runner's transaction already
  }

  changeToken(): Promise<string | null> {
    return this.store.changeToken();
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  close(): Promise<void> {
    return Promise.resolve(); // the store is the runner's, not the batch's
  }
}

class CachedCollection<T extends Doc> implements Collection<T> {
  private readonly entries = new Map<string, Entry>();
  written = 0;

  constructor(private readonly inner: Collection<T>) {}

  get spec(): CollectionSpec {
    return this.inner.spec;
  }

  async get(id: string): Promise<T | null> {
    const cached = this.entries.get(id);
    if (cached) return cached.doc as T | null;
    const doc = await this.inner.get(id);
    this.entries.set(id, { doc, dirty: false });
    return doc;
  }

  async getMany(ids: readonly string[]): Promise<T[]> {
    const missing = ids.filter((id) => !this.entries.has(id));
    if (missing.length > 0) {
      const found = new Map((await this.inner.getMany(missing)).map((d) => [d.id, d]));
      for (const id of missing) this.entries.set(id, { doc: found.get(id) ?? null, dirty: false });
    }
    return ids.flatMap((id) => {
      const doc = this.entries.get(id)?.doc;
      return doc ? [doc as T] : [];
    });
  }

  async put(doc: T): Promise<void> {
    this.entries.set(doc.id, { doc, dirty: true });
  }

  async patch(id: string, changes: Partial<T>): Promise<boolean> {
    const current = await this.get(id);
    if (!current) return false;
    this.entries.set(id, { doc: { ...current, ...changes }, dirty: true });
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const existed = (await this.get(id)) !== null;
    this.entries.set(id, { doc: null, dirty: true });
    return existed;
  }

  async find(filter: Filter, options?: FindOptions): Promise<Page<T>> {
    await this.flush();
    return this.inner.find(filter, options);
  }

  async count(filter: Filter): Promise<number> {
    await this.flush();
    return this.inner.count(filter);
  }

  async clear(): Promise<void> {
    throw new Error('BatchCache: clear a collection outside a batch');
  }

  async flush(): Promise<void> {
    for (const [id, entry] of this.entries) {
      if (!entry.dirty) continue;
      if (entry.doc) await this.inner.put(entry.doc as T);
      else await this.inner.delete(id);
      entry.dirty = false;
      this.written += 1;
    }
  }
}
