// The write path for a hot stream: many writers deciding on one aggregate at once (bidders on a
// live lot). `handleCommand` would load and fold the stream per command and, under contention,
// lose most appends to version conflicts and retry them. The desk instead queues the commands
// per stream and decides them in arrival order, a batch at a time: the state is kept between
// batches (and caught up from the stream's tail, so another process's writes are seen), each
// command is decided on the state its predecessors left, and the batch's events go to the log in
// one append with the expected revision — group commit. Each command keeps its own outcome: a
// refused one rejects alone, the others land. A version conflict (another writer got in between)
// drops the kept state and decides the whole batch again on the stream as it now is.
//
// A command decided inside a causation scope (an automation's action) keeps its own cause: it is
// taken into the command's metadata when handed in, and the batch runs outside any scope, so one
// caller's cause never lands on another's events; the events it appended are noted in its scope.
//
// The order of the accepted commands is therefore the log's; the outcome each caller receives is
// the one the log holds. Within one process a stream is decided by one batch at a time; across
// processes the expected revision keeps them exact.
import { causedMetadata, noteCaused, outsideCausation } from './causation';
import type { InlineDocuments } from '../event-store/event-store.port';
import type { DomainEvent } from './decider';
import {
  type Aggregate,
  type CommandMetadata,
  DEFAULT_MAX_ATTEMPTS,
  type EventLog,
  type LoadedStream,
  loadStream,
  retryOnConflict,
  toNewEvents,
} from './stream-writes';

export interface DeskOutcome<TEvent, TState> {
  events: TEvent[];
  /** The stream's state after this command (and the ones decided before it in its batch). */
  state: TState;
  /** Global position of the batch's last event; null when the batch appended nothing. */
  position: number | null;
  /** The inline projections' documents as the whole batch's append left them (later commands of the batch included); null when it appended nothing. */
  documents: InlineDocuments | null;
}

export interface StreamDeskOptions {
  /** Commands decided per append at most (default 200). */
  maxBatch?: number;
  /** Streams whose state is kept between batches (least recently used dropped first; default 1000). */
  keep?: number;
  /** Decisions made at most per batch (the first and the retries after version conflicts). */
  maxAttempts?: number;
}

interface Landed<TEvent, TState> extends DeskOutcome<TEvent, TState> {
  /** The stored events (ids and types), for the caller's causation scope. */
  stored: Array<{ id: string; type: string }>;
}

interface Waiting<TCommand, TEvent, TState> {
  command: TCommand;
  metadata: CommandMetadata;
  resolve: (outcome: Landed<TEvent, TState>) => void;
  reject: (error: unknown) => void;
}

interface Lane<TCommand, TEvent extends DomainEvent, TState> {
  aggregate: Aggregate<TCommand, TEvent, TState>;
  workspaceId: string;
  queue: Waiting<TCommand, TEvent, TState>[];
  running: boolean;
}

type Decided<TEvent, TState> = { ok: true; events: TEvent[]; state: TState; stored: Array<{ id: string; type: string }> } | { ok: false; error: unknown };

interface BatchOutcome<TEvent, TState> {
  decided: Decided<TEvent, TState>[];
  position: number;
  documents: InlineDocuments | null;
}

export class StreamDesk {
  private readonly lanes = new Map<string, Lane<unknown, DomainEvent, unknown>>();
  private readonly kept = new Map<string, LoadedStream<unknown>>();

  constructor(
    private readonly log: EventLog,
    private readonly options: StreamDeskOptions = {},
  ) {}

  /**
   * Decides `command` on the stream (of `metadata.workspaceId`: another workspace's stream reads
   * as absent, as in handleCommand) after every command handed in before it. Resolves with its
   * events once they are in the log; rejects with the decider's error when it is refused.
   */
  decide<TCommand, TEvent extends DomainEvent, TState>(
    streamId: string,
    aggregate: Aggregate<TCommand, TEvent, TState>,
    command: TCommand,
    metadata: CommandMetadata,
  ): Promise<DeskOutcome<TEvent, TState>> {
    const landed = new Promise<Landed<TEvent, TState>>((resolve, reject) => {
      const laneId = `${metadata.workspaceId}\u0000${streamId}`;
      let lane = this.lanes.get(laneId) as Lane<TCommand, TEvent, TState> | undefined;
      if (!lane) {
        lane = { aggregate, workspaceId: metadata.workspaceId, queue: [], running: false };
        this.lanes.set(laneId, lane as unknown as Lane<unknown, DomainEvent, unknown>);
      }
      lane.queue.push({ command, metadata: causedMetadata(metadata), resolve, reject });
      if (!lane.running) outsideCausation(() => void this.run(laneId, streamId, lane));
    });
    return landed.then(({ stored, ...outcome }) => {
      noteCaused(stored);
      return outcome;
    });
  }

  private async run<TCommand, TEvent extends DomainEvent, TState>(laneId: string, streamId: string, lane: Lane<TCommand, TEvent, TState>): Promise<void> {
    lane.running = true;
    // Let the commands of this turn of the event loop join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (lane.queue.length > 0) {
        const batch = lane.queue.splice(0, this.options.maxBatch ?? 200);
        try {
          const { decided, position, documents } = await this.decideBatch(laneId, streamId, lane, batch);
          batch.forEach((w, i) => {
            const outcome = decided[i];
            if (outcome.ok) {
              w.resolve({ events: outcome.events, state: outcome.state, stored: outcome.stored, position: outcome.events.length > 0 ? position : null, documents });
              return;
            }
            w.reject(outcome.error);
          });
        } catch (error) {
          this.kept.delete(laneId);
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      lane.running = false;
      this.lanes.delete(laneId);
    }
  }

  private decideBatch<TCommand, TEvent extends DomainEvent, TState>(
    laneId: string,
    streamId: string,
    lane: Lane<TCommand, TEvent, TState>,
    batch: Waiting<TCommand, TEvent, TState>[],
  ): Promise<BatchOutcome<TEvent, TState>> {
    const { aggregate } = lane;
    return retryOnConflict(this.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, async (attempt) => {
      if (attempt > 1) this.kept.delete(laneId);
      const stream = await this.current(laneId, streamId, lane);
      let state = stream.state;
      const decided: Decided<TEvent, TState>[] = [];
      const appended = [];
      for (const w of batch) {
        try {
          const events = aggregate.decider.decide(w.command, state);
          state = events.reduce(aggregate.decider.evolve, state);
          const stored = toNewEvents(events, w.metadata, aggregate.schemaVersion);
          appended.push(...stored);
          decided.push({ ok: true, events, state, stored: stored.map((e) => ({ id: e.id ?? '', type: e.type })) });
        } catch (error) {
          decided.push({ ok: false, error });
        }
      }
      if (appended.length === 0) return { decided, position: stream.position ?? 0, documents: null };
      const result = await this.log.append(streamId, appended, { expectedRevision: stream.expected });
      this.keep(laneId, { streamId, state, revision: result.nextRevision, position: result.position, expected: result.nextRevision });
      return { decided, position: result.position, documents: result.documents ?? null };
    });
  }

  /** The stream as kept, caught up from its tail; read whole when not kept. */
  private async current<TCommand, TEvent extends DomainEvent, TState>(laneId: string, streamId: string, lane: Lane<TCommand, TEvent, TState>): Promise<LoadedStream<TState>> {
    const kept = this.kept.get(laneId) as LoadedStream<TState> | undefined;
    if (!kept || kept.revision < 0) {
      const loaded = await loadStream(this.log, streamId, lane.aggregate, { workspaceId: lane.workspaceId });
      if (loaded.revision >= 0) this.keep(laneId, loaded);
      return loaded;
    }
    const tail = await this.log.readStream(streamId, { fromRevision: kept.revision + 1 });
    if (tail.length === 0) return kept;
    const last = tail[tail.length - 1];
    const state = tail.reduce((s, e) => lane.aggregate.decider.evolve(s, lane.aggregate.parseEvent(e)), kept.state);
    const caughtUp = { streamId, state, revision: last.revision, position: last.position, expected: last.revision };
    this.keep(laneId, caughtUp);
    return caughtUp;
  }

  private keep(laneId: string, stream: LoadedStream<unknown>): void {
    this.kept.delete(laneId);
    this.kept.set(laneId, stream);
    const limit = this.options.keep ?? 1000;
    while (this.kept.size > limit) this.kept.delete(this.kept.keys().next().value as string);
  }
}
