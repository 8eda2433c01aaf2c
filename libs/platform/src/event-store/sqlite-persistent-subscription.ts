// Persistent (competing-consumer) subscription groups for the SQLite event store: which events a
// consumer is handed, when, and how the group's checkpoint follows. What a group holds and how a
// held event is settled is SubscriptionHolds' (sqlite-subscription-holds.ts).
//
// Events the consumer skips (options.skip: it would only ack them) are settled by the scan moving
// past them: no range, no row. A scan that skips all it read takes no write lock at all — it moves
// this instance's cursor (ScanCursors), and the group's read position follows at the next
// transaction or soon after — so a consumer that has nothing to do for most events writes nothing
// for them.
//
// Claims run inside BEGIN IMMEDIATE, so two consumers never claim the same event. A new instance
// joining the group takes back what earlier ones held (crash, restart): their events come back
// with retryCount + 1. So two *live* processes on one group get at-least-once.
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
import { ScanCursors } from './sqlite-scan-cursors';
import { type Effects, SubscriptionHolds } from './sqlite-subscription-holds';
import { type Outcome, TurnBatcher } from './turn-batcher';

type GroupRow = { checkpoint: number; read_position: number };
/** What a claim found: the events handed out, and whether the log holds more to scan right away. */
type Claim = { claimed: Claimed[]; more: boolean };
/** A scan made before taking the write lock: reused by the claim when nobody moved the group meanwhile. */
type Scan = { from: number; events: RecordedEvent[]; skips: readonly boolean[]; scanned: number };
type RetryRow = { position: number; retry_count: number };
type Claimed = { event: RecordedEvent; retryCount: number };
type Ack = { group: string; position: number; done: () => void };
export class SqlitePersistentSubscriptions {
  /** What the groups hold, held by this store instance (a new identity per instance). */
  private readonly holds: SubscriptionHolds;
  /** Acks are committed together, once per turn of the event loop (see ack). */
  private readonly acks = new TurnBatcher<Ack, void>((acks) => this.commitAcks(acks));
  /** Per group: how far this instance scanned, when skipping took it past the stored read position. */
  private readonly cursors: ScanCursors;

  constructor(private readonly store: SqliteEventStore) {
    this.holds = new SubscriptionHolds(store, randomUUID());
    this.cursors = new ScanCursors(
      (group) => this.transaction(() => this.advanceCheckpoint(group)),
      () => store.isClosed,
    );
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
        if (!store.isClosed && (held.size > 0 || groups.cursors.has(group))) {
          groups.transaction((effects) => {
            groups.holds.settle(group, [...held], { action: 'retry', reason: 'consumer closed' }, null, effects);
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
      this.holds.takeBack(group, filter, now);
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
    const from = this.cursors.from(group, this.group(group).read_position);
    const head = this.store.headPositionSync();
    if (!retrying && head <= from) return { claimed: [], more: false };
    let scan: Scan | undefined;
    if (!retrying && skip) {
      scan = this.scan(from, head, count, filter, skip);
      if (scan.skips.every(Boolean) && scan.skips.length === scan.events.length) {
        // Nothing to hand out: no write now (see ScanCursors).
        if (scan.scanned > from) this.cursors.advance(group, scan.scanned);
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
        ).run(this.holds.owner, now, group, retry.position);
        const event = this.store.eventAtSync(retry.position);
        if (event) claimed.push({ event, retryCount: retry.retry_count });
        // The event row vanished (a truncated log): drop it rather than retry forever.
        else this.sql('DELETE FROM persistent_subscription_events WHERE group_name = ? AND position = ?').run(group, retry.position);
      }
      const wanted = count - claimed.length;
      if (wanted === 0) return { claimed, more: true };
      const { read_position } = this.group(group);
      const start = this.cursors.from(group, read_position);
      // The scan made before the lock still holds when nobody moved the group since.
      const { events, skips, scanned } =
        scan && scan.from === start && wanted === count ? scan : this.scan(start, this.store.headPositionSync(), wanted, filter, skip);
      if (scanned > read_position) {
        this.sql('UPDATE persistent_subscription_groups SET read_position = ? WHERE group_name = ?').run(scanned, group);
      }
      this.cursors.forget(group);
      const handedOut = events.filter((_, i) => skips[i] !== true);
      if (handedOut.length > 0) {
        // One range for all of them; the run in memory says which are still held.
        this.holds.addRun(group, handedOut.map((e) => e.position), effects);
        for (const event of handedOut) claimed.push({ event, retryCount: 0 });
      }
      if (claimed.length === 0) this.advanceCheckpoint(group);
      return { claimed, more: claimed.length === 0 && scanned < this.store.headPositionSync() };
    });
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
          this.holds.settle(group, [position], { action, reason }, claimed.retryCount, effects);
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
        this.holds.settle(group, positions, { action: 'ack' }, null, effects);
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
   * Runs `fn` in an immediate transaction, then — once committed — the changes it queued to this
   * instance's ranges in memory, so a transaction rolled back leaves them as the database has them.
   */
  private transaction<R>(fn: (effects: Effects) => R): R {
    const effects: Effects = [];
    const result = immediateTransaction(this.store.db, () => fn(effects));
    for (const effect of effects) effect();
    return result;
  }

  /** Moves the checkpoint up to just below the oldest unsettled event (or the scan position). */
  private advanceCheckpoint(group: string): void {
    const stored = this.group(group);
    const { checkpoint } = stored;
    // The scan position skipping took this instance to, written now.
    const read_position = this.cursors.from(group, stored.read_position);
    if (read_position > stored.read_position) {
      this.sql('UPDATE persistent_subscription_groups SET read_position = ? WHERE group_name = ?').run(read_position, group);
    }
    // (Forgotten even if this transaction rolls back: then those events are only scanned again.)
    this.cursors.forget(group);
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
