// How a lane of projections follows the log, and how a batch of events is applied to them: one
// subscription per lane, each batch in one ReadStore transaction with the projections' checkpoints.
// Inside it each projection applies only the events after its own stored checkpoint; one whose
// checkpoint is behind the batch (another process reset it: a rebuild) makes the lane read the log
// again from there — so an event is never applied twice nor skipped, however many processes run
// projections. The runner decides which projections share a lane and what a batch applied means
// to its waiters.
import type { EventStore, EventSubscription, RecordedEvent } from '../event-store/event-store.port';
import type { Collection, ReadStore } from '../read-store/read-store.port';
import { BatchCache } from './batch-cache';
import type { InlineProjections } from './inline-projections';
import { type DocumentProjection, evolveDocument, isDocumentProjection, isEventual, type Projection, type StreamDoc } from './projection';
import type { CheckpointDoc } from './projection-checkpoints';

/** Lets I/O callbacks (HTTP requests, timers) run before the next batch. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface BatchApplied {
  /** The position each projection stands at after the batch. */
  reached: Map<string, number>;
  /** A projection's checkpoint is behind the batch's start: read the log again from it. */
  behind: boolean;
}

/**
 * Applies a batch — every event after `from` up to its last — to projections whose documents and
 * checkpoints live in `store`, in one transaction. The batch is read once and handed to each
 * projection: a document projection loads the documents its events touch in one query, folds the
 * events into them in memory and writes each changed one once (applyDocumentBatch); a view goes
 * through a BatchCache flushed before its checkpoint (a document it reads and writes several times
 * is read and written once) — but for one with a unique index, which writes as it goes (see
 * writeBehind). An event a write of this process applied inline already (`inline`) is passed
 * over, not read again.
 */
export async function applyBatchTo(
  store: ReadStore,
  checkpoints: Collection<CheckpointDoc>,
  projections: readonly Projection[],
  batch: readonly RecordedEvent[],
  from: number,
  inlineProjections?: InlineProjections,
): Promise<BatchApplied> {
  const last = batch[batch.length - 1].position;
  const updatedAt = new Date().toISOString();
  return store.transaction(async () => {
    const stored = await checkpoints.getMany(projections.map((p) => p.name));
    const byName = new Map(stored.map((cp) => [cp.id, cp.position]));
    const reached = new Map<string, number>();
    let behind = false;
    for (const p of projections) {
      const position = byName.get(p.name) ?? 0;
      if (position < from) {
        // Reset by another process (a rebuild): its documents are gone, so are the writes' marks.
        inlineProjections?.resetApplied();
        behind = true;
        reached.set(p.name, position);
        continue;
      }
      if (position >= last) {
        reached.set(p.name, position);
        continue;
      }
      const inline = isDocumentProjection(p) && p.inline ? inlineProjections : undefined;
      const events = eventsToApply(p, batch, position, inline);
      if (isDocumentProjection(p) && !hasUniqueIndex(p)) {
        await applyDocumentBatch(p, store, events);
      } else {
        const target = writeBehind(p) ? new BatchCache(store) : store;
        for (const event of events) await p.apply(event, target);
        if (target instanceof BatchCache) await target.flush();
      }
      inline?.passedApplied(p.name, last);
      await checkpoints.put({ id: p.name, position: last, version: p.version, updatedAt });
      reached.set(p.name, last);
    }
    return { reached, behind };
  });
}

/**
 * The batch's events a projection applies, in log order: those of its types past its checkpoint,
 * but for those a write of this process applied to its document already (inline).
 */
function eventsToApply(p: Projection, batch: readonly RecordedEvent[], position: number, inline?: InlineProjections): RecordedEvent[] {
  const types = new Set(p.eventTypes);
  const events: RecordedEvent[] = [];
  for (const event of batch) {
    if (event.position <= position || !types.has(event.type)) continue;
    if (inline?.takeApplied(p.name, event.position)) continue;
    events.push(event);
  }
  return events;
}

/**
 * A document projection's share of a batch: the documents its events touch are loaded in one
 * `getMany`, the events folded into them in memory (in log order, idempotent by revision: see
 * evolveDocument), and each changed document written once — put, or deleted when evolve ended it.
 */
export async function applyDocumentBatch<D extends StreamDoc>(p: DocumentProjection<D>, store: ReadStore, events: readonly RecordedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const collection = store.collection<D>(p.collection);
  const ids = events.map((event) => p.documentId(event));
  const docs = new Map<string, D | null>();
  for (const id of ids) docs.set(id, null);
  const stored = new Set<string>();
  for (const doc of await collection.getMany([...docs.keys()])) {
    docs.set(doc.id, doc);
    stored.add(doc.id);
  }
  const changed = new Set<string>();
  for (let i = 0; i < events.length; i += 1) {
    const id = ids[i];
    const current = docs.get(id) ?? null;
    const next = evolveDocument(p.evolve, current, events[i], id);
    if (next === current) continue;
    docs.set(id, next);
    changed.add(id);
  }
  for (const id of changed) {
    const doc = docs.get(id) ?? null;
    if (doc) await collection.put(doc);
    else if (stored.has(id)) await collection.delete(id);
  }
}

/**
 * Whether a projection's writes may wait for the end of the batch (a BatchCache): those of the
 * eventual lane, and views whose collections have no unique index. Written behind, documents reach
 * the store in the order they were first touched rather than the log's, so a unique key one of
 * them releases and another takes within the batch could clash for a moment; a projection with a
 * unique index writes as it goes.
 */
function writeBehind(p: Projection): boolean {
  return isEventual(p) || !hasUniqueIndex(p);
}

function hasUniqueIndex(p: Projection): boolean {
  return p.collections.some((c) => c.indexes.some((index) => index.unique === true));
}

export interface LaneOptions {
  events: EventStore;
  projections: readonly Projection[];
  batchSize: number;
  /** > 0 lets batches gather between reads while nobody waits for the lane (the eventual lane). */
  pauseMs: number;
  /** The lane's projections' stored positions (and the runner remembers them). */
  positions(projections: readonly Projection[]): Promise<number[]>;
  /** Applies one batch; true when a projection was found behind it (read the log again). */
  apply(projections: readonly Projection[], batch: readonly RecordedEvent[], from: number): Promise<boolean>;
  /** Whether a reader waits for one of these projections (then the lane does not pause). */
  waitedFor(names: readonly string[]): boolean;
  /** This process's writes, which apply their own documents before the lane's batches (read-your-writes lane). */
  inline?: InlineProjections;
  onError(error: unknown): void;
}

/** One lane: follows the log for its projections until stopped. */
export class ProjectionLane {
  private running = true;
  private subscription: EventSubscription | null = null;
  /** Ends the current pause (a reader waits for the lane, or it stops). */
  private endPause: (() => void) | null = null;
  readonly done: Promise<void>;

  constructor(private readonly options: LaneOptions) {
    this.done = this.follow();
  }

  /** Ends the lane's pause at once: someone waits for its projections. */
  wake(): void {
    this.endPause?.();
  }

  /** Stops reading: the subscription closes and `done` resolves once the current batch is applied. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.subscription?.close();
  }

  private async follow(): Promise<void> {
    const { events, projections, batchSize, pauseMs } = this.options;
    let failures = 0;
    const names = projections.map((p) => p.name);
    while (this.running) {
      let resync = false;
      let subscription: EventSubscription | null = null;
      try {
        let from = Math.min(...(await this.options.positions(projections)));
        subscription = events.subscribe({ fromPosition: from, maxBatchSize: batchSize });
        this.subscription = subscription;
        for await (const batch of subscription) {
          // The writes of this process apply their own documents first (they answer from them): a
          // turn for those under way to queue, then until they are applied.
          if (this.options.inline) {
            await yieldToEventLoop();
            await this.options.inline.settled();
          }
          if (await this.options.apply(projections, batch, from)) {
            resync = true;
            break;
          }
          from = batch[batch.length - 1].position;
          failures = 0;
          // node:sqlite is synchronous: without a turn of the event loop between batches, a long
          // catch-up would hold every HTTP request (even /health) until the end.
          if (pauseMs > 0 && batch.length < batchSize && !this.options.waitedFor(names)) await this.pause(pauseMs);
          else await yieldToEventLoop();
        }
      } catch (error) {
        if (this.running) this.options.onError(error);
      } finally {
        if (subscription) {
          await subscription.close();
          if (this.subscription === subscription) this.subscription = null;
        }
      }
      // A subscription only ends early on a failure or a closed store: back off, never spin.
      if (this.running && !resync) {
        failures += 1;
        await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** failures)));
      }
    }
  }

  /** Waits `ms`, or less when a reader of the lane starts waiting (or the lane stops). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.endPause === done) this.endPause = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.endPause = done;
    });
  }
}
