// The write path for a decision that spans several streams (record matches on a request and store
// the match pack; reserve an item and open a trade): `work` loads the streams it needs, decides a
// command on each, and everything decided is appended together, each stream with its expected
// revision. A version conflict on any of them runs `work` again on fresh states.
//
// Atomicity is the store's: on SQLite `appendMany` is one transaction, so all streams are appended
// or none is. EventStoreDB has no multi-stream transaction: the streams are appended one by one in
// the order they were first decided, and a failure leaves the earlier ones appended. Hence, for
// decisions that must be all-or-nothing:
// - decide the scarce resource first (the inventory item before the trade that reserves it), so a
//   failure can only leave a reservation without its owner, never an owner without a reservation;
// - make commands idempotent (a decider that finds its own earlier decision in the state decides
//   nothing), so the retry after a partial append completes it instead of doubling it;
// - and run a process manager that releases reservations no owner claims, so a crash between the
//   two appends heals itself.
import type { AppendResult, InlineDocuments, NewEvent, StreamWrite } from '../event-store/event-store.port';
import type { DomainEvent } from './decider';
import {
  type Aggregate,
  type CommandMetadata,
  DEFAULT_MAX_ATTEMPTS,
  type EventLog,
  type LoadedStream,
  type LoadOptions,
  loadStream,
  newStream,
  retryOnConflict,
  toNewEvents,
} from './stream-writes';
import { assertIfMatch } from './precondition';

/** A stream inside a transaction: its state moves on with every command decided on it. */
export interface StreamHandle<TCommand, TEvent extends DomainEvent, TState> {
  readonly streamId: string;
  readonly aggregate: Aggregate<TCommand, TEvent, TState>;
  /** The state after everything decided on it so far in this transaction. */
  readonly state: TState;
  /** Revision of the stream's last stored event; -1 when it does not exist (or is another workspace's). */
  readonly revision: number;
  /** Global position of the stream's last stored event; null when none. */
  readonly position: number | null;
}

export interface DecideOptions {
  /** Metadata for this stream's events, over the transaction's (e.g. another workspace, a cause). */
  metadata?: Partial<CommandMetadata>;
  /** Deterministic event ids (by index in this decision). */
  eventIds?: (index: number) => string;
}

export interface Transaction {
  /** Reads and folds a stream. Another workspace's stream reads as absent (see LoadOptions). */
  load<C, E extends DomainEvent, S>(streamId: string, aggregate: Aggregate<C, E, S>, options?: LoadOptions): Promise<StreamHandle<C, E, S>>;
  /** A stream to create: the initial state, appended with `no_stream`. */
  create<C, E extends DomainEvent, S>(streamId: string, aggregate: Aggregate<C, E, S>): StreamHandle<C, E, S>;
  /** Decides `command` on the stream's current state; the events are appended when `work` returns. */
  decide<C, E extends DomainEvent, S>(stream: StreamHandle<C, E, S>, command: C, options?: DecideOptions): E[];
}

export interface StreamOutcome {
  streamId: string;
  events: DomainEvent[];
  /** Revision of the stream's last event after the append. */
  revision: number;
  /** Global position of the last event appended to it. */
  position: number;
}

export interface TransactionResult<T> {
  /** What `work` returned (on the attempt that was appended). */
  value: T;
  /** Per stream that got events, in the order of the appends. */
  streams: StreamOutcome[];
  /** The highest position appended; null when nothing was decided. */
  position: number | null;
  /** The inline projections' documents the appends brought up to date; null when nothing was appended. */
  documents: InlineDocuments | null;
}

export interface TransactionOptions {
  /** Attempts at most (the first and the retries after version conflicts); default 4. */
  maxAttempts?: number;
}

/** A stream loaded (or created) in one attempt of a transaction, with what was decided on it. */
class TrackedStream<TCommand, TEvent extends DomainEvent, TState> implements StreamHandle<TCommand, TEvent, TState> {
  readonly pending: NewEvent[] = [];
  readonly decided: TEvent[] = [];

  constructor(
    readonly aggregate: Aggregate<TCommand, TEvent, TState>,
    private readonly loaded: LoadedStream<TState>,
    public state: TState = loaded.state,
  ) {}

  get streamId(): string {
    return this.loaded.streamId;
  }

  get revision(): number {
    return this.loaded.revision;
  }

  get position(): number | null {
    return this.loaded.position;
  }

  write(): StreamWrite {
    return { streamId: this.streamId, events: this.pending, expectedRevision: this.loaded.expected, prior: this.loaded.recorded };
  }

  decide(command: TCommand, metadata: CommandMetadata, eventIds?: (index: number) => string): TEvent[] {
    const events = this.aggregate.decider.decide(command, this.state);
    assertIfMatch(this.streamId, this.loaded.unmetIfMatch, -1);
    if (events.length === 0) return events;
    this.pending.push(...toNewEvents(events, metadata, this.aggregate.schemaVersion, eventIds));
    this.decided.push(...events);
    this.state = events.reduce(this.aggregate.decider.evolve, this.state);
    return events;
  }
}

export async function handleCommands<T>(
  log: EventLog,
  metadata: Partial<CommandMetadata>,
  work: (tx: Transaction) => T | Promise<T>,
  options: TransactionOptions = {},
): Promise<TransactionResult<T>> {
  return retryOnConflict(options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, async () => {
    // By stream id, in the order first loaded or created (the order of the appends).
    const tracked = new Map<string, TrackedStream<unknown, DomainEvent, unknown>>();
    const track = <C, E extends DomainEvent, S>(stream: TrackedStream<C, E, S>): TrackedStream<C, E, S> => {
      if (tracked.has(stream.streamId)) throw new Error(`Stream ${stream.streamId} is already part of this transaction`);
      tracked.set(stream.streamId, stream as TrackedStream<unknown, DomainEvent, unknown>);
      return stream;
    };
    const tx: Transaction = {
      async load(streamId, aggregate, loadOptions = {}) {
        const options = { workspaceId: metadata.workspaceId, ...loadOptions };
        return track(new TrackedStream(aggregate, await loadStream(log, streamId, aggregate, options)));
      },
      create(streamId, aggregate) {
        return track(new TrackedStream(aggregate, newStream(streamId, aggregate)));
      },
      decide(stream, command, decideOptions = {}) {
        if (!(stream instanceof TrackedStream) || tracked.get(stream.streamId) !== stream) {
          throw new Error(`Stream ${stream.streamId} was not loaded in this transaction`);
        }
        const eventMetadata = { ...metadata, ...decideOptions.metadata };
        const { workspaceId } = eventMetadata;
        if (workspaceId === undefined) throw new Error(`No workspace for the events of ${stream.streamId}`);
        return stream.decide(command, { ...eventMetadata, workspaceId }, decideOptions.eventIds);
      },
    };
    const value = await work(tx);
    const writing = [...tracked.values()].filter((t) => t.pending.length > 0);
    const results = await appendAll(log, writing.map((t) => t.write()));
    const streams = writing.map((t, i) => ({ streamId: t.streamId, events: t.decided, revision: results[i].nextRevision, position: results[i].position }));
    return {
      value,
      streams,
      position: streams.length === 0 ? null : Math.max(...streams.map((s) => s.position)),
      documents: results[0]?.documents ?? null,
    };
  });
}

function appendAll(log: EventLog, writes: StreamWrite[]): Promise<AppendResult[]> {
  if (writes.length === 0) return Promise.resolve([]);
  if (writes.length === 1) {
    const [write] = writes;
    return log.append(write.streamId, write.events, { expectedRevision: write.expectedRevision, prior: write.prior }).then((r) => [r]);
  }
  return log.appendMany(writes);
}
