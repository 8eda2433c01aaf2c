// A collection of the embedded ReadStore: its documents as rows of JSON in the collection's table,
// each indexed field also a column (sqlite-columns.ts), read and written as SQL — gets, upserts
// that set only the columns whose value changed, and `find` compiled to a WHERE over those columns,
// keyset-paged by cursor. The connections and transactions are SqliteReadStore's.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

import { limitClause } from '../sqlite/statement-cache';
import { guardedRead } from '../sqlite/storage-fault';
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
  type Scalar,
} from './read-store.port';
import { IndexedColumns } from './sqlite-columns';
import { afterClause, type FieldExpr, orderByClause, whereClause } from './sqlite-filter';
import type { SqliteReadStore } from './sqlite-read-store';

export function tableName(collection: string): string {
  return `"c_${collection}"`;
}

/** Decodes a cursor and checks what binding needs: scalar sort values and a string id last. */
function cursorValues(cursor: string, length: number): Scalar[] {
  const values = decodeCursor(cursor, length);
  const scalars = values.filter((v): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  if (scalars.length !== length || typeof values[length - 1] !== 'string') throw new InvalidCursorError();
  return scalars;
}

export class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  private readonly columns: IndexedColumns;
  private readonly expr: FieldExpr;

  constructor(
    private readonly store: SqliteReadStore,
    readonly spec: CollectionSpec,
  ) {
    this.table = tableName(spec.name);
    this.columns = IndexedColumns.of(spec);
    this.expr = (field) => this.columns.expr(field);
  }

  async get(id: string): Promise<T | null> {
    const statement = await this.query(`SELECT doc FROM ${this.table} WHERE id = ?`);
    const row = guardedRead(this.store.path, () => statement.get(id) as { doc: string } | undefined);
    const doc = row ? (JSON.parse(row.doc) as T) : null;
    this.remember([id], doc ? [doc] : []);
    return doc;
  }

  async getMany(ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const statement = await this.query(`SELECT doc FROM ${this.table} WHERE id IN (${ids.map(() => '?').join(', ')})`);
    const rows = guardedRead(this.store.path, () => statement.all(...ids) as Array<{ doc: string }>);
    const byId = new Map<string, T>();
    for (const row of rows) {
      const doc = JSON.parse(row.doc) as T;
      byId.set(doc.id, doc);
    }
    this.remember(ids, byId.values());
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Inside a transaction, what the rows read hold in their indexed columns (taken from the
   * documents as read, before a caller may change them), so that writing them back reads nothing.
   */
  private remember(ids: readonly string[], docs: Iterable<T>): void {
    if (this.columns.fields.length === 0) return;
    const known = this.store.knownRows(this.spec.name);
    if (!known) return;
    for (const id of ids) known.set(id, null);
    for (const doc of docs) known.set(doc.id, this.columns.values(doc));
  }

  async put(doc: T): Promise<void> {
    await this.store.write(this.spec, (db) => this.upsert(db, doc));
  }

  async patch(id: string, changes: Partial<T>): Promise<boolean> {
    return this.store.write(this.spec, (db) => {
      const row = this.store.prepare(db, `SELECT doc FROM ${this.table} WHERE id = ?`).get(id) as { doc: string } | undefined;
      if (!row) return false;
      this.upsert(db, { ...(JSON.parse(row.doc) as T), ...changes, id });
      return true;
    });
  }

  async delete(id: string): Promise<boolean> {
    return this.store.write(this.spec, (db) => {
      const deleted = Number(this.store.prepare(db, `DELETE FROM ${this.table} WHERE id = ?`).run(id).changes) > 0;
      this.store.knownRows(this.spec.name)?.set(id, null);
      return deleted;
    });
  }

  async clear(): Promise<void> {
    await this.store.write(this.spec, (db) => {
      db.exec(`DELETE FROM ${this.table}`);
      this.store.knownRows(this.spec.name)?.clear();
    });
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Page<T>> {
    const limit = Math.max(1, Math.trunc(options.limit ?? 100));
    // One row more than the page: whether there is a next one.
    const { sql, params } = this.selectSql(filter, options, limit + 1);
    const statement = await this.query(sql);
    const rows = guardedRead(this.store.path, () => statement.all(...params) as Array<{ doc: string }>);
    const items = rows.slice(0, limit).map((r) => JSON.parse(r.doc) as T);
    const sort = effectiveSort(options);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > limit && last ? encodeCursor(sort.map(([f]) => fieldValue(last, f) ?? null)) : null;
    return { items, nextCursor };
  }

  async count(filter: Filter): Promise<number> {
    const where = whereClause(filter, this.expr);
    const statement = await this.query(`SELECT count(*) AS n FROM ${this.table} WHERE ${where.sql}`);
    const row = guardedRead(this.store.path, () => statement.get(...where.params) as { n: number });
    return row.n;
  }

  /** SQLite's query plan for a `find` (used to prove that declared indexes serve the queries). */
  explain(filter: Filter, options: FindOptions = {}): string[] {
    const { sql, params } = this.selectSql(filter, options, Math.max(1, Math.trunc(options.limit ?? 100)) + 1);
    const rows = this.store
      .readConnection()
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params) as Array<{ detail: string }>;
    return rows.map((r) => r.detail);
  }

  /**
   * The opcodes of SQLite's program for a `find` (to prove that a condition is checked on the
   * index entry: a `Function` opcode in the loop is a json_extract evaluated on a document).
   */
  program(filter: Filter, options: FindOptions = {}): string[] {
    const { sql, params } = this.selectSql(filter, options, Math.max(1, Math.trunc(options.limit ?? 100)) + 1);
    const rows = this.store
      .readConnection()
      .prepare(`EXPLAIN ${sql}`)
      .all(...params) as Array<{ opcode: string }>;
    return rows.map((r) => r.opcode);
  }

  private selectSql(filter: Filter, options: FindOptions, limit: number): { sql: string; params: SQLInputValue[] } {
    const sort = effectiveSort(options);
    const where = whereClause(filter, this.expr);
    const conditions = [where.sql];
    const params = [...where.params];
    if (options.after) {
      const after = afterClause(sort, cursorValues(options.after, sort.length), this.expr);
      conditions.push(after.sql);
      params.push(...after.params);
    }
    return {
      // The limit is a literal: a bound one would have SQLite plan the query again on every run.
      sql: `SELECT doc FROM ${this.table} WHERE ${conditions.join(' AND ')} ORDER BY ${orderByClause(sort, this.expr)} ${limitClause(limit)}`,
      params,
    };
  }

  /**
   * Inserts, or updates the document and only the columns whose value changed, so that SQLite
   * rewrites only the indexes over them (an update of no indexed field touches the table alone).
   * What the row holds is known without a read when this transaction read or wrote it already.
   */
  private upsert(db: DatabaseSync, doc: T): void {
    const { fields, names } = this.columns;
    const json = JSON.stringify(doc);
    try {
      if (fields.length === 0) {
        this.store
          .prepare(db, `INSERT INTO ${this.table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`)
          .run(doc.id, json);
        return;
      }
      const values = this.columns.values(doc);
      const known = this.store.knownRows(this.spec.name);
      let current = known?.get(doc.id);
      if (current === undefined) {
        const select = this.store.prepare(db, `SELECT ${names.join(', ')} FROM ${this.table} WHERE id = ?`);
        select.setReturnArrays(true);
        current = (select.get(doc.id) as unknown as SQLInputValue[] | undefined) ?? null;
      }
      const updated = current !== null && this.update(db, doc.id, json, current, values);
      if (!updated) {
        // Absent (or, should what was known be wrong, there after all: then every column is set).
        const sets = ['doc = excluded.doc', ...names.map((c) => `${c} = excluded.${c}`)];
        this.store
          .prepare(
            db,
            `INSERT INTO ${this.table} (id, doc, ${names.join(', ')}) VALUES (?, ?, ${names.map(() => '?').join(', ')}) ON CONFLICT (id) DO UPDATE SET ${sets.join(', ')}`,
          )
          .run(doc.id, json, ...values);
      }
      known?.set(doc.id, values);
    } catch (error) {
      throw this.duplicateKey(error) ?? error;
    }
  }

  /** Sets the document and the columns that differ from `current`; false when there is no such row. */
  private update(db: DatabaseSync, id: string, json: string, current: readonly SQLInputValue[], values: readonly SQLInputValue[]): boolean {
    const changed: number[] = [];
    for (let i = 0; i < values.length; i += 1) if (current[i] !== values[i]) changed.push(i);
    const sets = ['doc = ?', ...changed.map((i) => `${this.columns.names[i]} = ?`)];
    const result = this.store.prepare(db, `UPDATE ${this.table} SET ${sets.join(', ')} WHERE id = ?`).run(json, ...changed.map((i) => values[i]), id);
    return Number(result.changes) > 0;
  }

  /**
   * A unique index's violation as a DuplicateKeyError naming the index. SQLite names the columns
   * (`UNIQUE constraint failed: c_users.f_email`), so the index is the unique one over them. Not
   * `instanceof Error`: node:sqlite builds its errors in the main realm, which differs from the
   * caller's under jest's vm sandbox.
   */
  private duplicateKey(error: unknown): DuplicateKeyError | null {
    const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : '';
    const failed = /UNIQUE constraint failed: (.+)$/.exec(message);
    if (!failed) return null;
    const prefix = `c_${this.spec.name}.`;
    const listed = failed[1]
      .split(', ')
      .map((c) => (c.startsWith(prefix) ? c.slice(prefix.length) : c))
      .map((c) => (c.startsWith('f_') ? c.slice(2) : c))
      .sort()
      .join(',');
    const index = this.spec.indexes.find((i) => i.unique && i.fields.map(([f]) => f).sort().join(',') === listed);
    return index ? new DuplicateKeyError(this.spec.name, index.name) : null;
  }

  private async query(sql: string): Promise<StatementSync> {
    const db = await this.store.readConnectionFor(this.spec);
    return this.store.prepare(db, sql);
  }
}
