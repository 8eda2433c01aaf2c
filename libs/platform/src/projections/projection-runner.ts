// Runs projections. One subscription follows the log for all of them, and each batch is applied in
// one ReadStore transaction that writes every projection's documents and checkpoint. Inside that
// transaction each projection applies only the events after its own stored checkpoint; if that
// checkpoint is behind the batch (another process reset it: a rebuild), the runner resubscribes
// from it. So an event is never applied twice nor skipped, however many processes run projections.
//
// No write waits for the runner: a resource's own read model is an inline projection the write
// applies itself (InlineProjections), which the runner then finds applied. Two lanes: the first
// (named read-your-writes in `consistency`: the inline projections and everything else but
// analytics) follows the log batch by batch as it grows; the eventual one (analytics) follows it on
// its own subscription, pausing between batches while nobody waits for it, so each batch gathers
// many events and is applied through a BatchCache — the aggregates every event touches are read and
// written once a batch. A route that reads a projection following the log waits for it by name
// (`waitFor(position, timeout, [name])`), which ends the eventual lane's pause at once.
import type { EventStore, EventSubscription, RecordedEvent } from '../event-store/event-store.port';
import type { Collection, Doc, ReadStore } from '../read-store/read-store.port';
import type { WorkerChannel } from '../workers/worker-channel';
import { BatchCache } from './batch-cache';
import type { InlineProjections } from './inline-projections';
import { isDocumentProjection, isEventual, type Projection, type ProjectionConsistency } from './projection';

export interface CheckpointDoc extends Doc {
  position: number;
  version: number;
  updatedAt: string;
}

/** Lets I/O callbacks (HTTP requests, timers) run before the next batch. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export const CHECKPOINTS = { name: 'projection_checkpoints', indexes: [] } as const;

export interface ProjectionStatus {
  name: string;
  version: number;
  position: number;
  head: number;
  /** head − position: events still to apply (on EventStoreDB, log bytes). */
  lag: number;
  consistency: ProjectionConsistency;
}

export interface RunnerLogger {
  error(message: string, error?: unknown): void;
  info?(message: string): void;
}

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** The eventual lane's largest batch (default 1000): its transaction holds the read store's writer. */
  eventualBatchSize?: number;
  /** The eventual lane's pause between batches while nobody waits for it (default 100 ms). */
  eventualIntervalMs?: number;
  logger?: RunnerLogger;
  /** How often `waitFor` polls checkpoints when the projections run in another process (default 10 ms; 200 ms when linked to it). */
  pollMs?: number;
  /** The lanes this process runs once started (default both); the others run in the linked process. */
  lanes?: { primary: boolean; eventual: boolean };
  /**
   * Where the eventual lane's read models and checkpoints live (default: the same store). On SQLite
   * a file of its own: the process applying that lane then never takes the write lock of the file
   * the read-your-writes lane commits to (see createEventualReadStore).
   */
  eventualStore?: ReadStore;
  /** Where the inline projections are registered too, for the write path to apply (see InlineProjections). */
  inline?: InlineProjections;
}

export class ProjectionRunner {
  private readonly projections = new Map<string, Projection>();
  private readonly positions = new Map<string, number>();
  private readonly subscriptions = new Set<EventSubscription>();
  private loops: Promise<void>[] = [];
  private waiters: Array<{ position: number; names: readonly string[]; resolve: (ok: boolean) => void }> = [];
  /** Ends the eventual lane's pause (a reader waits for it, or the runner stops). */
  private wakeEventual: (() => void) | null = null;
  private running = false;
  private readonly checkpoints: Collection<CheckpointDoc>;
  private readonly eventualStore: ReadStore;
  private readonly eventualCheckpoints: Collection<CheckpointDoc>;
  private readonly batchSize: number;
  private readonly eventualBatchSize: number;
  private readonly eventualIntervalMs: number;
  private readonly pollMs: number;
  private readonly lanes: { primary: boolean; eventual: boolean };
  /** The worker process this one is linked to (WORKER_MODE=process), on either side. */
  private channel: WorkerChannel | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.checkpoints = store.collection<CheckpointDoc>(CHECKPOINTS);
    this.eventualStore = options.eventualStore ?? store;
    this.eventualCheckpoints = this.eventualStore === store ? this.checkpoints : this.eventualStore.collection<CheckpointDoc>(CHECKPOINTS);
    this.batchSize = options.batchSize ?? 2000;
    this.eventualBatchSize = options.eventualBatchSize ?? 1000;
    this.eventualIntervalMs = options.eventualIntervalMs ?? 100;
    this.pollMs = options.pollMs ?? 10;
    this.lanes = options.lanes ?? { primary: true, eventual: true };
  }

  register(...projections: Projection[]): void {
    for (const p of projections) {
      if (this.projections.has(p.name)) throw new Error(`Projection ${p.name} registered twice`);
      this.projections.set(p.name, p);
      if (isDocumentProjection(p) && p.inline) this.options.inline?.register(p);
    }
  }

  /**
   * Links this runner to the one in the other process: the side that runs the projections reports
   * each batch's checkpoints and ends the eventual lane's pause when asked; the other side resolves
   * its waiters on those reports (and still polls the checkpoints, slowly, as a fallback).
   */
  link(channel: WorkerChannel): void {
    this.channel = channel;
    channel.onMessage((message) => {
      if (message.t === 'wake') {
        // Someone waits: end the eventual lane's pause, and say where every projection stands now
        // (a waiter for a position applied already would otherwise wait for the next batch).
        this.wakeEventual?.();
        const local = [...this.positions].filter(([name]) => this.isLocal(name));
        if (local.length > 0) channel.send({ t: 'positions', positions: Object.fromEntries(local) });
      } else if (message.t === 'positions') {
        // The other process's word on its own projections is exact (a rebuild there moves a
        // checkpoint back): taken as said, never as a maximum; ours stay ours.
        for (const [name, position] of Object.entries(message.positions)) {
          if (typeof position === 'number' && this.projections.has(name) && !this.isLocal(name)) this.positions.set(name, position);
        }
        this.wakeWaiters();
      }
    });
  }

  names(): string[] {
    return [...this.projections.keys()];
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Rebuilds this process's projections whose version changed, then follows the log live (its lanes). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (const p of this.projections.values()) {
      if (!this.isLocal(p.name)) continue;
      const cp = await this.checkpointsOf(p).get(p.name);
      if (cp && cp.version !== p.version) await this.reset(p);
    }
    await this.refreshPositions(this.all());
    const primary = this.all().filter((p) => !isEventual(p));
    const eventual = this.all().filter(isEventual);
    if (this.lanes.primary && primary.length > 0) {
      this.options.inline?.trackApplied(true);
      this.loops.push(this.follow(primary, this.batchSize, 0));
    }
    if (this.lanes.eventual && eventual.length > 0) this.loops.push(this.follow(eventual, this.eventualBatchSize, this.eventualIntervalMs));
  }

  /** Whether this process applies the projection (running, and its lane is one of ours). */
  private isLocal(name: string): boolean {
    const p = this.projections.get(name);
    return this.running && p !== undefined && (isEventual(p) ? this.lanes.eventual : this.lanes.primary);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.options.inline?.trackApplied(false);
    this.wakeEventual?.();
    for (const s of this.subscriptions) await s.close();
    await Promise.all(this.loops);
    this.loops = [];
    for (const w of this.waiters.splice(0)) w.resolve(false);
  }

  /**
   * Applies everything up to the head of the log (used by the CLI and tests); `onBatch` hears of
   * each batch applied (the log position reached, and how many events were read).
   */
  async catchUp(names: readonly string[] = this.names(), onBatch?: (progress: { position: number; events: number }) => void): Promise<void> {
    const selected = names.map((n) => this.get(n));
    if (selected.length === 0) return;
    for (;;) {
      const from = Math.min(...(await this.refreshPositions(selected)));
      const batch = await this.events.readAll({ fromPosition: from, limit: this.batchSize });
      if (batch.length === 0) return;
      await this.applyBatch(selected, batch, from);
      onBatch?.({ position: batch[batch.length - 1].position, events: batch.length });
    }
  }

  /** Drops the projection's documents and replays the whole log into them. */
  async rebuild(name: string, onBatch?: (progress: { position: number; events: number }) => void): Promise<void> {
    const p = this.get(name);
    await this.reset(p);
    await this.catchUp([name], onBatch);
  }

  /**
   * Drops every projection's documents and sets its checkpoint back to the start of the log, to be
   * rebuilt by whichever process runs the projections next (`projections reset`: the read side
   * starts over from the log as it is, after the log was lost or replaced).
   */
  async resetAll(): Promise<string[]> {
    for (const p of this.projections.values()) await this.reset(p);
    return this.names();
  }

  /** The log's head position (what a rebuild runs up to). */
  headPosition(): Promise<number> {
    return this.events.headPosition();
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.events.headPosition();
    const result: ProjectionStatus[] = [];
    for (const p of this.projections.values()) {
      const position = await this.checkpointOf(p);
      result.push({ name: p.name, version: p.version, position, head, lag: Math.max(0, head - position), consistency: p.consistency ?? 'read-your-writes' });
    }
    return result;
  }

  /**
   * A position the named projection has certainly applied (a lower bound: it may be further by
   * the time the caller reads its documents). In another process's view, its stored checkpoint.
   */
  async appliedPosition(name: string): Promise<number> {
    const p = this.get(name);
    if (this.isLocal(name)) return this.positions.get(name) ?? 0;
    return this.checkpointOf(p);
  }

  /**
   * Resolves true once the named projections — by default every read-your-writes one — have
   * applied the log up to `position`, false after `timeoutMs`.
   */
  async waitFor(position: number, timeoutMs: number, names: readonly string[] = this.readYourWritesNames()): Promise<boolean> {
    for (const name of names) this.get(name);
    const local = names.filter((n) => this.isLocal(n));
    const remote = names.filter((n) => !this.isLocal(n));
    if (remote.length === 0) return this.waitForLocal(position, timeoutMs, local);
    if (local.length === 0) return this.waitForRemote(position, timeoutMs, remote);
    const [here, there] = await Promise.all([this.waitForLocal(position, timeoutMs, local), this.waitForRemote(position, timeoutMs, remote)]);
    return here && there;
  }

  /** waitFor for projections this process applies. */
  private waitForLocal(position: number, timeoutMs: number, names: readonly string[]): Promise<boolean> {
    if (this.caughtUp(position, names)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        position,
        names,
        resolve: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
      if (names.some((n) => isEventual(this.get(n)))) this.wakeEventual?.();
    });
  }

  /** waitFor for projections another process applies: by its reports when linked, else by polling the checkpoints. */
  private async waitForRemote(position: number, timeoutMs: number, names: readonly string[]): Promise<boolean> {
    if (this.channel) return this.waitForLinked(position, timeoutMs, names);
    // The projections run in another process (the worker): watch their checkpoints.
    const deadline = Date.now() + timeoutMs;
    const selected = names.map((n) => this.get(n));
    for (;;) {
      const positions = await this.refreshPositions(selected);
      if (positions.every((p) => p >= position)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  /**
   * waitFor when the projections run in the linked worker: resolved by its checkpoint reports, with
   * a slow poll of the stored checkpoints beside them (a report lost to a worker restart).
   */
  private async waitForLinked(position: number, timeoutMs: number, names: readonly string[]): Promise<boolean> {
    const selected = names.map((n) => this.get(n));
    if (this.caughtUp(position, names)) return true;
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(ok);
      };
      const waiter = { position, names, resolve: finish };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const poll = setInterval(() => {
        this.refreshKnownPositions(selected).then(
          () => this.wakeWaiters(),
          () => undefined,
        );
      }, Math.max(this.pollMs, 200));
      this.waiters.push(waiter);
      this.channel?.send({ t: 'wake' });
    });
  }

  /**
   * The stored checkpoints. A read older than a report may move a position back for a moment,
   * which only delays a waiter; taking the larger of the two could end one wrongly after a rebuild.
   */
  private async refreshKnownPositions(projections: readonly Projection[]): Promise<void> {
    await this.refreshPositions(projections);
  }

  /**
   * Waits (bounded) until the named projections have applied the whole log as it stands now: what
   * a reader of an eventual projection calls first, so it sees every write answered before it.
   */
  async waitForHead(names: readonly string[], timeoutMs: number): Promise<boolean> {
    return this.waitFor(await this.events.headPosition(), timeoutMs, names);
  }

  private readYourWritesNames(): string[] {
    return this.all()
      .filter((p) => !isEventual(p))
      .map((p) => p.name);
  }

  private caughtUp(position: number, names: readonly string[]): boolean {
    for (const name of names) if ((this.positions.get(name) ?? 0) < position) return false;
    return true;
  }

  /** Follows the log for one lane's projections; `pauseMs` > 0 lets batches gather (eventual lane). */
  private async follow(projections: readonly Projection[], batchSize: number, pauseMs: number): Promise<void> {
    let failures = 0;
    const names = projections.map((p) => p.name);
    while (this.running) {
      let resync = false;
      let subscription: EventSubscription | null = null;
      try {
        let from = Math.min(...(await this.refreshPositions(projections)));
        subscription = this.events.subscribe({ fromPosition: from, maxBatchSize: batchSize });
        this.subscriptions.add(subscription);
        for await (const batch of subscription) {
          // The writes of this process apply their own documents first (they answer from them):
          // a turn for those under way to queue, then until they are applied.
          if (pauseMs === 0 && this.options.inline) {
            await yieldToEventLoop();
            await this.options.inline.settled();
          }
          if (await this.applyBatch(projections, batch, from)) {
            resync = true;
            break;
          }
          from = batch[batch.length - 1].position;
          failures = 0;
          // node:sqlite is synchronous: without a turn of the event loop between batches, a long
          // catch-up would hold every HTTP request (even /health) until the end.
          if (pauseMs > 0 && batch.length < batchSize && !this.waiters.some((w) => w.names.some((n) => names.includes(n)))) await this.pause(pauseMs);
          else await yieldToEventLoop();
        }
      } catch (error) {
        if (this.running) this.options.logger?.error('projections failed; retrying', error);
      } finally {
        if (subscription) {
          await subscription.close();
          this.subscriptions.delete(subscription);
        }
      }
      // A subscription only ends early on a failure or a closed store: back off, never spin.
      if (this.running && !resync) {
        failures += 1;
        await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** failures)));
      }
    }
  }

  /** Waits `ms`, or less when a reader of the eventual lane starts waiting (or the runner stops). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeEventual === done) this.wakeEventual = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeEventual = done;
    });
  }

  /**
   * Applies a batch — every event after `from` up to its last — to the given projections in one
   * transaction; an eventual projection through a BatchCache flushed before its checkpoint. Returns true when a projection's checkpoint is behind `from` (it was reset by
   * another process), so the caller must read the log again from there.
   */
  private async applyBatch(projections: readonly Projection[], batch: readonly RecordedEvent[], from: number): Promise<boolean> {
    let behind = false;
    // One transaction per store: a projection's documents and its checkpoint always share one.
    for (const [store, group] of this.byStore(projections)) {
      if (await this.applyBatchTo(store, group, batch, from)) behind = true;
    }
    return behind;
  }

  private async applyBatchTo(store: ReadStore, projections: readonly Projection[], batch: readonly RecordedEvent[], from: number): Promise<boolean> {
    const last = batch[batch.length - 1].position;
    const updatedAt = new Date().toISOString();
    const checkpoints = this.checkpointsOf(projections[0]);
    const { reached, behind } = await store.transaction(async () => {
      const stored = await checkpoints.getMany(projections.map((p) => p.name));
      const byName = new Map(stored.map((cp) => [cp.id, cp.position]));
      const reachedInTx = new Map<string, number>();
      let behindInTx = false;
      for (const p of projections) {
        const position = byName.get(p.name) ?? 0;
        if (position < from) {
          // Reset by another process (a rebuild): its documents are gone, so are the writes' marks.
          this.options.inline?.resetApplied();
          behindInTx = true;
          reachedInTx.set(p.name, position);
          continue;
        }
        if (position >= last) {
          reachedInTx.set(p.name, position);
          continue;
        }
        const target = isEventual(p) ? new BatchCache(store) : store;
        // An event a write of this process applied inline already is passed over, not read again.
        const inline = isDocumentProjection(p) && p.inline ? this.options.inline : undefined;
        for (const event of batch) {
          if (event.position <= position || !p.eventTypes.includes(event.type)) continue;
          if (inline?.takeApplied(p.name, event.position)) continue;
          await p.apply(event, target);
        }
        inline?.passedApplied(p.name, last);
        if (target instanceof BatchCache) await target.flush();
        await checkpoints.put({ id: p.name, position: last, version: p.version, updatedAt });
        reachedInTx.set(p.name, last);
      }
      return { reached: reachedInTx, behind: behindInTx };
    });
    for (const [name, position] of reached) this.positions.set(name, position);
    this.wakeWaiters();
    if (this.channel && reached.size > 0) this.channel.send({ t: 'positions', positions: Object.fromEntries(reached) });
    return behind;
  }

  private async reset(p: Projection): Promise<void> {
    const store = this.storeOf(p);
    await store.transaction(async () => {
      for (const spec of p.collections) await store.collection(spec).clear();
      await this.checkpointsOf(p).put({ id: p.name, position: 0, version: p.version, updatedAt: new Date().toISOString() });
    });
    this.options.inline?.resetApplied();
    this.positions.set(p.name, 0);
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => this.caughtUp(w.position, w.names));
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(true);
  }

  /** Reads the stored checkpoints of these projections (0 when none) and remembers them. */
  private async refreshPositions(projections: readonly Projection[]): Promise<number[]> {
    const byName = new Map<string, number>();
    for (const group of this.byStore(projections).values()) {
      for (const cp of await this.checkpointsOf(group[0]).getMany(group.map((p) => p.name))) byName.set(cp.id, cp.position);
    }
    return projections.map((p) => {
      const position = byName.get(p.name) ?? 0;
      this.positions.set(p.name, position);
      return position;
    });
  }

  private async checkpointOf(p: Projection): Promise<number> {
    return (await this.checkpointsOf(p).get(p.name))?.position ?? 0;
  }

  /** The store holding the projection's documents and checkpoint (its lane's). */
  private storeOf(p: Projection): ReadStore {
    return isEventual(p) ? this.eventualStore : this.store;
  }

  private checkpointsOf(p: Projection): Collection<CheckpointDoc> {
    return isEventual(p) ? this.eventualCheckpoints : this.checkpoints;
  }

  /** The projections grouped by the store they live in (one group when both lanes share one). */
  private byStore(projections: readonly Projection[]): Map<ReadStore, Projection[]> {
    const groups = new Map<ReadStore, Projection[]>();
    for (const p of projections) {
      const store = this.storeOf(p);
      const group = groups.get(store);
      if (group) group.push(p);
      else groups.set(store, [p]);
    }
    return groups;
  }

  private all(): Projection[] {
    return [...this.projections.values()];
  }

  private get(name: string): Projection {
    const p = this.projections.get(name);
    if (!p) throw new Error(`Unknown projection: ${name} (known: ${this.names().join(', ')})`);
    return p;
  }
}
