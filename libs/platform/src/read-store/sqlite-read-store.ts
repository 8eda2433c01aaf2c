// The embedded ReadStore adapter: a table per collection holding JSON documents, each indexed field
// also a column of the table with the declared indexes over those columns (sqlite-columns.ts). Writes go through one connection, serialized by a mutex and
// wrapped in BEGIN IMMEDIATE; reads outside a transaction use a second connection, so they only
// ever see committed data (WAL snapshot). A collection's queries are SqliteCollection's
// (sqlite-collection.ts); this is the store: its connections, transactions and tables.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

import { immediateTransaction, openSqlite, type SqliteOptions, storageFaults } from '../sqlite/sqlite-database';
import { StatementCache } from '../sqlite/statement-cache';
import { WalCheckpointer } from '../sqlite/wal-checkpointer';
import type { Collection, CollectionSpec, Doc, ReadStore } from './read-store.port';
import { SqliteCollection, tableName } from './sqlite-collection';
import { IndexedColumns, columnName, documentExpr } from './sqlite-columns';

export { SqliteCollection } from './sqlite-collection';

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;

interface TransactionContext {
  /** False once COMMIT or ROLLBACK ran. */
  active: boolean;
  /** knownRows, by collection. */
  rows: Map<string, Map<string, SQLInputValue[] | null>>;
}

export class SqliteReadStore implements ReadStore {
  readonly writer: DatabaseSync;
  private readonly reader: DatabaseSync;
  // `active` turns false at COMMIT/ROLLBACK, so work a transaction left running (not awaited) falls
  // back to ordinary queued writes instead of writing into whichever transaction is open next.
  private readonly inTransaction = new AsyncLocalStorage<TransactionContext>();
  private readonly ensured = new Set<string>();
  // Tables created while the writer was inside a transaction vanish if it rolls back.
  private readonly provisional = new Set<string>();
  private readonly statements = new WeakMap<DatabaseSync, StatementCache>();
  private queue: Promise<unknown> = Promise.resolve();

  private readonly checkpointer: WalCheckpointer | null;

  constructor(
    readonly path: string,
    options: SqliteOptions = {},
  ) {
    this.writer = openSqlite(path, options);
    this.reader = path === ':memory:' ? this.writer : openSqlite(path, options);
    const every = options.backgroundCheckpointMs ?? 0;
    this.checkpointer = every > 0 && path !== ':memory:' ? new WalCheckpointer(path, every) : null;
  }

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    // While another context's transaction is open, DDL would join it; the first operation creates
    // the table instead.
    if (!this.writer.isTransaction || this.activeTransaction()) this.ensure(spec);
    return new SqliteCollection<T>(this, spec);
  }

  private ensure(spec: CollectionSpec): void {
    if (this.ensured.has(spec.name)) return;
    try {
      this.ensureSchema(spec);
    } catch (error) {
      throw storageFaults(this.writer)?.failed(error) ?? error; // a new table needs room too
    }
    this.ensured.add(spec.name);
    if (this.writer.isTransaction) this.provisional.add(spec.name);
  }

  private ensureSchema(spec: CollectionSpec): void {
    if (!COLLECTION_NAME.test(spec.name)) throw new Error(`Invalid collection name: ${spec.name}`);
    const table = tableName(spec.name);
    const columns = IndexedColumns.of(spec);
    this.writer.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL${columns.names.map((c) => `, ${c}`).join('')})`);
    const prefix = `c_${spec.name}__`;
    const existing = new Map(
      (
        this.writer
          .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND substr(name, 1, ?) = ?")
          .all(`c_${spec.name}`, prefix.length, prefix) as Array<{ name: string; sql: string }>
      ).map((r) => [r.name, r.sql]),
    );
    const wanted = new Map<string, string>();
    for (const index of spec.indexes) {
      if (!COLLECTION_NAME.test(index.name)) throw new Error(`Invalid index name: ${index.name}`);
      const keys = index.fields.map(([f, dir]) => `${columns.expr(f)} ${dir === 1 ? 'ASC' : 'DESC'}`);
      const name = `${prefix}${index.name}`;
      wanted.set(name, `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX "${name}" ON ${table} (${keys.join(', ')})`);
    }
    // An index the collection no longer declares, or declares otherwise (a new version of the
    // collection, or one of an older layout over json_extract expressions), would still cost every
    // write and serve the new queries badly: dropped, before the columns it may name.
    for (const [name, sql] of existing) if (wanted.get(name) !== sql) this.writer.exec(`DROP INDEX IF EXISTS "${name}"`);
    this.migrateColumns(table, columns);
    for (const [name, sql] of wanted) if (existing.get(name) !== sql) this.writer.exec(sql);
  }

  /**
   * A table of an older version (or of the layout before columns) gets the indexed fields it lacks
   * as columns, filled from its documents; a column no index names any more is dropped (kept, it
   * would go stale, and be wrong the day an index named it again).
   */
  private migrateColumns(table: string, columns: IndexedColumns): void {
    const present = new Set(
      (this.writer.prepare(`SELECT name FROM pragma_table_info('${table.slice(1, -1)}')`).all() as Array<{ name: string }>).map((r) => r.name),
    );
    const declared = new Set(columns.fields.map((f) => `f_${f}`));
    for (const name of present) if (name.startsWith('f_') && !declared.has(name)) this.writer.exec(`ALTER TABLE ${table} DROP COLUMN "${name}"`);
    const missing = columns.fields.filter((f) => !present.has(`f_${f}`));
    if (missing.length === 0) return;
    for (const field of missing) this.writer.exec(`ALTER TABLE ${table} ADD COLUMN ${columnName(field)}`);
    this.writer.exec(`UPDATE ${table} SET ${missing.map((f) => `${columnName(f)} = ${documentExpr(f)}`).join(', ')}`);
  }

  /** A cached prepared statement; the SQL varies with the query's shape and limit, not with its values. */
  prepare(db: DatabaseSync, sql: string): StatementSync {
    let cache = this.statements.get(db);
    if (!cache) {
      cache = new StatementCache(db);
      this.statements.set(db, cache);
    }
    return cache.get(sql);
  }

  async transaction<R>(fn: () => Promise<R>): Promise<R> {
    if (this.activeTransaction()) throw new Error('ReadStore transactions do not nest');
    return this.exclusive(async () => {
      const context: TransactionContext = { active: true, rows: new Map() };
      storageFaults(this.writer)?.assertWritable();
      this.writer.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.inTransaction.run(context, fn);
        this.writer.exec('COMMIT');
        this.provisional.clear();
        return result;
      } catch (error) {
        if (this.writer.isTransaction) this.writer.exec('ROLLBACK');
        for (const name of this.provisional) this.ensured.delete(name);
        this.provisional.clear();
        throw storageFaults(this.writer)?.failed(error) ?? error;
      } finally {
        context.active = false;
      }
    });
  }

  private activeTransaction(): boolean {
    return this.inTransaction.getStore()?.active === true;
  }

  /**
   * Inside a transaction: the indexed column values of the rows of `collection` read or written in
   * it so far, by id (null: no such row), so that writing one back needs no read of what it holds;
   * undefined outside a transaction. Forgotten when the transaction ends.
   */
  knownRows(collection: string): Map<string, SQLInputValue[] | null> | undefined {
    const context = this.inTransaction.getStore();
    if (context?.active !== true) return undefined;
    let rows = context.rows.get(collection);
    if (!rows) {
      rows = new Map();
      context.rows.set(collection, rows);
    }
    return rows;
  }

  /** Runs a write: directly inside the current transaction, else alone in a transaction of its own. */
  write<R>(spec: CollectionSpec, fn: (db: DatabaseSync) => R): Promise<R> {
    if (this.activeTransaction()) {
      // SQLite rolls a transaction back by itself on some failures (a full disk): a caller that
      // went on after one must not write outside it, one statement at a time.
      if (!this.writer.isTransaction) throw new Error('The transaction was rolled back by SQLite after a failed write');
      this.ensure(spec);
      return Promise.resolve(fn(this.writer));
    }
    return this.exclusive(async () => {
      this.ensure(spec);
      return immediateTransaction(this.writer, () => fn(this.writer));
    });
  }

  /** The connection a read should use, once the collection's table is visible on it. */
  async readConnectionFor(spec: CollectionSpec): Promise<DatabaseSync> {
    if (this.activeTransaction()) {
      this.ensure(spec);
      return this.writer;
    }
    // A table created inside a still-open transaction is invisible to the reader: wait for its end.
    if (!this.ensured.has(spec.name) || this.provisional.has(spec.name)) {
      await this.exclusive(async () => this.ensure(spec));
    }
    return this.reader;
  }

  /** The connection a read should use: the writer inside a transaction (to see its own writes). */
  readConnection(): DatabaseSync {
    return this.activeTransaction() ? this.writer : this.reader;
  }

  private exclusive<R>(fn: () => Promise<R>): Promise<R> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * SQLite's data_version, read on the reader connection: it changes when any other connection —
   * this process's writer or another process — commits. With one shared connection (:memory:) it
   * would miss our own writes, so there is no token then.
   */
  async changeToken(): Promise<string | null> {
    if (this.reader === this.writer) return null;
    const row = this.prepare(this.reader, 'PRAGMA data_version').get() as { data_version: number };
    return String(row.data_version);
  }

  /**
   * Answers, and has room: a damaged file, or a full or read-only file system, throws a
   * StorageFaultError. After a write refused for want of storage, a probe on the writer, between
   * transactions, until it finds room again.
   */
  async ping(): Promise<void> {
    this.reader.prepare('SELECT 1').get();
    const faults = storageFaults(this.writer);
    if (faults?.fault) await this.exclusive(async () => faults.check());
    else faults?.check();
  }

  async close(): Promise<void> {
    await this.queue;
    await this.checkpointer?.stop();
    if (this.reader !== this.writer && this.reader.isOpen) this.reader.close();
    if (this.writer.isOpen) this.writer.close();
  }
}
