// What a SQLite persistent subscription group holds, and how held events are settled: the tables,
// the claim ranges of this store instance (in the database and, for speed, in memory), and the
// rows of events handed out again or parked. SqlitePersistentSubscriptions decides what to hand
// out; this is where an event handed out is recorded and where its ack or nack lands.
//
// Per group: `checkpoint` (every event at or below it is settled) and `read_position` (how far
// the log was scanned for the group's filter). An event after the checkpoint, up to the scan
// position, is settled unless something says otherwise:
//
// - a claim range in `persistent_subscription_claims` (first, last, owner): every event in it that
//   matches the group's filter and has no row of its own is held by `owner` (handed out once,
//   retryCount 0). A claim writes one range for the run of events it hands out, however many;
//   acks shrink or split it (one range per run of events still held) and drop it once all are
//   settled. So a batch of events acked together costs two rows, not a row per event;
// - a row in `persistent_subscription_events`: inflight (handed out again, with its retry count
//   and owner), retry (to hand out again) or parked (kept as the group's parked list). An ack
//   deletes an inflight or retry row. An `acked` row, which a database written by an earlier
//   version may hold, reads as settled until the checkpoint passes it.
//
// A held event names the store instance (`owner`) holding it; a new instance joining the group
// takes back ranges and rows of earlier ones (crash, restart): their events come back with
// retryCount + 1.
import type { StatementSync } from 'node:sqlite';

import type { EventFilter } from './event-store.port';
import type { SqliteEventStore } from './sqlite-event-store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS persistent_subscription_groups (
  group_name    TEXT PRIMARY KEY,
  checkpoint    INTEGER NOT NULL,
  read_position INTEGER NOT NULL,
  created_at    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS persistent_subscription_events (
  group_name  TEXT NOT NULL,
  position    INTEGER NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('inflight', 'retry', 'acked', 'parked')),
  retry_count INTEGER NOT NULL DEFAULT 0,
  owner       TEXT,
  reason      TEXT,
  updated_at  TEXT NOT NULL,
  PRIMARY KEY (group_name, position)
);
CREATE INDEX IF NOT EXISTS persistent_subscription_events_by_state
  ON persistent_subscription_events (group_name, state, position);
CREATE TABLE IF NOT EXISTS persistent_subscription_claims (
  group_name TEXT NOT NULL,
  first      INTEGER NOT NULL,
  last       INTEGER NOT NULL,
  owner      TEXT NOT NULL,
  PRIMARY KEY (group_name, first)
);
`;

/** What settles a held event: an ack, or a nack that hands it out again or parks it. */
export type Settlement = { action: 'ack' } | { action: 'retry' | 'park'; reason: string };
/** Changes to the ranges held in memory, made once their transaction has committed. */
export type Effects = Array<() => void>;

/**
 * A claim range of this instance: the events of it still held, in log order. Its row is
 * (group, positions[0], positions.at(-1), owner). Settling any of them replaces it.
 */
interface Run {
  group: string;
  positions: number[];
}

export class SubscriptionHolds {
  /** Per group: each held event of a claim range of this instance → its range. */
  private readonly runs = new Map<string, Map<number, Run>>();

  /** `owner`: this store instance, as the holder of the events it hands out. */
  constructor(
    private readonly store: SqliteEventStore,
    readonly owner: string,
  ) {
    store.db.exec(SCHEMA);
  }

  /**
   * Takes back what earlier instances held in the group (inside the join's transaction): their
   * inflight rows and the events of their ranges become rows to retry.
   */
  takeBack(group: string, filter: EventFilter | undefined, now: string): void {
    const db = this.store.db;
    db.prepare(
      `UPDATE persistent_subscription_events
       SET state = 'retry', retry_count = retry_count + 1, owner = NULL, updated_at = ?
       WHERE group_name = ? AND state = 'inflight' AND owner IS NOT ?`,
    ).run(now, group, this.owner);
    // The ranges of earlier instances: their held events (those of the range the filter matches)
    // become rows to retry, handed out again with retryCount 1.
    const taken = db
      .prepare('SELECT first, last FROM persistent_subscription_claims WHERE group_name = ? AND owner IS NOT ? ORDER BY first')
      .all(group, this.owner) as { first: number; last: number }[];
    const retry = this.sql(
      `INSERT OR IGNORE INTO persistent_subscription_events (group_name, position, state, retry_count, owner, updated_at)
       VALUES (?, ?, 'retry', 1, NULL, ?)`,
    );
    for (const { first, last } of taken) {
      for (let from = first - 1; from < last; ) {
        const events = this.store.readAllSync(from, Math.min(1_000, last - from), filter);
        for (const event of events) if (event.position <= last) retry.run(group, event.position, now);
        if (events.length === 0 || events[events.length - 1].position >= last) break;
        from = events[events.length - 1].position;
      }
      this.sql('DELETE FROM persistent_subscription_claims WHERE group_name = ? AND first = ?').run(group, first);
    }
  }

  /**
   * Settles events this instance handed out (inside a transaction). Events of its claim ranges
   * leave them — each range touched is rewritten as the runs of events it still holds — and, for a
   * nack, get a row (to retry, or parked). Other events have a row: an ack deletes it (also when
   * the event was handed back meanwhile: the work is done); a nack applies only to this holder's
   * row as it was handed out (`retryCount`; null for any), so a stale handle undoes no one's claim.
   */
  settle(group: string, positions: readonly number[], how: Settlement, retryCount: number | null, effects: Effects): void {
    const now = new Date().toISOString();
    const byRun = new Map<Run, number[]>();
    const rowBacked: number[] = [];
    const runs = this.runs.get(group);
    for (const position of positions) {
      const run = runs?.get(position);
      if (run && (retryCount === null || retryCount === 0)) {
        const mine = byRun.get(run);
        if (mine) mine.push(position);
        else byRun.set(run, [position]);
      } else rowBacked.push(position);
    }
    for (const [run, settling] of byRun) {
      if (!this.releaseRun(run, settling, effects)) {
        // Another instance took the range over (its events are rows now): settle those instead.
        rowBacked.push(...settling);
        continue;
      }
      if (how.action === 'ack') continue;
      const insert = this.sql(
        `INSERT OR REPLACE INTO persistent_subscription_events (group_name, position, state, retry_count, owner, reason, updated_at)
         VALUES (?, ?, ?, ?, NULL, ?, ?)`,
      );
      for (const position of settling) {
        if (how.action === 'retry') insert.run(group, position, 'retry', 1, how.reason, now);
        else insert.run(group, position, 'parked', 0, how.reason, now);
      }
    }
    if (how.action === 'ack') {
      const remove = this.sql(
        `DELETE FROM persistent_subscription_events WHERE group_name = ? AND position = ? AND state IN ('inflight', 'retry')`,
      );
      for (const position of rowBacked) remove.run(group, position);
      return;
    }
    for (const position of rowBacked) {
      const row = this.sql(
        `SELECT owner, retry_count FROM persistent_subscription_events
         WHERE group_name = ? AND position = ? AND state = 'inflight'`,
      ).get(group, position) as { owner: string | null; retry_count: number } | undefined;
      if (!row || row.owner !== this.owner || (retryCount !== null && row.retry_count !== retryCount)) continue;
      if (how.action === 'retry') {
        this.sql(
          `UPDATE persistent_subscription_events
           SET state = 'retry', retry_count = retry_count + 1, owner = NULL, reason = ?, updated_at = ?
           WHERE group_name = ? AND position = ?`,
        ).run(how.reason, now, group, position);
      } else {
        this.sql(
          `UPDATE persistent_subscription_events SET state = 'parked', owner = NULL, reason = ?, updated_at = ?
           WHERE group_name = ? AND position = ?`,
        ).run(how.reason, now, group, position);
      }
    }
  }

  /** Records a claim range of these (ascending) positions, all held. */
  addRun(group: string, positions: number[], effects: Effects): void {
    this.sql('INSERT INTO persistent_subscription_claims (group_name, first, last, owner) VALUES (?, ?, ?, ?)').run(
      group,
      positions[0],
      positions[positions.length - 1],
      this.owner,
    );
    effects.push(() => {
      const run: Run = { group, positions };
      let runs = this.runs.get(group);
      if (!runs) this.runs.set(group, (runs = new Map()));
      for (const position of positions) runs.set(position, run);
    });
  }

  /**
   * Takes `settling` out of `run`: its range row is replaced by one per run of events still held.
   * False when the row is no longer this instance's (another one joined the group and took it).
   */
  private releaseRun(run: Run, settling: readonly number[], effects: Effects): boolean {
    effects.push(() => {
      const runs = this.runs.get(run.group);
      for (const position of run.positions) if (runs?.get(position) === run) runs.delete(position);
    });
    const removed = this.sql('DELETE FROM persistent_subscription_claims WHERE group_name = ? AND first = ? AND owner = ?').run(
      run.group,
      run.positions[0],
      this.owner,
    );
    if (Number(removed.changes) === 0) return false;
    const settled = new Set(settling);
    let pending: number[] = [];
    for (const position of run.positions) {
      if (!settled.has(position)) pending.push(position);
      else if (pending.length > 0) {
        this.addRun(run.group, pending, effects);
        pending = [];
      }
    }
    if (pending.length > 0) this.addRun(run.group, pending, effects);
    return true;
  }

  private sql(text: string): StatementSync {
    return this.store.prepared(text);
  }
}
