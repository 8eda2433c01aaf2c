// The embedded EventStore adapter: one append-only table in a node:sqlite file (WAL). The table,
// its rows and the SQL of a read are sqlite-event-rows.ts's; this is the store: appends in
// immediate transactions, the parsed tail shared by this process's readers, subscriptions.

import type { DatabaseSync, StatementSync } from 'node:sqlite';

import { immediateTransaction, openSqlite, type SqliteOptions, storageFaults } from '../sqlite/sqlite-database';
import { guardedRead } from '../sqlite/storage-fault';
import { StatementCache } from '../sqlite/statement-cache';
import { WalCheckpointer } from '../sqlite/wal-checkpointer';
import { uuidv7 } from '../ids';
import { AppendNotifier } from './append-notifier';
import {
  type AppendOptions,
  type AppendResult,
  type EventFilter,
  type EventStore,
  type EventSubscription,
  type NewEvent,
  type PersistentSubscription,
  type PersistentSubscriptionOptions,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamWrite,
  type SubscribeOptions,
  WrongExpectedRevisionError,
} from './event-store.port';
import { assertExpected, EVENTS_SCHEMA, type EventRow, readAllQuery, toRecorded } from './sqlite-event-rows';
import { SqlitePersistentSubscriptions } from './sqlite-persistent-subscription';
import { matchesFilter, TailCache } from './tail-cache';

export { toRecorded } from './sqlite-event-rows';

export interface SqliteEventStoreOptions extends SqliteOptions {
  /** How often an idle subscription looks for appends made by other processes (default 100 ms). */
  pollIntervalMs?: number;
  /** Clock for `createdAt`; injectable for tests. */
  now?: () => Date;
}

/** How near the head a filtered read is served from one unfiltered read of the log's end (events). */
const TAIL_FILL_WINDOW = 2_000;

export class SqliteEventStore implements EventStore {
  readonly db: DatabaseSync;
  readonly notifier = new AppendNotifier();
  private readonly pollIntervalMs: number;
  private readonly now: () => Date;
  private readonly persistent: SqlitePersistentSubscriptions;
  private readonly stmt: {
    lastRevision: StatementSync;
    byId: StatementSync;
    insert: StatementSync;
    head: StatementSync;
  };
  private readonly statements: StatementCache;
  /** Position of the last event this instance appended (subscribers need not re-poll below it). */
  private lastLocalAppend = 0;
  /** The newest events, parsed once for every subscriber of this process (see TailCache). */
  private readonly tail = new TailCache();
  private closed = false;

  private readonly checkpointer: WalCheckpointer | null;

  constructor(
    readonly path: string,
    options: SqliteEventStoreOptions = {},
  ) {
    this.db = openSqlite(path, options);
    this.db.exec(EVENTS_SCHEMA);
    const every = options.backgroundCheckpointMs ?? 0;
    this.checkpointer = every > 0 && path !== ':memory:' ? new WalCheckpointer(path, every) : null;
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.now = options.now ?? (() => new Date());
    this.stmt = {
      lastRevision: this.db.prepare('SELECT max(revision) AS revision FROM events WHERE stream_id = ?'),
      byId: this.db.prepare('SELECT * FROM events WHERE id = ?'),
      insert: this.db.prepare(
        'INSERT INTO events (id, stream_id, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      head: this.db.prepare('SELECT coalesce(max(position), 0) AS position FROM events'),
    };
    this.statements = new StatementCache(this.db);
    this.persistent = new SqlitePersistentSubscriptions(this);
  }

  async append(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    return this.appendSync([{ streamId, events, expectedRevision: options.expectedRevision }])[0];
  }

  /** One immediate transaction for every write: all streams are appended, or none is. */
  async appendMany(writes: readonly StreamWrite[]): Promise<AppendResult[]> {
    return this.appendSync(writes);
  }

  private appendSync(writes: readonly StreamWrite[]): AppendResult[] {
    if (writes.length === 0) return [];
    for (const write of writes) if (write.events.length === 0) throw new Error('append needs at least one event');
    const createdAt = this.now().toISOString();
    const written: EventRow[] = [];
    const results = immediateTransaction(this.db, () =>
      writes.map((write) => {
        const first = written.length;
        return { ...this.appendInTransaction(write, createdAt, written), first, end: written.length };
      }),
    );
    // Committed: the newest events, as every reader would parse them, once.
    const recorded = written.map(toRecorded);
    this.tail.add(recorded);
    let fresh = false;
    for (const result of results) {
      if (!result.fresh) continue;
      fresh = true;
      if (result.position > this.lastLocalAppend) this.lastLocalAppend = result.position;
    }
    if (fresh) this.notifier.notify();
    return results.map(({ nextRevision, position, fresh: appended, first, end }) =>
      appended ? { nextRevision, position, recorded: recorded.slice(first, end) } : { nextRevision, position },
    );
  }

  private appendInTransaction({ streamId, events, expectedRevision }: StreamWrite, createdAt: string, written: EventRow[]) {
    const replay = this.existingAppend(streamId, events);
    if (replay) return replay;
    const row = this.stmt.lastRevision.get(streamId) as { revision: number | null };
    const actual = row.revision ?? 'no_stream';
    assertExpected(streamId, expectedRevision, actual);
    let revision = actual === 'no_stream' ? -1 : actual;
    let position = 0;
    for (const event of events) {
      revision += 1;
      const row = { id: event.id ?? uuidv7(), stream_id: streamId, revision, type: event.type, data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata), created_at: createdAt, position: 0 };
      const info = this.stmt.insert.run(row.id, streamId, revision, row.type, row.data, row.metadata, createdAt);
      position = Number(info.lastInsertRowid);
      row.position = position;
      written.push(row);
    }
    return { nextRevision: revision, position, fresh: true };
  }

  /** Idempotency: when these event ids were already appended to this stream, return that result. */
  private existingAppend(streamId: string, events: readonly NewEvent[]) {
    const firstId = events[0].id;
    if (!firstId) return undefined;
    const first = this.stmt.byId.get(firstId) as EventRow | undefined;
    if (!first) return undefined;
    let last = first;
    for (const [i, event] of events.entries()) {
      const row = event.id ? (this.stmt.byId.get(event.id) as EventRow | undefined) : undefined;
      if (!row || row.stream_id !== streamId || row.revision !== first.revision + i) {
        throw new WrongExpectedRevisionError(streamId, 'any', first.revision);
      }
      last = row;
    }
    return { nextRevision: last.revision, position: last.position, fresh: false };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const rows = guardedRead(
      this.path,
      () => this.prepared('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision').all(streamId, options.fromRevision ?? 0) as unknown[],
    );
    return rows.map((r) => toRecorded(r as EventRow));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.readAllSync(options.fromPosition ?? 0, options.limit ?? 1000, options.filter);
  }

  readAllSync(fromPosition: number, limit: number, filter?: EventFilter): RecordedEvent[] {
    let head: number | undefined;
    const headNow = (): number => (head ??= this.headPositionSync());
    const cached = this.tail.read(fromPosition, Math.max(1, Math.trunc(limit)), filter, headNow);
    if (cached) return cached;
    const filtered = Boolean(filter?.types || filter?.streamPrefixes);
    if (filtered && headNow() > fromPosition && headNow() - fromPosition <= TAIL_FILL_WINDOW) {
      // A filtered read near the head (a process manager, the dispatcher, the timers in a process
      // that did not append these events itself): read the whole end of the log once, so the
      // cache answers this process's other subscribers, and filter it here.
      const all = this.readAllSync(fromPosition, headNow() - fromPosition);
      const out: RecordedEvent[] = [];
      for (const event of all) {
        if (out.length >= limit) break;
        if (matchesFilter(event, filter)) out.push(event);
      }
      return out;
    }
    const query = readAllQuery(fromPosition, limit, filter);
    if (!query) return [];
    const rows = guardedRead(this.path, () => this.prepared(query.sql).all(...query.params) as unknown[]);
    const events = rows.map((r) => toRecorded(r as EventRow));
    // An unfiltered read is a contiguous run of the log: it may extend the cached tail.
    if (!filter?.types && !filter?.streamPrefixes) this.tail.add(events);
    return events;
  }

  /** The event at this position, if any. */
  eventAtSync(position: number): RecordedEvent | undefined {
    const cached = this.tail.at(position);
    if (cached) return cached;
    const row = guardedRead(this.path, () => this.prepared('SELECT * FROM events WHERE position = ?').get(position) as EventRow | undefined);
    return row ? toRecorded(row) : undefined;
  }

  /** Prepared once per distinct SQL text (the filters' shapes and the limits are few). */
  prepared(sql: string): StatementSync {
    return this.statements.get(sql);
  }

  headPositionSync(): number {
    return guardedRead(this.path, () => (this.stmt.head.get() as { position: number }).position);
  }

  async headPosition(): Promise<number> {
    return this.headPositionSync();
  }

  subscribe(options: SubscribeOptions = {}): EventSubscription {
    let position = options.fromPosition ?? 0;
    const maxBatch = options.maxBatchSize ?? 500;
    let open = true;
    const store = this;
    return {
      async *[Symbol.asyncIterator]() {
        while (open && !store.closed) {
          // Remember the head before reading, so a filtered scan can skip what it has seen.
          const head = store.headPositionSync();
          const batch = store.readAllSync(position, maxBatch, options.filter);
          if (batch.length > 0) {
            position = batch[batch.length - 1].position;
            yield batch;
            // Caught up with everything this process appended: wait for the next append (or the
            // poll interval, for other processes) instead of reading the log again for nothing.
            if (batch.length < maxBatch && position >= store.lastLocalAppend && open && !store.closed) {
              await store.idle();
            }
          } else {
            position = Math.max(position, head);
            await store.idle();
          }
        }
      },
      async close() {
        open = false;
        store.notifier.notify();
      },
    };
  }

  /** Waits for an append in this process or one poll interval (appends by other processes). */
  idle(): Promise<void> {
    return this.notifier.wait(this.pollIntervalMs);
  }

  persistentSubscription(group: string, options: PersistentSubscriptionOptions = {}): PersistentSubscription {
    return this.persistent.subscribe(group, options);
  }

  async parkedEvents(group: string): Promise<RecordedEvent[]> {
    return this.persistent.parked(group);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** After a write refused for want of storage, also a probe: it fails until there is room again. */
  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
    storageFaults(this.db)?.check();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.notifier.notify();
    await this.checkpointer?.stop();
    this.db.close();
  }
}
