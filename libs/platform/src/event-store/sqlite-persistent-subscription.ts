// Persistent (competing-consumer) subscription groups for the SQLite event store.
//
// Per group: `checkpoint` (every event at or below it is settled) and `read_position` (how far
// the log was scanned for the group's filter). Events handed out beyond the checkpoint get a row
// in `persistent_subscription_events` (inflight | retry | acked | parked); acked rows are dropped
// once the checkpoint passes them, parked rows are kept as the group's parked list.
//
// Claims run inside BEGIN IMMEDIATE, so two consumers never claim the same event. An inflight row
// names the store instance (`owner`) holding it; a new instance joining the group takes back rows
// of earlier ones (crash, restart). So two *live* processes on one group get at-least-once.
import { randomUUID } from 'node:crypto';

import { immediateTransaction } from '../sqlite/sqlite-database';
import {
  type EventFilter,
  type NackAction,
  type PersistentSubscription,
  type PersistentSubscriptionEvent,
  type PersistentSubscriptionOptions,
  type RecordedEvent,
} from './event-store.port';
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
`;

type GroupRow = { checkpoint: number; read_position: number };
type RetryRow = { position: number; retry_count: number };
type Claimed = { event: RecordedEvent; retryCount: number };

export class SqlitePersistentSubscriptions {
  /** Identifies this store instance as the holder of inflight events. */
  private readonly owner = randomUUID();

  constructor(private readonly store: SqliteEventStore) {
    store.db.exec(SCHEMA);
  }

  subscribe(group: string, options: PersistentSubscriptionOptions): PersistentSubscription {
    // Created now, not on the first pull, so `startFrom: 'end'` means "the end when subscribing".
    this.join(group, options.startFrom ?? 'start');
    const bufferSize = Math.max(1, options.bufferSize ?? 10);
    const held = new Set<number>();
    const store = this.store;
    const groups = this;
    let open = true;
    return {
      async *[Symbol.asyncIterator]() {
        while (open && !store.isClosed) {
          const claimed = held.size < bufferSize ? groups.claim(group, options.filter) : undefined;
          if (!claimed) {
            await store.idle();
            continue;
          }
          const { position } = claimed.event;
          held.add(position);
          yield groups.handle(group, claimed, () => held.delete(position));
        }
      },
      async close() {
        if (!open) return;
        open = false;
        // Hand back what this consumer holds so a competing consumer gets it now, not on restart.
        if (!store.isClosed && held.size > 0) {
          immediateTransaction(store.db, () => groups.retry(group, [...held], 'consumer closed'));
        }
        held.clear();
        store.notifier.notify();
      },
    };
  }

  async parked(group: string): Promise<RecordedEvent[]> {
    this.assertOpen();
    const rows = this.store.db
      .prepare(
        `SELECT position FROM persistent_subscription_events
         WHERE group_name = ? AND state = 'parked' ORDER BY position`,
      )
      .all(group) as { position: number }[];
    return rows.flatMap((row) => this.eventAt(row.position) ?? []);
  }

  private join(group: string, startFrom: 'start' | 'end'): void {
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
    });
  }

  /** Takes the oldest event to retry, else the next unread event matching the filter. */
  private claim(group: string, filter: EventFilter | undefined): Claimed | undefined {
    const db = this.store.db;
    // Most polls find nothing: look without taking the write lock the CLI may be waiting for.
    if (!this.retryRow(group) && this.store.headPositionSync() <= this.group(group).read_position) return undefined;
    return immediateTransaction(db, () => {
      const now = new Date().toISOString();
      const retry = this.retryRow(group);
      if (retry) {
        db.prepare(
          `UPDATE persistent_subscription_events SET state = 'inflight', owner = ?, updated_at = ?
           WHERE group_name = ? AND position = ?`,
        ).run(this.owner, now, group, retry.position);
        const event = this.eventAt(retry.position);
        if (event) return { event, retryCount: retry.retry_count };
        // The event row vanished (a truncated log): drop it rather than retry forever.
        const drop = 'DELETE FROM persistent_subscription_events WHERE group_name = ? AND position = ?';
        db.prepare(drop).run(group, retry.position);
        this.advanceCheckpoint(group);
        return undefined;
      }
      const { read_position } = this.group(group);
      // Read the head first: when nothing after read_position matches, the scan may skip to it.
      const head = this.store.headPositionSync();
      const [event] = this.store.readAllSync(read_position, 1, filter);
      const scanned = event ? event.position : head;
      if (scanned <= read_position) return undefined;
      db.prepare('UPDATE persistent_subscription_groups SET read_position = ? WHERE group_name = ?').run(scanned, group);
      if (!event) {
        this.advanceCheckpoint(group);
        return undefined;
      }
      db.prepare(
        `INSERT INTO persistent_subscription_events (group_name, position, state, retry_count, owner, updated_at)
         VALUES (?, ?, 'inflight', 0, ?, ?)`,
      ).run(group, event.position, this.owner, now);
      return { event, retryCount: 0 };
    });
  }

  private retryRow(group: string): RetryRow | undefined {
    return this.store.db
      .prepare(
        `SELECT position, retry_count FROM persistent_subscription_events
         WHERE group_name = ? AND state = 'retry' ORDER BY position LIMIT 1`,
      )
      .get(group) as RetryRow | undefined;
  }

  private handle(group: string, claimed: Claimed, done: () => void): PersistentSubscriptionEvent {
    const { position } = claimed.event;
    const settle = (apply: () => void): void => {
      this.assertOpen();
      immediateTransaction(this.store.db, apply);
      done();
      // Wakes consumers waiting on a full buffer or for a retried event.
      this.store.notifier.notify();
    };
    return {
      event: claimed.event,
      retryCount: claimed.retryCount,
      ack: async () =>
        settle(() => {
          // Also from a consumer whose event was handed back meanwhile: the work is done.
          this.store.db
            .prepare(
              `UPDATE persistent_subscription_events SET state = 'acked', owner = NULL, updated_at = ?
               WHERE group_name = ? AND position = ? AND state IN ('inflight', 'retry')`,
            )
            .run(new Date().toISOString(), group, position);
          this.advanceCheckpoint(group);
        }),
      nack: async (action: NackAction, reason: string) =>
        settle(() => {
          // Only the current holder may nack: a stale handle must not undo someone else's claim.
          const row = this.store.db
            .prepare(
              `SELECT owner, retry_count FROM persistent_subscription_events
               WHERE group_name = ? AND position = ? AND state = 'inflight'`,
            )
            .get(group, position) as { owner: string | null; retry_count: number } | undefined;
          if (!row || row.owner !== this.owner || row.retry_count !== claimed.retryCount) return;
          if (action === 'retry') this.retry(group, [position], reason);
          else {
            this.store.db
              .prepare(
                `UPDATE persistent_subscription_events SET state = 'parked', owner = NULL, reason = ?, updated_at = ?
                 WHERE group_name = ? AND position = ?`,
              )
              .run(reason, new Date().toISOString(), group, position);
          }
          this.advanceCheckpoint(group);
        }),
    };
  }

  private retry(group: string, positions: number[], reason: string): void {
    const stmt = this.store.db.prepare(
      `UPDATE persistent_subscription_events
       SET state = 'retry', retry_count = retry_count + 1, owner = NULL, reason = ?, updated_at = ?
       WHERE group_name = ? AND position = ? AND state = 'inflight' AND owner = ?`,
    );
    const now = new Date().toISOString();
    for (const position of positions) stmt.run(reason, now, group, position, this.owner);
  }

  /** Moves the checkpoint up to just below the oldest unsettled event (or the scan position). */
  private advanceCheckpoint(group: string): void {
    const db = this.store.db;
    const { checkpoint, read_position } = this.group(group);
    const oldest = db
      .prepare(
        `SELECT min(position) AS position FROM persistent_subscription_events
         WHERE group_name = ? AND state IN ('inflight', 'retry')`,
      )
      .get(group) as { position: number | null };
    const next = oldest.position === null ? read_position : oldest.position - 1;
    if (next <= checkpoint) return;
    db.prepare('UPDATE persistent_subscription_groups SET checkpoint = ? WHERE group_name = ?').run(next, group);
    db.prepare(
      `DELETE FROM persistent_subscription_events WHERE group_name = ? AND state = 'acked' AND position <= ?`,
    ).run(group, next);
  }

  private eventAt(position: number): RecordedEvent | undefined {
    const [event] = this.store.readAllSync(position - 1, 1);
    return event?.position === position ? event : undefined;
  }

  private group(group: string): GroupRow {
    const row = this.store.db
      .prepare('SELECT checkpoint, read_position FROM persistent_subscription_groups WHERE group_name = ?')
      .get(group) as GroupRow | undefined;
    if (!row) throw new Error(`Persistent subscription group ${group} does not exist`);
    return row;
  }

  private assertOpen(): void {
    if (this.store.isClosed) throw new Error('The event store is closed');
  }
}
