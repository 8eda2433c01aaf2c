// The ReadStore port: collections of JSON documents keyed by `id`, built by projections and read
// by queries. Two adapters (SQLite via node:sqlite, MongoDB); one contract suite tests both.

/** Every document has a string `id`. Values are JSON (no undefined, no Date objects). */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

export type SortDirection = 1 | -1;

/** An index over top-level or dotted fields, e.g. `[['workspaceId', 1], ['createdAt', -1]]`. */
export interface IndexSpec {
  name: string;
  fields: ReadonlyArray<readonly [field: string, direction: SortDirection]>;
  unique?: boolean;
}

/** A collection declares its indexes; the adapter creates them on first use. */
export interface CollectionSpec {
  name: string;
  indexes: readonly IndexSpec[];
}

export type Scalar = string | number | boolean | null;

/** A small Mongo-style filter subset: equality, $in, $ne and ranges, AND-ed across fields. */
export type FieldCondition =
  | Scalar
  | {
      $eq?: Scalar;
      $ne?: Scalar;
      $in?: readonly Scalar[];
      $gt?: string | number;
      $gte?: string | number;
      $lt?: string | number;
      $lte?: string | number;
    };

export type Filter = Readonly<Record<string, FieldCondition>>;

export interface FindOptions {
  /** Sort keys; `id` is always appended as the final tie-breaker (same direction as the last key). */
  sort?: ReadonlyArray<readonly [field: string, direction: SortDirection]>;
  /** Page size (default 100). */
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  after?: string;
}

export interface Page<T> {
  items: T[];
  /** Present when more documents may follow; pass it as `after` to get the next page. */
  nextCursor: string | null;
}

export interface Collection<T extends Doc> {
  readonly spec: CollectionSpec;
  get(id: string): Promise<T | null>;
  getMany(ids: readonly string[]): Promise<T[]>;
  /** Insert or replace the whole document. */
  put(doc: T): Promise<void>;
  /** Shallow-merge `changes` into an existing document; returns false when it does not exist. */
  patch(id: string, changes: Partial<T>): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  find(filter: Filter, options?: FindOptions): Promise<Page<T>>;
  count(filter: Filter): Promise<number>;
  /** Remove every document (used by projection rebuilds). */
  clear(): Promise<void>;
}

export interface ReadStore {
  collection<T extends Doc>(spec: CollectionSpec): Collection<T>;
  /**
   * Runs `fn` atomically: every collection operation awaited inside it (on any collection of this
   * store) commits together, or — when `fn` throws — none does. Transactions do not nest.
   */
  transaction<R>(fn: () => Promise<R>): Promise<R>;
  /**
   * A token that changes whenever a committed write may have changed any document, in this process
   * or another; null when the adapter cannot tell cheaply (then nothing may be cached on it).
   */
  changeToken(): Promise<string | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const READ_STORE = Symbol('READ_STORE');

/**
 * The read store of the work no request waits for: the eventual lane's read models (tradegraph)
 * and the process managers' checkpoints. On the embedded default it is a file of its own
 * (eventual.db), so the process doing that work (WORKER_MODE=background: the worker) never takes
 * the write lock of read.db, which every request's read-your-writes lane commits to; on MongoDB it
 * is the same database as READ_STORE.
 */
export const EVENTUAL_READ_STORE = Symbol('EVENTUAL_READ_STORE');

/** Raised by `put` on a unique index violation; the HTTP layer turns it into 409 CONFLICT. */
export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
  constructor(readonly collection: string, readonly index: string) {
    super(`Duplicate key in ${collection} (${index})`);
  }
}

/** Raised when a cursor cannot be decoded (the HTTP layer answers 400). */
export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
  constructor() {
    super('Invalid pagination cursor');
  }
}

// Cursors are opaque to callers: base64url JSON of the last item's sort values and id.
export function encodeCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, expectedLength: number): unknown[] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === expectedLength) return parsed;
  } catch {
    // fall through
  }
  throw new InvalidCursorError();
}

/** Reads a possibly dotted field path from a document. */
export function fieldValue(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The effective sort: the requested keys plus `id` as the last tie-breaker. */
export function effectiveSort(options?: FindOptions): Array<readonly [string, SortDirection]> {
  const sort = [...(options?.sort ?? [])].filter(([f]) => f !== 'id');
  const lastDir = sort.length > 0 ? sort[sort.length - 1][1] : 1;
  const idDir = options?.sort?.find(([f]) => f === 'id')?.[1] ?? lastDir;
  return [...sort, ['id', idDir]];
}

/**
 * `[from, to)` over an ISO-8601 field, each bound optional and normalized to UTC `…Z` (the form
 * documents store); undefined when neither is given.
 */
export function instantRange(from?: string, to?: string): FieldCondition | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { $gte: new Date(from).toISOString() } : {}),
    ...(to ? { $lt: new Date(to).toISOString() } : {}),
  };
}
