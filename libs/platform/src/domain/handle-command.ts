// The one "load stream → fold → decide → append with expected revision" path every command
// handler uses. Version conflicts are retried a few times (re-reading the stream) before they
// surface as WrongExpectedRevisionError (HTTP 409).
import {
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store/event-store.port';
import { uuidv7 } from '../ids';
import { type Decider, type DomainEvent, fold } from './decider';

export interface Aggregate<TCommand, TEvent extends DomainEvent, TState> {
  decider: Decider<TCommand, TEvent, TState>;
  /** Turns a stored event back into a domain event (validation and upcasting live here). */
  parseEvent(event: RecordedEvent): TEvent;
  /** The schema version written into new events' metadata. */
  schemaVersion?: number;
}

export interface CommandResult<TEvent, TState> {
  events: TEvent[];
  state: TState;
  /** Revision of the stream after the command; -1 when the stream still does not exist. */
  revision: number;
  /** Global position of the last appended event; null when the command appended nothing. */
  position: number | null;
}

/** What the caller knows about a command's origin; the schema version is the aggregate's. */
export type CommandMetadata = Pick<EventMetadata, 'workspaceId' | 'correlationId' | 'causationId' | 'actor'>;

export interface HandleOptions {
  maxAttempts?: number;
  /**
   * The stream is new (its id was just generated): decide on the initial state and append with
   * `no_stream` without reading it first. Should it exist after all, the usual path takes over.
   */
  newStream?: boolean;
}

export async function handleCommand<TCommand, TEvent extends DomainEvent, TState>(
  store: EventStore,
  streamId: string,
  aggregate: Aggregate<TCommand, TEvent, TState>,
  command: TCommand,
  metadata: CommandMetadata,
  options: HandleOptions = {},
): Promise<CommandResult<TEvent, TState>> {
  const maxAttempts = options.maxAttempts ?? 4;
  for (let attempt = 1; ; attempt += 1) {
    const recorded = options.newStream && attempt === 1 ? [] : await store.readStream(streamId);
    const history = recorded.map((e) => aggregate.parseEvent(e));
    const state = fold(aggregate.decider, history);
    const revision = recorded.length > 0 ? recorded[recorded.length - 1].revision : -1;
    const events = aggregate.decider.decide(command, state);
    if (events.length === 0) return { events, state, revision, position: null };
    try {
      const result = await store.append(
        streamId,
        events.map((e) => ({
          id: uuidv7(),
          type: e.type,
          data: e.data,
          metadata: { ...metadata, schemaVersion: aggregate.schemaVersion ?? 1 },
        })),
        { expectedRevision: revision === -1 ? 'no_stream' : revision },
      );
      return {
        events,
        state: events.reduce(aggregate.decider.evolve, state),
        revision: result.nextRevision,
        position: result.position,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      await new Promise((r) => setTimeout(r, 5 * 2 ** attempt * Math.random()));
    }
  }
}
