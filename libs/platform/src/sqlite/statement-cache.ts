// Prepared statements, kept per SQL text, and the one rule about LIMIT that goes with them.
//
// A bound LIMIT (`LIMIT ?`) makes SQLite plan the statement again on every execution: the planner
// uses the limit, so binding it expires the plan — and planning costs far more than running an
// indexed query, above all the instant-match query over `inventory_items`' seven indexes, which runs
// once per POST. So a limit is written into the SQL as an integer literal (`limitClause`), which
// makes it part of the statement's text: a few more statements are kept, and each is planned once.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** `LIMIT n` for a limit computed by our code: an integer ≥ 1 written as a literal, never bound. */
export function limitClause(limit: number): string {
  const n = Math.trunc(limit);
  if (!Number.isFinite(n)) throw new Error(`Invalid LIMIT: ${limit}`);
  return `LIMIT ${Math.max(1, n)}`;
}

/**
 * Prepared statements of one connection by SQL text, the least recently used dropped past
 * `capacity` (texts vary with a query's shape and its literal limit, not with its values).
 */
export class StatementCache {
  private readonly statements = new Map<string, StatementSync>();

  constructor(
    private readonly db: DatabaseSync,
    private readonly capacity = 1000,
  ) {}

  get(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (stmt) {
      // Map keeps insertion order: moving a hit to the end keeps the oldest first for eviction.
      this.statements.delete(sql);
      this.statements.set(sql, stmt);
      return stmt;
    }
    stmt = this.db.prepare(sql);
    this.statements.set(sql, stmt);
    if (this.statements.size > this.capacity) this.statements.delete(this.statements.keys().next().value as string);
    return stmt;
  }

  get size(): number {
    return this.statements.size;
  }
}
