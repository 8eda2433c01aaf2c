// The embedded EventStore adapter: one append-only table in a node:sqlite file (WAL). The table,
// its rows and the SQL of a read are sqlite-event-rows.ts's; this is the store: appends in
// immediate transactions, the parsed tail shared by this process's readers, subscriptions.
//
// Group commit: single-stream `append`s are not written at once but queued, and the queue is
// written on the next turn of the event loop (setImmediate) in one BEGIN IMMEDIATE … COMMIT — one
// transaction and one WAL sync for every write that came in meanwhile. Here, in the store, so that
// every writer (HTTP commands, process managers, timers, the CLI) shares it without knowing. Why a
// turn and not a microtask: concurrent HTTP requests are parsed in one poll phase of the loop,
// each in its own callback, so their appends fall in one turn but seldom in one microtask run; and
// as node:sqlite is synchronous, nothing can arrive "while a batch is written": the turn is the
// window. Each write keeps its own outcome and its own atomicity: it runs in a SAVEPOINT, so a
// wrong expected revision (or any other error of that write alone) rolls back that write only and
// the others commit; writes to the same stream in one batch see one another exactly as if made
// one after the other (the second, with a stale expected revision, fails); appending the same
// event ids again is recognised as before. A promise resolves only after the COMMIT holding its
// write. A storage fault (disk full, read-only, damaged) is no one write's fault: the whole batch
// is rolled back and every write in it fails with the StorageFaultError, as each would have alone.
// Reading a stream that has an append queued waits for that commit, and such readers go on one per
// turn: a command reads its stream, decides and appends within one run of microtasks, so before
// group commit concurrent commands on one stream were serialised by the event loop itself; without
// the wait they would all decide on the same revision and all but one lose to a conflict (and,
// after their retries, answer 409). Other streams' reads do not wait.
// `appendMany` (several streams, all or none) is not queued: it runs at once, in its own
// transaction. EventStoreDB batches on its side; its adapter is left as it is.

import type { DatabaseSync, StatementSync } from 'node:sqlite';

import { immediateTransaction, openSqlite, type SqliteOptions, storageFaults } from '../sqlite/sqlite-database';
import { guardedRead, storageFaultOf } from '../sqlite/storage-fault';
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

/** Queued single-stream writes per transaction at most (group commit); more wait for the next one. */
const MAX_GROUP = 1_000;

/** Taken at load: a test that fakes the timers afterwards does not stall every append. */
const nextTurn = setImmediate;

interface QueuedAppend {
  write: StreamWrite;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

type WriteOutcome = { ok: true; nextRevision: number; position: number; fresh: boolean; first: number; end: number } | { ok: false; error: unknown };

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
    savepoint: StatementSync;
    release: StatementSync;
    rollbackTo: StatementSync;
  };
  /** Single-stream appends waiting for the next group commit (see the header). */
  private queued: QueuedAppend[] = [];
  /** The streams those appends go to. */
  private readonly queuedStreams = new Set<string>();
  /** Readers waiting for a stream's queued append to commit, woken one per turn (see the header). */
  private readonly gates = new Map<string, Array<() => void>>();
  private gatesScheduled = false;
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
      savepoint: this.db.prepare('SAVEPOINT append_write'),
      release: this.db.prepare('RELEASE append_write'),
      rollbackTo: this.db.prepare('ROLLBACK TO append_write'),
    };
    this.statements = new StatementCache(this.db);
    this.persistent = new SqlitePersistentSubscriptions(this);
  }

  /** Queued for the next group commit: resolves once the transaction holding it is committed. */
  append(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise((resolve, reject) => {
      this.queued.push({ write: { streamId, events, expectedRevision: options.expectedRevision }, resolve, reject });
      this.queuedStreams.add(streamId);
      if (this.queued.length === 1) nextTurn(() => this.flushAppends());
    });
  }

  /** One immediate transaction for every write: all streams are appended, or none is. Not queued. */
  async appendMany(writes: readonly StreamWrite[]): Promise<AppendResult[]> {
    return this.appendSync(writes);
  }

  /** Writes the queued appends, up to MAX_GROUP per transaction. */
  private flushAppends(): void {
    if (this.queued.length === 0) return;
    this.queuedStreams.clear();
    while (this.queued.length > 0) {
      const group = this.queued.slice(0, MAX_GROUP);
      this.queued = this.queued.slice(group.length);
      let outcomes: Array<{ ok: true; value: AppendResult } | { ok: false; error: unknown }>;
      try {
        outcomes = this.appendGroup(group.map((queued) => queued.write));
      } catch (error) {
        for (const queued of group) queued.reject(error);
        continue;
      }
      group.forEach((queued, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) queued.resolve(outcome.value);
        else queued.reject(outcome.error);
      });
    }
    this.openGates();
  }

  /** Wakes, per stream with no append queued now, its first waiting reader; the next ones on later turns. */
  private openGates(): void {
    for (const [streamId, waiters] of this.gates) {
      if (this.queuedStreams.has(streamId) && !this.closed) continue; // its next commit opens it
      const next = waiters.shift();
      if (waiters.length === 0) this.gates.delete(streamId);
      next?.();
    }
    if (this.gates.size > 0 && !this.gatesScheduled) {
      this.gatesScheduled = true;
      nextTurn(() => {
        this.gatesScheduled = false;
        this.openGates();
      });
    }
  }

  /** Resolves when `streamId` may be read: at once unless it has an append queued or readers waiting. */
  private streamReadable(streamId: string): Promise<void> | undefined {
    if (this.closed || (!this.queuedStreams.has(streamId) && !this.gates.has(streamId))) return undefined;
    return new Promise((resolve) => {
      const waiters = this.gates.get(streamId);
      if (waiters) waiters.push(resolve);
      else this.gates.set(streamId, [resolve]);
    });
  }

  /**
   * One transaction, each write in its own savepoint: a write that fails is rolled back alone and
   * answered its error. A storage fault, or SQLite having ended the transaction, fails them all.
   */
  private appendGroup(writes: readonly StreamWrite[]): Array<{ ok: true; value: AppendResult } | { ok: false; error: unknown }> {
    const createdAt = this.now().toISOString();
    const written: EventRow[] = [];
    const outcomes = immediateTransaction(this.db, () =>
      writes.map((write): WriteOutcome => {
        const first = written.length;
        this.stmt.savepoint.run();
        try {
          const result = this.appendInTransaction(write, createdAt, written);
          this.stmt.release.run();
          return { ok: true, ...result, first, end: written.length };
        } catch (error) {
          if (!this.db.isTransaction || storageFaultOf(error, this.path) !== undefined) throw error;
          this.stmt.rollbackTo.run();
          this.stmt.release.run();
          written.length = first;
          return { ok: false, error };
        }
      }),
    );
    const results = this.committed(
      written,
      outcomes.flatMap((outcome) => (outcome.ok ? [outcome] : [])),
    );
    let next = 0;
    return outcomes.map((outcome) => (outcome.ok ? { ok: true, value: results[next++] } : { ok: false, error: outcome.error }));
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
    return this.committed(written, results);
  }

  /** After the COMMIT: the written events into the tail, subscribers woken, each write's result. */
  private committed(
    written: EventRow[],
    results: ReadonlyArray<{ nextRevision: number; position: number; fresh: boolean; first: number; end: number }>,
  ): AppendResult[] {
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
    const readable = this.streamReadable(streamId);
    if (readable) await readable;
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
    // Appends already queued are written (and answered) before the file closes.
    this.flushAppends();
    this.closed = true;
    while (this.gates.size > 0) this.openGates();
    this.notifier.notify();
    await this.checkpointer?.stop();
    this.db.close();
  }
}
