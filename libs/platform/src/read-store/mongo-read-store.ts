// The MongoDB ReadStore adapter. Documents are stored as they are put, plus `_id` = id; the field
// `id` maps to `_id` in filters, sorts and indexes so the primary key serves it.
//
// `transaction` needs a replica set (a single-node `--replSet rs0` is enough): standalone servers
// refuse multi-document transactions. Its `fn` may run more than once (the driver retries
// transient transaction errors), so it must not have effects outside the store.
//
// Known differences from SQLite (keep documents well-typed and these never show): a unique index
// counts a missing field as null, so two documents lacking it collide; a sort field must hold one
// type (plus null), because the cursor's `$gt`/`$lt` compare within a type; `true` equals 1 in SQLite.
import { AsyncLocalStorage } from 'node:async_hooks';

import {
  type ClientSession,
  type Collection as MongoCollectionHandle,
  type Db,
  type Document,
  MongoClient,
  MongoServerError,
} from 'mongodb';

import {
  type Collection,
  type CollectionSpec,
  decodeCursor,
  type Doc,
  DuplicateKeyError,
  effectiveSort,
  encodeCursor,
  fieldValue,
  type Filter,
  type FindOptions,
  InvalidCursorError,
  type Page,
  type ReadStore,
  type Scalar,
  type SortDirection,
} from './read-store.port';

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;
const OPERATORS = new Set(['$eq', '$ne', '$in', '$gt', '$gte', '$lt', '$lte']);
const WITHOUT_ID = { _id: 0 } as const;

type SortKeys = ReadonlyArray<readonly [string, SortDirection]>;

interface StoredDoc {
  _id: string;
  [field: string]: unknown;
}

function mongoField(field: string): string {
  return field === 'id' ? '_id' : field;
}

/** The port's filters already are Mongo syntax; checking the operators keeps both adapters strict. */
function toMongoFilter(filter: Filter): Document {
  const out: Document = {};
  for (const [field, condition] of Object.entries(filter)) {
    if (condition !== null && typeof condition === 'object') {
      for (const op of Object.keys(condition)) {
        if (!OPERATORS.has(op)) throw new Error(`Unsupported filter operator: ${op}`);
      }
    }
    out[mongoField(field)] = condition;
  }
  return out;
}

/** Keyset condition "strictly after these sort values"; null and missing sort lowest, as in SQLite. */
function afterFilter(sort: SortKeys, values: readonly Scalar[]): Document {
  const alternatives: Document[] = [];
  sort.forEach(([field, dir], i) => {
    // `{ f: null }` matches a missing field too, which is how such a field sorts.
    const conditions: Document[] = sort.slice(0, i).map(([f], j) => ({ [mongoField(f)]: values[j] }));
    const name = mongoField(field);
    const value = values[i];
    if (dir === 1) conditions.push({ [name]: value === null ? { $ne: null } : { $gt: value } });
    else if (value === null) return; // nothing sorts after null in descending order
    else conditions.push({ $or: [{ [name]: { $lt: value } }, { [name]: null }] });
    alternatives.push({ $and: conditions });
  });
  return { $or: alternatives };
}

function cursorValues(cursor: string, length: number): Scalar[] {
  const values = decodeCursor(cursor, length);
  const scalars = values.filter((v): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  if (scalars.length !== length || typeof values[length - 1] !== 'string') throw new InvalidCursorError();
  return scalars;
}

export class MongoReadStore implements ReadStore {
  private readonly sessions = new AsyncLocalStorage<ClientSession>();
  private readonly indexes = new Map<string, Promise<void>>();

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  static async connect(url: string, dbName: string): Promise<MongoReadStore> {
    // ignoreUndefined: an undefined field is absent, as in the JSON the SQLite adapter stores.
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    return new MongoReadStore(client, client.db(dbName));
  }

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    if (!COLLECTION_NAME.test(spec.name)) throw new Error(`Invalid collection name: ${spec.name}`);
    return new MongoCollection<T>(this, spec, this.db.collection<StoredDoc>(spec.name));
  }

  /** Creates the declared indexes once per collection (outside any transaction), retrying after a failure. */
  ensureIndexes(spec: CollectionSpec, handle: MongoCollectionHandle<StoredDoc>): Promise<void> {
    let ready = this.indexes.get(spec.name);
    if (!ready) {
      ready = this.createIndexes(spec, handle);
      this.indexes.set(spec.name, ready);
      ready.catch(() => this.indexes.delete(spec.name));
    }
    return ready;
  }

  /**
   * Creates the declared indexes; first drops an index declared again under its name with other
   * keys (createIndexes would refuse it: IndexKeySpecsConflict) and one no longer declared (it
   * would still cost every write) — as the SQLite adapter does.
   */
  private async createIndexes(spec: CollectionSpec, handle: MongoCollectionHandle<StoredDoc>): Promise<void> {
    const wanted = spec.indexes.map((index) => ({
      name: index.name,
      unique: index.unique ?? false,
      key: Object.fromEntries(index.fields.map(([f, dir]) => [mongoField(f), dir])) as Record<string, 1 | -1>,
    }));
    const existing = await handle.indexes().catch((error: unknown) => {
      if (error instanceof MongoServerError && error.code === 26) return []; // NamespaceNotFound: no collection yet
      throw error;
    });
    for (const index of existing) {
      if (index.name === '_id_' || typeof index.name !== 'string') continue;
      const declared = wanted.find((w) => w.name === index.name);
      const same = declared && JSON.stringify(Object.entries(declared.key)) === JSON.stringify(Object.entries(index.key)) && declared.unique === (index.unique ?? false);
      if (!same) await handle.dropIndex(index.name);
    }
    if (wanted.length === 0) return;
    await handle.createIndexes(wanted);
  }

  /** The session of the transaction running in this async context, if any. */
  session(): ClientSession | undefined {
    return this.sessions.getStore();
  }

  async transaction<R>(fn: () => Promise<R>): Promise<R> {
    if (this.sessions.getStore()) throw new Error('ReadStore transactions do not nest');
    const session = this.client.startSession();
    try {
      // Read and write concerns come from the connection string (the server defaults to majority).
      return await session.withTransaction(() => this.sessions.run(session, fn));
    } finally {
      await session.endSession();
    }
  }

  /** The database itself, for stores that share this connection (the rate-limit counters). */
  database(): Db {
    return this.db;
  }

  /** No cheap store-wide change signal here (a change stream would be one): nothing is cached. */
  async changeToken(): Promise<string | null> {
    return null;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: MongoReadStore,
    readonly spec: CollectionSpec,
    private readonly handle: MongoCollectionHandle<StoredDoc>,
  ) {}

  async get(id: string): Promise<T | null> {
    const session = await this.ready();
    const doc = await this.handle.findOne({ _id: id }, { projection: WITHOUT_ID, session });
    return doc ? this.fromStored(doc) : null;
  }

  async getMany(ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const session = await this.ready();
    const docs = await this.handle.find({ _id: { $in: [...ids] } }, { projection: WITHOUT_ID, session }).toArray();
    const byId = new Map(docs.map((d) => [String(d.id), this.fromStored(d)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async put(doc: T): Promise<void> {
    const session = await this.ready();
    await this.duplicateKeys(() => this.handle.replaceOne({ _id: doc.id }, { ...doc }, { upsert: true, session }));
  }

  async patch(id: string, changes: Partial<T>): Promise<boolean> {
    const session = await this.ready();
    // Like the SQLite adapter's spread: an undefined value removes the field; `id` never changes.
    const set: Document = {};
    const unset: Document = {};
    for (const [field, value] of Object.entries(changes)) {
      if (field === 'id' || field === '_id') continue;
      if (value === undefined) unset[field] = '';
      else set[field] = value;
    }
    const update: Document = {};
    if (Object.keys(set).length > 0) update.$set = set;
    if (Object.keys(unset).length > 0) update.$unset = unset;
    if (Object.keys(update).length === 0) {
      return (await this.handle.countDocuments({ _id: id }, { limit: 1, session })) > 0;
    }
    const result = await this.duplicateKeys(() => this.handle.updateOne({ _id: id }, update, { session }));
    return result.matchedCount > 0;
  }

  async delete(id: string): Promise<boolean> {
    const session = await this.ready();
    return (await this.handle.deleteOne({ _id: id }, { session })).deletedCount > 0;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Page<T>> {
    const sort = effectiveSort(options);
    const limit = Math.max(1, Math.trunc(options.limit ?? 100));
    const where = toMongoFilter(filter);
    const query = options.after ? { $and: [where, afterFilter(sort, cursorValues(options.after, sort.length))] } : where;
    const session = await this.ready();
    const docs = await this.handle
      .find(query, {
        projection: WITHOUT_ID,
        sort: sort.map(([f, dir]): [string, SortDirection] => [mongoField(f), dir]),
        limit: limit + 1,
        session,
      })
      .toArray();
    const items = docs.slice(0, limit).map((d) => this.fromStored(d));
    const last = items[items.length - 1];
    const nextCursor =
      docs.length > limit && last ? encodeCursor(sort.map(([f]) => fieldValue(last, f) ?? null)) : null;
    return { items, nextCursor };
  }

  async count(filter: Filter): Promise<number> {
    const where = toMongoFilter(filter);
    const session = await this.ready();
    return this.handle.countDocuments(where, { session });
  }

  async clear(): Promise<void> {
    const session = await this.ready();
    await this.handle.deleteMany({}, { session });
  }

  /** Waits for the indexes, then returns the session every operation must carry inside a transaction. */
  private async ready(): Promise<ClientSession | undefined> {
    await this.store.ensureIndexes(this.spec, this.handle);
    return this.store.session();
  }

  private async duplicateKeys<R>(write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) {
        const index = /index: (\S+) dup key/.exec(error.message)?.[1] ?? 'unknown';
        throw new DuplicateKeyError(this.spec.name, index);
      }
      throw error;
    }
  }

  private fromStored(doc: Document): T {
    const { _id: _ignored, ...rest } = doc;
    return rest as T;
  }
}
