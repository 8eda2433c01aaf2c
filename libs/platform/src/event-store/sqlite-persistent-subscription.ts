// Persistent (competing-consumer) subscription groups for the SQLite event store.
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
//   deletes an inflight or retry row. (Older versions also kept `acked` rows until the checkpoint
//   passed them; they still read as settled.)
//
// Events the consumer skips (options.skip: it would only ack them) are settled by the scan moving
// past them: no range, no row. A scan that skips all it read takes no write lock at all — it moves
// this instance's cursor, and the group's read position follows at the next transaction or within
// FLUSH_MS — so a consumer that has nothing to do for most events writes nothing for them. A crash
// before that write only means those events are scanned (and skipped) again.
//
// Claims run inside BEGIN IMMEDIATE, so two consumers never claim the same event. A held event
// names the store instance (`owner`) holding it; a new instance joining the group takes back
// ranges and rows of earlier ones (crash, restart): their events come back with retryCount + 1.
// So two *live* processes on one group get at-least-once.
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';

import { immediateTransaction } from '../sqlite/sqlite-database';
import { limitClause } from '../sqlite/statement-cache';
import {
  type EventFilter,
  type NackAction,
  type PersistentSubscription,
  type PersistentSubscriptionEvent,
  type PersistentSubscriptionOptions,
  type RecordedEvent,
} from './event-store.port';
import type { SqliteEventStore } from './sqlite-event-store';
import { type Outcome, TurnBatcher } from './turn-batcher';

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

/** How long a scan position reached by skipping alone may stay in memory before it is written. */
const FLUSH_MS = 200;

type GroupRow = { checkpoint: number; read_position: number };
/** What a claim found: the events handed out, and whether the log holds more to scan right away. */
type Claim = { claimed: Claimed[]; more: boolean };
/** A scan made before taking the write lock: reused by the claim when nobody moved the group meanwhile. */
type Scan = { from: number; events: RecordedEvent[]; skips: readonly boolean[]; scanned: number };
type RetryRow = { position: number; retry_count: number };
type Claimed = { event: RecordedEvent; retryCount: number };
type Ack = { group: string; position: number; done: () => void };
/** What settles a held event: an ack, or a nack that hands it out again or parks it. */
type Settlement = { action: 'ack' } | { action: 'retry' | 'park'; reason: string };
/** Changes to the ranges held in memory, made once their transaction has committed. */
type Effects = Array<() => void>;

/**
 * A claim range of this instance: the events of it still held, in log order. Its row is
 * (group, positions[0], positions.at(-1), owner). Settling any of them replaces it.
 */
interface Run {
  group: string;
  positions: number[];
}

export class SqlitePersistentSubscriptions {
  /** Identifies this store instance as the holder of inflight events. */
  private readonly owner = randomUUID();
  /** Acks are committed together, once per turn of the event loop (see ack). */
  private readonly acks = new TurnBatcher<Ack, void>((acks) => this.commitAcks(acks));
  /** Per group: each held event of a claim range of this instance → its range. */
  private readonly runs = new Map<string, Map<number, Run>>();
  /** Per group: how far this instance scanned, when skipping took it past the stored read position. */
  private readonly cursors = new Map<string, number>();
  private readonly flushes = new Map<string, NodeJS.Timeout>();

  constructor(private readonly store: SqliteEventStore) {
    store.db.exec(SCHEMA);
  }

  subscribe(group: string, options: PersistentSubscriptionOptions): PersistentSubscription {
    // Created now, not on the first pull, so `startFrom: 'end'` means "the end when subscribing".
    this.join(group, options.startFrom ?? 'start', options.filter);
    const bufferSize = Math.max(1, options.bufferSize ?? 10);
    const held = new Set<number>();
    const store = this.store;
    const groups = this;
    let open = true;
    return {
      async *[Symbol.asyncIterator]() {
        // Claimed in one transaction, as many as the buffer has room for; handed out one by one.
        const claimed: Claimed[] = [];
        while (open && !store.isClosed) {
          if (claimed.length === 0) {
            const room = bufferSize - held.size;
            const found = room > 0 ? groups.claim(group, options, room) : { claimed: [], more: false };
            claimed.push(...found.claimed);
            if (claimed.length === 0) {
              // Skipped all it read and more is there: go on, letting other work in between.
              if (found.more) await new Promise((resolve) => setImmediate(resolve));
              else await store.idle();
              continue;
            }
            for (const c of claimed) held.add(c.event.position);
          }
          const next = claimed.shift() as Claimed;
          const { position } = next.event;
          yield groups.handle(group, next, () => held.delete(position));
        }
      },
      async close() {
        if (!open) return;
        open = false;
        // Hand back what this consumer holds so a competing consumer gets it now, not on restart.
        if (!store.isClosed && (held.size > 0 || groups.hasCursor(group))) {
          groups.transaction((effects) => {
            groups.settle(group, [...held], { action: 'retry', reason: 'consumer closed' }, null, effects);
            groups.advanceCheckpoint(group);
          });
        }
        held.clear();
        store.notifier.notify();
      },
    };
  }

  async parked(group: string): Promise<RecordedEvent[]> {
    this.assertOpen();
    const rows = this.sql(
      `SELECT position FROM persistent_subscription_events
       WHERE group_name = ? AND state = 'parked' ORDER BY position`,
    ).all(group) as { position: number }[];
    return rows.flatMap((row) => this.store.eventAtSync(row.position) ?? []);
  }

  private join(group: string, startFrom: 'start' | 'end', filter: EventFilter | undefined): void {
    this.assertOpen();
    const db = this.store.db;
    immediateTransaction(db, () => {
      const start = startFrom === 'end' ? this.store.headPositionSync() : 0;
      const now = new Date().toISOString();
      db.prepare(
        `INSERT OR IGNORE INTO persistent_subscription_groups (group_name, checkpoint, read_position, created_at)
         VALUES (?, ?, ?, ?)`,
      ).run(group, start, start, now);
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
    });
  }

  /**
   * Takes up to `count` events: the oldest to retry first, then the next unread ones matching the
   * filter that the consumer does not skip.
   */
  private claim(group: string, options: PersistentSubscriptionOptions, count: number): Claim {
    const { filter, skip } = options;
    // Most polls find nothing: look without taking the write lock the CLI may be waiting for.
    const retrying = this.retryRows(group, 1).length > 0;
    const from = this.scanFrom(group, this.group(group).read_position);
    const head = this.store.headPositionSync();
    if (!retrying && head <= from) return { claimed: [], more: false };
    let scan: Scan | undefined;
    if (!retrying && skip) {
      scan = this.scan(from, head, count, filter, skip);
      if (scan.skips.every(Boolean) && scan.skips.length === scan.events.length) {
        // Nothing to hand out: no write now (see FLUSH_MS).
        if (scan.scanned > from) {
          this.cursors.set(group, scan.scanned);
          this.scheduleFlush(group);
        }
        return { claimed: [], more: scan.scanned < this.store.headPositionSync() };
      }
    }
    return this.transaction((effects) => {
      const now = new Date().toISOString();
      const claimed: Claimed[] = [];
      for (const retry of this.retryRows(group, count)) {
        this.sql(
          `UPDATE persistent_subscription_events SET state = 'inflight', owner = ?, updated_at = ?
           WHERE group_name = ? AND position = ?`,
        ).run(this.owner, now, group, retry.position);
        const event = this.store.eventAtSync(retry.position);
        if (event) claimed.push({ event, retryCount: retry.retry_count });
        // The event row vanished (a truncated log): drop it rather than retry forever.
        else this.sql('DELETE FROM persistent_subscription_events WHERE group_name = ? AND position = ?').run(group, retry.position);
      }
      const wanted = count - claimed.length;
      if (wanted === 0) return { claimed, more: true };
      const { read_position } = this.group(group);
      const start = this.scanFrom(group, read_position);
      // The scan made before the lock still holds when nobody moved the group since.
      const { events, skips, scanned } =
        scan && scan.from === start && wanted === count ? scan : this.scan(start, this.store.headPositionSync(), wanted, filter, skip);
      if (scanned > read_position) {
        this.sql('UPDATE persistent_subscription_groups SET read_position = ? WHERE group_name = ?').run(scanned, group);
      }
      this.cursors.delete(group);
      const handedOut = events.filter((_, i) => skips[i] !== true);
      if (handedOut.length > 0) {
        // One range for all of them; the run in memory says which are still held.
        this.addRun(group, handedOut.map((e) => e.position), effects);
        for (const event of handedOut) claimed.push({ event, retryCount: 0 });
      }
      if (claimed.length === 0) this.advanceCheckpoint(group);
      return { claimed, more: claimed.length === 0 && scanned < this.store.headPositionSync() };
    });
  }

  private hasCursor(group: string): boolean {
    return this.cursors.has(group);
  }

  /** Where this instance's next scan starts: the stored read position, or its cursor when ahead. */
  private scanFrom(group: string, readPosition: number): number {
    return Math.max(readPosition, this.cursors.get(group) ?? 0);
  }

  /**
   * Reads up to `count` events of the filter after `from` (`head` read first: when fewer match,
   * the scan reached it) and asks the consumer which it skips.
   */
  private scan(from: number, head: number, count: number, filter: EventFilter | undefined, skip: PersistentSubscriptionOptions['skip']): Scan {
    let events = this.store.readAllSync(from, count, filter);
    const scanned = events.length === count ? events[events.length - 1].position : Math.max(from, head);
    // Outside a transaction another process may have appended since `head` was read: those are the next scan's.
    if (events.length > 0 && events[events.length - 1].position > scanned) events = events.filter((e) => e.position <= scanned);
    let skips: readonly boolean[] = [];
    try {
      if (skip && events.length > 0) skips = skip(events, { after: from, upTo: scanned });
    } catch {
      skips = []; // a consumer that cannot tell gets every event handed out
    }
    return { from, events, skips, scanned };
  }

  /** Writes a cursor moved by skipping alone soon, so a restart rescans little. */
  private scheduleFlush(group: string): void {
    if (this.flushes.has(group)) return;
    const timer = setTimeout(() => {
      this.flushes.delete(group);
      if (this.store.isClosed || !this.cursors.has(group)) return;
      try {
        this.transaction(() => this.advanceCheckpoint(group));
      } catch {
        this.scheduleFlush(group); // busy or failing storage: the next claim, ack or try writes it
      }
    }, FLUSH_MS);
    timer.unref();
    this.flushes.set(group, timer);
  }

  private retryRows(group: string, limit: number): RetryRow[] {
    return this.sql(
      `SELECT position, retry_count FROM persistent_subscription_events
       WHERE group_name = ? AND state = 'retry' ORDER BY position ${limitClause(limit)}`,
    ).all(group) as RetryRow[];
  }

  private handle(group: string, claimed: Claimed, done: () => void): PersistentSubscriptionEvent {
    const { position } = claimed.event;
    return {
      event: claimed.event,
      retryCount: claimed.retryCount,
      ack: () => this.ack(group, position, done),
      nack: async (action: NackAction, reason: string) => {
        this.assertOpen();
        this.transaction((effects) => {
          this.settle(group, [position], { action, reason }, claimed.retryCount, effects);
          this.advanceCheckpoint(group);
        });
        this.settled([done]);
      },
    };
  }

  /**
   * Acks are written together, once per turn of the event loop: a consumer working on many events
   * at once pays one transaction for all their acks. Each ack resolves once it is committed.
   */
  private ack(group: string, position: number, done: () => void): Promise<void> {
    if (this.store.isClosed) return Promise.reject(new Error('The event store is closed'));
    return this.acks.add({ group, position, done });
  }

  private commitAcks(acks: Ack[]): Outcome<void>[] {
    this.assertOpen();
    const byGroup = new Map<string, number[]>();
    for (const { group, position } of acks) {
      const positions = byGroup.get(group);
      if (positions) positions.push(position);
      else byGroup.set(group, [position]);
    }
    this.transaction((effects) => {
      for (const [group, positions] of byGroup) {
        this.settle(group, positions, { action: 'ack' }, null, effects);
        this.advanceCheckpoint(group);
      }
    });
    this.settled(acks.map((a) => a.done));
    return acks.map(() => ({ ok: true, value: undefined }));
  }

  /** Frees the consumers' buffer slots and wakes those waiting on a full buffer or a retried event. */
  private settled(done: Array<() => void>): void {
    for (const fn of done) fn();
    this.store.notifier.notify();
  }

  /**
   * Settles events this instance handed out (inside a transaction). Events of its claim ranges
   * leave them — each range touched is rewritten as the runs of events it still holds — and, for a
   * nack, get a row (to retry, or parked). Other events have a row: an ack deletes it (also when
   * the event was handed back meanwhile: the work is done); a nack applies only to this holder's
   * row as it was handed out (`retryCount`; null for any), so a stale handle undoes no one's claim.
   */
  private settle(group: string, positions: readonly number[], how: Settlement, retryCount: number | null, effects: Effects): void {
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

  /**
   * Runs `fn` in an immediate transaction, then — once committed — the changes it queued to this
   * instance's ranges in memory, so a transaction rolled back leaves them as the database has them.
   */
  private transaction<R>(fn: (effects: Effects) => R): R {
    const effects: Effects = [];
    const result = immediateTransaction(this.store.db, () => fn(effects));
    for (const effect of effects) effect();
    return result;
  }

  /** Records a claim range of these (ascending) positions, all held. */
  private addRun(group: string, positions: number[], effects: Effects): void {
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

  /** Moves the checkpoint up to just below the oldest unsettled event (or the scan position). */
  private advanceCheckpoint(group: string): void {
    const stored = this.group(group);
    const { checkpoint } = stored;
    // The scan position skipping took this instance to, written now.
    const read_position = this.scanFrom(group, stored.read_position);
    if (read_position > stored.read_position) {
      this.sql('UPDATE persistent_subscription_groups SET read_position = ? WHERE group_name = ?').run(read_position, group);
    }
    // (Forgotten even if this transaction rolls back: then those events are only scanned again.)
    this.cursors.delete(group);
    const oldest = this.sql(
      `SELECT min(position) AS position FROM persistent_subscription_events
       WHERE group_name = ? AND state IN ('inflight', 'retry')`,
    ).get(group) as { position: number | null };
    const claim = this.sql('SELECT min(first) AS position FROM persistent_subscription_claims WHERE group_name = ?').get(group) as {
      position: number | null;
    };
    const held = [oldest.position, claim.position].filter((p): p is number => p !== null);
    const next = held.length === 0 ? read_position : Math.min(...held) - 1;
    if (next <= checkpoint) return;
    this.sql('UPDATE persistent_subscription_groups SET checkpoint = ? WHERE group_name = ?').run(next, group);
    this.sql(`DELETE FROM persistent_subscription_events WHERE group_name = ? AND state = 'acked' AND position <= ?`).run(group, next);
  }

  private group(group: string): GroupRow {
    const row = this.sql('SELECT checkpoint, read_position FROM persistent_subscription_groups WHERE group_name = ?').get(group) as
      | GroupRow
      | undefined;
    if (!row) throw new Error(`Persistent subscription group ${group} does not exist`);
    return row;
  }

  private sql(text: string): StatementSync {
    return this.store.prepared(text);
  }

  private assertOpen(): void {
    if (this.store.isClosed) throw new Error('The event store is closed');
  }
}
