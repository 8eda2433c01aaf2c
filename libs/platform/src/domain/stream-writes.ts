// What the two write-path functions (handleCommand, handleCommands) share: what they need of the
// log, how a stream is loaded and folded, how decided events become stored ones (ids, metadata,
// schema version) and how a version conflict is retried.
import {
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store/event-store.port';
import { uuidv7 } from '../ids';
import { causedMark, causedMetadata, dropCausedAfter, noteCaused } from './causation';
import { type Decider, type DomainEvent, fold } from './decider';
import { assertIfMatch } from './precondition';

/** What the write path needs of the log: an EventStore, or an AppendBatcher in front of one. */
export type EventLog = Pick<EventStore, 'readStream' | 'append' | 'appendMany'>;

/** An aggregate as the write path runs it: its decider and how its stored events are read back. */
export interface Aggregate<TCommand, TEvent extends DomainEvent, TState> {
  decider: Decider<TCommand, TEvent, TState>;
  /** Turns a stored event back into a domain event (validation and upcasting live here). */
  parseEvent(event: RecordedEvent): TEvent;
  /** The schema version written into new events' metadata (default 1). */
  schemaVersion?: number;
}

/** What the caller knows about a command's origin; the schema version is the aggregate's. */
export type CommandMetadata = Pick<EventMetadata, 'workspaceId' | 'correlationId' | 'causationId' | 'actor'>;

/** A stream as loaded for a decision. */
export interface LoadedStream<TState> {
  streamId: string;
  state: TState;
  /** Revision of the stream's last event; -1 when it does not exist (or is another workspace's). */
  revision: number;
  /** Global position of the stream's last event; null when there is none. */
  position: number | null;
  /** What the append checks: the revision, `no_stream` for an absent or foreign stream. */
  expected: ExpectedRevision;
  /**
   * An `If-Match` given for a stream that does not exist: judged only once the decider accepted
   * the command (RFC 9110 §13.2.1 — a request refused without its precondition, a 404, is refused
   * the same with it; one that would succeed fails it, 412).
   */
  unmetIfMatch?: number;
  /** The stream's events as read (absent for a stream loaded as new): passed on with the append (StreamWrite.prior). */
  recorded?: readonly RecordedEvent[];
}

export interface LoadOptions {
  /**
   * The workspace the command acts for (in a transaction, by default the transaction's). A stream
   * whose first event belongs to another workspace is loaded as if it did not exist — the decider
   * then answers exactly as for a missing one — and nothing can be appended to it (the append
   * expects `no_stream`).
   */
  workspaceId?: string;
  /** A stream that belongs to no workspace (a global unique-slug claim): loaded whoever wrote it. */
  anyWorkspace?: boolean;
  /** `If-Match`: the stream must be at this revision (PreconditionFailedError otherwise). */
  ifMatch?: number;
}

export async function loadStream<TCommand, TEvent extends DomainEvent, TState>(
  log: EventLog,
  streamId: string,
  aggregate: Aggregate<TCommand, TEvent, TState>,
  options: LoadOptions = {},
): Promise<LoadedStream<TState>> {
  const recorded = await log.readStream(streamId);
  const foreign = !options.anyWorkspace && options.workspaceId !== undefined && recorded.length > 0 && recorded[0].metadata.workspaceId !== options.workspaceId;
  if (recorded.length === 0 || foreign) {
    const stream = newStream(streamId, aggregate);
    return options.ifMatch === undefined ? stream : { ...stream, unmetIfMatch: options.ifMatch };
  }
  const last = recorded[recorded.length - 1];
  assertIfMatch(streamId, options.ifMatch, last.revision);
  return {
    streamId,
    state: fold(aggregate.decider, recorded.map((e) => aggregate.parseEvent(e))),
    revision: last.revision,
    position: last.position,
    expected: last.revision,
    recorded,
  };
}

/** A stream about to be created: the initial state, appended with `no_stream`. */
export function newStream<TState>(streamId: string, aggregate: { decider: { initialState: TState } }): LoadedStream<TState> {
  return { streamId, state: aggregate.decider.initialState, revision: -1, position: null, expected: 'no_stream' };
}

/** Decided events as the log stores them: an id each, the caller's metadata, the schema version. */
export function toNewEvents(
  events: readonly DomainEvent[],
  metadata: CommandMetadata,
  schemaVersion = 1,
  eventIds?: (index: number) => string,
): NewEvent[] {
  // Inside a causation scope (withCausation), the cause, its correlation and its extra metadata win.
  const stored: EventMetadata = { ...causedMetadata(metadata), schemaVersion };
  const made = events.map((e, i) => ({ id: eventIds ? eventIds(i) : uuidv7(), type: e.type, data: e.data, metadata: stored }));
  noteCaused(made.map((e) => ({ id: e.id, type: e.type })));
  return made;
}

/** How often a decision is made again after a version conflict, by default, before it surfaces (409). */
export const DEFAULT_MAX_ATTEMPTS = 4;

/**
 * Runs `attempt` until it does not fail with a version conflict, at most `maxAttempts` times, with
 * a short randomized backoff in between (concurrent writers then stop colliding).
 */
export async function retryOnConflict<T>(maxAttempts: number, attempt: (n: number) => Promise<T>): Promise<T> {
  const mark = causedMark();
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      // The attempt's events were not appended: a causation scope forgets them.
      dropCausedAfter(mark);
      if (!(error instanceof WrongExpectedRevisionError) || n >= maxAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** n * Math.random()));
    }
  }
}
