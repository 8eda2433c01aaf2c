// The EventStore port: the event log is the only source of truth. Two adapters implement it
// (SQLite via node:sqlite, EventStoreDB via @eventstore/db-client); one contract suite tests both.

/** Metadata every stored event carries. `workspaceId` scopes it; the rest traces causality. */
export interface EventMetadata {
  workspaceId: string;
  correlationId?: string;
  causationId?: string;
  /** Who caused it, e.g. `key_01J…`, `cli`, `system`. Never a secret. */
  actor?: string;
  schemaVersion: number;
  [extra: string]: unknown;
}

/** An event about to be appended. `id` (uuid) makes appends idempotent; generated when absent. */
export interface NewEvent<TData = unknown> {
  id?: string;
  type: string;
  data: TData;
  metadata: EventMetadata;
}

/** An event as stored in the log. */
export interface RecordedEvent<TData = unknown> {
  /** uuid; the public id is `evt_` + this uuid without dashes (see `publicEventId`). */
  id: string;
  type: string;
  data: TData;
  metadata: EventMetadata;
  streamId: string;
  /** 0-based position of the event inside its stream. */
  revision: number;
  /** Global, strictly increasing position in the whole log (commit position on EventStoreDB). */
  position: number;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/**
 * - `no_stream`: the stream must not exist yet;
 * - `stream_exists`: it must exist (any revision);
 * - `any`: no check;
 * - a number: the revision of the stream's last event must be exactly this.
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  /** See StreamWrite.prior. */
  prior?: readonly RecordedEvent[];
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextRevision: number;
  /** Global position of the last appended event. */
  position: number;
  /**
   * The appended events as stored, when the store has them at hand (the embedded store does);
   * absent for an idempotent repeat of an earlier append.
   */
  recorded?: readonly RecordedEvent[];
  /** The inline projections' documents this append brought up to date (see InlineProjections). */
  documents?: InlineDocuments;
}

/** Documents of inline projections, as a write left them, by collection and id. */
export interface InlineDocuments {
  /** The document (null: deleted, or never made); undefined when the write did not touch it. */
  get<D>(collection: string, id: string): D | null | undefined;
}

export interface EventFilter {
  /** Only events whose type is one of these. */
  types?: readonly string[];
  /** Only events whose stream id starts with one of these prefixes (e.g. `buyer_request-`). */
  streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this global position. Omitted: from the beginning. */
  fromPosition?: number;
  /** Maximum number of events returned (default 1000). */
  limit?: number;
  filter?: EventFilter;
}

export interface ReadStreamOptions {
  /** Inclusive: events at or after this revision. */
  fromRevision?: number;
}

export interface SubscribeOptions {
  /** Exclusive: deliver events strictly after this position. Omitted: from the beginning. */
  fromPosition?: number;
  filter?: EventFilter;
  /** Upper bound on the size of one delivered batch (default 500). */
  maxBatchSize?: number;
}

/**
 * A catch-up subscription: yields ordered, non-empty batches of events — first the history
 * after `fromPosition`, then live events as they are appended (also by other processes).
 * It never ends by itself; `close()` ends the iteration.
 */
export interface EventSubscription extends AsyncIterable<RecordedEvent[]> {
  close(): Promise<void>;
}

export type NackAction = 'retry' | 'park';

/** One event handed to a consumer of a persistent subscription group. */
export interface PersistentSubscriptionEvent {
  event: RecordedEvent;
  /** How many times this event was handed out before (0 on the first delivery). */
  retryCount: number;
  ack(): Promise<void>;
  /** `retry`: hand it out again later; `park`: set it aside (parked), never redelivered. */
  nack(action: NackAction, reason: string): Promise<void>;
}

export interface PersistentSubscriptionOptions {
  filter?: EventFilter;
  /** Where a NEW group starts. An existing group always resumes from its own state. */
  startFrom?: 'start' | 'end';
  /** Events handed out at once and not yet acked (default 10). */
  bufferSize?: number;
  /**
   * Events the consumer would only ack, told apart on the spot: settled without being handed out,
   * like events outside the filter. Called with the filter's events a claim takes from the log, in
   * log order, it answers one boolean per event (true: skip). `scanned` is the part of the log they
   * are every one of the filter's events of — `after` < position ≤ `upTo` — so a consumer may learn
   * from what it is shown (both NaN where the adapter cannot say, e.g. a server-side group). A
   * skipped event may be offered again (a restart, a competing consumer): the answer must not depend
   * on when it is asked, and must be false whenever handling the event would do more than ack it.
   */
  skip?: (events: readonly RecordedEvent[], scanned: { after: number; upTo: number }) => readonly boolean[];
}

/**
 * A competing-consumer subscription: the group remembers what was acked across restarts,
 * so an event is neither lost nor redelivered once acked. An event handed out but not acked
 * (a crash) is delivered again.
 */
export interface PersistentSubscription extends AsyncIterable<PersistentSubscriptionEvent> {
  close(): Promise<void>;
}

/** One stream's part of an `appendMany`. */
export interface StreamWrite {
  streamId: string;
  events: readonly NewEvent[];
  expectedRevision: ExpectedRevision;
  /**
   * Every event of the stream before this write, as the writer read them to decide (up to
   * `expectedRevision`): what follows the append in this process (the inline projections) uses
   * them instead of reading them from the log again. Never stored; a store ignores it.
   */
  prior?: readonly RecordedEvent[];
}

export interface EventStore {
  append(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /**
   * Appends to several streams, each with its own expected revision; results in the same order.
   * SQLite: one transaction, all or nothing. EventStoreDB: stream by stream in order; a failure
   * stops the batch with the earlier streams appended, so callers make batches idempotent (event
   * ids) and retry. Either way a batch costs far less than one `append` per stream.
   */
  appendMany(writes: readonly StreamWrite[]): Promise<AppendResult[]>;
  /** All events of a stream in revision order; `[]` when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the last event in the log, 0 when empty. */
  headPosition(): Promise<number>;
  subscribe(options?: SubscribeOptions): EventSubscription;
  persistentSubscription(group: string, options?: PersistentSubscriptionOptions): PersistentSubscription;
  /** Events parked by a persistent subscription group, oldest first. */
  parkedEvents(group: string): Promise<RecordedEvent[]>;
  /** Cheap liveness probe used by the readiness endpoint. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The typed optimistic-concurrency failure; the HTTP layer turns it into 409 CONFLICT. */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or `'no_stream'`. */
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

export const EVENT_STORE = Symbol('EVENT_STORE');

/** The public `evt_` id of a stored event. */
export function publicEventId(eventId: string): string {
  return `evt_${eventId.replace(/-/g, '')}`;
}

export function matchesFilter(event: Pick<RecordedEvent, 'type' | 'streamId'>, filter?: EventFilter): boolean {
  if (!filter) return true;
  if (filter.types && !filter.types.includes(event.type)) return false;
  if (filter.streamPrefixes && !filter.streamPrefixes.some((p) => event.streamId.startsWith(p))) return false;
  return true;
}

/** The stored event uuid behind a public `evt_` id; null when it is not one. */
export function eventIdFromPublic(publicId: string): string | null {
  const hex = /^evt_([0-9a-f]{32})$/.exec(publicId)?.[1];
  return hex ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : null;
}
