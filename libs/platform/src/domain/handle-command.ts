// The write path for one stream: load → fold → decide → append with the expected revision. A
// version conflict makes the whole decision again on the stream's new state (a few times, then it
// surfaces as WrongExpectedRevisionError, HTTP 409). It owns the events' ids, metadata and schema
// version, so no caller writes them by hand.
import type { ExpectedRevision, InlineDocuments } from '../event-store/event-store.port';
import type { DomainEvent } from './decider';
import { assertIfMatch } from './precondition';
import {
  type Aggregate,
  type CommandMetadata,
  DEFAULT_MAX_ATTEMPTS,
  type EventLog,
  type LoadedStream,
  loadStream,
  newStream,
  retryOnConflict,
  toNewEvents,
} from './stream-writes';

export interface CommandResult<TEvent, TState> {
  events: TEvent[];
  state: TState;
  /** Revision of the stream after the command; -1 when the stream still does not exist. */
  revision: number;
  /** Global position of the last appended event; null when the command appended nothing. */
  position: number | null;
  /** Global position of the stream's last event after the command (appended or not); null for none. */
  streamPosition: number | null;
  /**
   * The inline projections' documents the append brought up to date (the resource's own read
   * model, as its GET will read it); null when nothing was appended.
   */
  documents: InlineDocuments | null;
}

/**
 * The command, or how to make it from the state it will be decided on: made again on every
 * attempt, so it never acts on a state older than the one it is decided on. `null`: nothing to do.
 * (A maker states its command type, `(state): MyCommand => …`: TypeScript widens the literal
 * `type` of an object returned by a callback while it is still inferring the generics.)
 */
export type CommandSource<TCommand, TState> = TCommand | ((state: TState) => TCommand | null | Promise<TCommand | null>);

export interface HandleOptions<TState = unknown> {
  /** Decisions made at most (the first and the retries after version conflicts); default 4. */
  maxAttempts?: number;
  /**
   * The stream is new (its id was just generated): decide on the initial state and append with
   * `no_stream` without reading it first. Should it exist after all, the usual path takes over.
   */
  newStream?: boolean;
  /** The caller read the stream already: the first attempt decides on this instead of reading it again. */
  known?: { state: TState; revision: number; position?: number | null };
  /** Deterministic event ids (by index in the decision): appending the same decision twice is recognised. */
  eventIds?: (index: number) => string;
  /**
   * A stream of any workspace may be decided on: only for streams that are not a workspace's
   * (e.g. a global unique-slug claim). By default a stream of another workspace than
   * `metadata.workspaceId` is seen as absent and is never appended to.
   */
  anyWorkspace?: boolean;
  /**
   * The stream records facts as they come (a decision that needs no state, e.g. a scan counted):
   * decide on the initial state and append with `any`, never reading the stream — its length does
   * not slow the write. Only for a stream whose id names the workspace it belongs to.
   */
  appendOnly?: boolean;
  /** `If-Match`: decide only if the stream is at this revision (PreconditionFailedError otherwise, never retried). */
  ifMatch?: number;
}

export async function handleCommand<TCommand, TEvent extends DomainEvent, TState>(
  log: EventLog,
  streamId: string,
  aggregate: Aggregate<TCommand, TEvent, TState>,
  command: CommandSource<TCommand, TState>,
  metadata: CommandMetadata,
  options: HandleOptions<TState> = {},
): Promise<CommandResult<TEvent, TState>> {
  return retryOnConflict(options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, async (attempt) => {
    const loaded = attempt === 1 ? firstLoad(streamId, aggregate, options) : null;
    const stream = loaded ?? (await loadStream(log, streamId, aggregate, { workspaceId: metadata.workspaceId, anyWorkspace: options.anyWorkspace }));
    // On a stream that does not exist, If-Match is judged after the decider (see LoadedStream).
    const missing = stream.revision === -1;
    if (!missing) assertIfMatch(streamId, options.ifMatch, stream.revision);
    const made = isMaker(command) ? await command(stream.state) : command;
    const events = made === null ? [] : aggregate.decider.decide(made, stream.state);
    if (missing) assertIfMatch(streamId, options.ifMatch, -1);
    if (events.length === 0) {
      return { events, state: stream.state, revision: stream.revision, position: null, streamPosition: stream.position, documents: null };
    }
    const result = await log.append(streamId, toNewEvents(events, metadata, aggregate.schemaVersion, options.eventIds), {
      expectedRevision: stream.expected,
      prior: stream.recorded,
    });
    return {
      events,
      state: events.reduce(aggregate.decider.evolve, stream.state),
      revision: result.nextRevision,
      position: result.position,
      streamPosition: result.position,
      documents: result.documents ?? null,
    };
  });
}

function isMaker<TCommand, TState>(
  command: CommandSource<TCommand, TState>,
): command is (state: TState) => TCommand | null | Promise<TCommand | null> {
  return typeof command === 'function';
}

/** What the first attempt decides on without reading the stream, if the caller said. */
function firstLoad<TState>(
  streamId: string,
  aggregate: { decider: { initialState: TState } },
  options: HandleOptions<TState>,
): LoadedStream<TState> | null {
  if (options.appendOnly) return { streamId, state: aggregate.decider.initialState, revision: -1, position: null, expected: 'any' };
  if (options.known) {
    const { state, revision, position = null } = options.known;
    const expected: ExpectedRevision = revision === -1 ? 'no_stream' : revision;
    return { streamId, state, revision, position, expected };
  }
  return options.newStream ? newStream(streamId, aggregate) : null;
}
