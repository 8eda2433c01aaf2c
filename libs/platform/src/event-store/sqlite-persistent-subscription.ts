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
import type { StatementSync } from 'node:sqlite';

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
`;

type GroupRow = { checkpoint: number; read_position: number };
type RetryRow = { position: number; retry_count: number };
type Claimed = { event: RecordedEvent; retryCount: number };
type Ack = { group: string; position: number; done: () => void };

export class SqlitePersistentSubscriptions {
  /** Identifies this store instance as the holder of inflight events. */
  private readonly owner = randomUUID();
  /** Acks are committed together, once per turn of the event loop (see ack). */
  private readonly acks = new TurnBatcher<Ack, void>((acks) => this.commitAcks(acks));

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
        // Claimed in one transaction, as many as the buffer has room for; handed out one by one.
        const claimed: Claimed[] = [];
        while (open && !store.isClosed) {
          if (claimed.length === 0) {
            const room = bufferSize - held.size;
            if (room > 0) claimed.push(...groups.claim(group, options.filter, room));
            if (claimed.length === 0) {
              await store.idle();
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
    const rows = this.sql(
      `SELECT position FROM persistent_subscription_events
       WHERE group_name = ? AND state = 'parked' ORDER BY position`,
    ).all(group) as { position: number }[];
    return rows.flatMap((row) => this.store.eventAtSync(row.position) ?? []);
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

  /** Takes up to `count` events: the oldest to retry first, then the next unread ones matching the filter. */
  private claim(group: string, filter: EventFilter | undefined, count: number): Claimed[] {
    // Most polls find nothing: look without taking the write lock the CLI may be waiting for.
    if (!this.retryRows(group, 1)[0] && this.store.headPositionSync() <= this.group(group).read_position) return [];
    return immediateTransaction(this.store.db, () => {
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
      if (wanted === 0) return claimed;
      const { read_position } = this.group(group);
      // Read the head first: when fewer than wanted match after read_position, the scan may skip to it.
      const head = this.store.headPositionSync();
      const events = this.store.readAllSync(read_position, wanted, filter);
      const scanned = events.length === wanted ? events[events.length - 1].position : head;
      if (scanned > read_position) {
        this.sql('UPDATE persistent_subscription_groups SET read_position = ? WHERE group_name = ?').run(scanned, group);
      }
      const insert = this.sql(
        `INSERT INTO persistent_subscription_events (group_name, position, state, retry_count, owner, updated_at)
         VALUES (?, ?, 'inflight', 0, ?, ?)`,
      );
      for (const event of events) {
        insert.run(group, event.position, this.owner, now);
        claimed.push({ event, retryCount: 0 });
      }
      if (claimed.length === 0) this.advanceCheckpoint(group);
      return claimed;
    });
  }

  private retryRows(group: string, limit: number): RetryRow[] {
    return this.sql(
      `SELECT position, retry_count FROM persistent_subscription_events
       WHERE group_name = ? AND state = 'retry' ORDER BY position LIMIT ?`,
    ).all(group, limit) as RetryRow[];
  }

  private handle(group: string, claimed: Claimed, done: () => void): PersistentSubscriptionEvent {
    const { position } = claimed.event;
    return {
      event: claimed.event,
      retryCount: claimed.retryCount,
      ack: () => this.ack(group, position, done),
      nack: async (action: NackAction, reason: string) => {
        this.assertOpen();
        immediateTransaction(this.store.db, () => {
          // Only the current holder may nack: a stale handle must not undo someone else's claim.
          const row = this.sql(
            `SELECT owner, retry_count FROM persistent_subscription_events
             WHERE group_name = ? AND position = ? AND state = 'inflight'`,
          ).get(group, position) as { owner: string | null; retry_count: number } | undefined;
          if (!row || row.owner !== this.owner || row.retry_count !== claimed.retryCount) return;
          if (action === 'retry') this.retry(group, [position], reason);
          else {
            this.sql(
              `UPDATE persistent_subscription_events SET state = 'parked', owner = NULL, reason = ?, updated_at = ?
               WHERE group_name = ? AND position = ?`,
            ).run(reason, new Date().toISOString(), group, position);
          }
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
    immediateTransaction(this.store.db, () => {
      const now = new Date().toISOString();
      // Also from a consumer whose event was handed back meanwhile: the work is done.
      const update = this.sql(
        `UPDATE persistent_subscription_events SET state = 'acked', owner = NULL, updated_at = ?
         WHERE group_name = ? AND position = ? AND state IN ('inflight', 'retry')`,
      );
      for (const { group, position } of acks) update.run(now, group, position);
      for (const group of new Set(acks.map((a) => a.group))) this.advanceCheckpoint(group);
    });
    this.settled(acks.map((a) => a.done));
    return acks.map(() => ({ ok: true, value: undefined }));
  }

  /** Frees the consumers' buffer slots and wakes those waiting on a full buffer or a retried event. */
  private settled(done: Array<() => void>): void {
    for (const fn of done) fn();
    this.store.notifier.notify();
  }

  private retry(group: string, positions: number[], reason: string): void {
    const stmt = this.sql(
      `UPDATE persistent_subscription_events
       SET state = 'retry', retry_count = retry_count + 1, owner = NULL, reason = ?, updated_at = ?
       WHERE group_name = ? AND position = ? AND state = 'inflight' AND owner = ?`,
    );
    const now = new Date().toISOString();
    for (const position of positions) stmt.run(reason, now, group, position, this.owner);
  }

  /** Moves the checkpoint up to just below the oldest unsettled event (or the scan position). */
  private advanceCheckpoint(group: string): void {
    const { checkpoint, read_position } = this.group(group);
    const oldest = this.sql(
      `SELECT min(position) AS position FROM persistent_subscription_events
       WHERE group_name = ? AND state IN ('inflight', 'retry')`,
    ).get(group) as { position: number | null };
    const next = oldest.position === null ? read_position : oldest.position - 1;
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
