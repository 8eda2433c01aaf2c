// Runs projections: registers them, runs their lanes (ProjectionLane: a subscription each, every
// batch applied in one transaction with the checkpoints), rebuilds them, and says how far they
// stand to those who wait for them (ProjectionWaiters), here or in the linked process.
//
// No write waits for the runner: a resource's own read model is an inline projection the write
// applies itself (InlineProjections), which the runner then passes over. Two lanes: the first
// (named read-your-writes in `consistency`: the inline projections and everything else but
// analytics) follows the log batch by batch as it grows; the eventual one (analytics) pauses
// between batches while nobody waits for it, so each batch gathers many events and is applied
// through a BatchCache. A route that reads a projection following the log waits for it by name
// (`waitFor(position, timeout, [name])`), which ends the eventual lane's pause at once.
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { ReadStore } from '../read-store/read-store.port';
import type { WorkerChannel } from '../workers/worker-channel';
import { isDocumentProjection, isEventual, type Projection } from './projection';
import { ProjectionCheckpoints } from './projection-checkpoints';
import { applyBatchTo, ProjectionLane } from './projection-lane';
import { listenToLinkedRunner } from './projection-link';
import type { ProjectionRunnerOptions, ProjectionStatus } from './projection-runner-options';
import { pollUntilCaughtUp, ProjectionWaiters } from './projection-waiters';

export { CHECKPOINTS, type CheckpointDoc } from './projection-checkpoints';
export { yieldToEventLoop } from './projection-lane';
export type { ProjectionRunnerOptions, ProjectionStatus, RunnerLogger } from './projection-runner-options';

export class ProjectionRunner {
  private readonly projections = new Map<string, Projection>();
  private readonly positions = new Map<string, number>();
  private readonly waiters = new ProjectionWaiters(this.positions);
  private lanes: ProjectionLane[] = [];
  /** The lane of the eventual projections, whose pause a reader waiting for them ends. */
  private eventualLane: ProjectionLane | null = null;
  private running = false;
  private readonly checkpoints: ProjectionCheckpoints;
  private readonly batchSize: number;
  private readonly eventualBatchSize: number;
  private readonly eventualIntervalMs: number;
  private readonly pollMs: number;
  private readonly localLanes: { primary: boolean; eventual: boolean };
  /** The worker process this one is linked to (WORKER_MODE=process), on either side. */
  private channel: WorkerChannel | null = null;

  constructor(
    private readonly events: EventStore,
    store: ReadStore,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.checkpoints = new ProjectionCheckpoints(store, options.eventualStore ?? store);
    this.batchSize = options.batchSize ?? 2000;
    this.eventualBatchSize = options.eventualBatchSize ?? 1000;
    this.eventualIntervalMs = options.eventualIntervalMs ?? 100;
    this.pollMs = options.pollMs ?? 10;
    this.localLanes = options.lanes ?? { primary: true, eventual: true };
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
    listenToLinkedRunner(channel, {
      positions: this.positions,
      isLocal: (name) => this.isLocal(name),
      knows: (name) => this.projections.has(name),
      wakeEventual: () => this.eventualLane?.wake(),
      wakeWaiters: () => this.waiters.wake(),
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
      const cp = await this.checkpoints.get(p);
      if (cp && cp.version !== p.version) await this.reset(p);
    }
    await this.refreshPositions(this.all());
    const primary = this.all().filter((p) => !isEventual(p));
    const eventual = this.all().filter(isEventual);
    if (this.localLanes.primary && primary.length > 0) {
      this.options.inline?.trackApplied(true);
      this.lanes.push(this.lane(primary, this.batchSize, 0));
    }
    if (this.localLanes.eventual && eventual.length > 0) {
      this.eventualLane = this.lane(eventual, this.eventualBatchSize, this.eventualIntervalMs);
      this.lanes.push(this.eventualLane);
    }
  }

  /** Follows the log for one lane's projections; `pauseMs` > 0 lets batches gather (eventual lane). */
  private lane(projections: readonly Projection[], batchSize: number, pauseMs: number): ProjectionLane {
    return new ProjectionLane({
      events: this.events,
      projections,
      batchSize,
      pauseMs,
      positions: (selected) => this.refreshPositions(selected),
      apply: (selected, batch, from) => this.applyBatch(selected, batch, from),
      waitedFor: (names) => this.waiters.waitsForAny(names),
      inline: pauseMs === 0 ? this.options.inline : undefined,
      onError: (error) => this.options.logger?.error('projections failed; retrying', error),
    });
  }

  /** Whether this process applies the projection (running, and its lane is one of ours). */
  private isLocal(name: string): boolean {
    const p = this.projections.get(name);
    return this.running && p !== undefined && (isEventual(p) ? this.localLanes.eventual : this.localLanes.primary);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.options.inline?.trackApplied(false);
    const lanes = this.lanes.splice(0);
    this.eventualLane = null;
    for (const lane of lanes) await lane.stop();
    await Promise.all(lanes.map((lane) => lane.done));
    this.waiters.cancelAll();
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

  /**
   * Drops the projections' documents and replays the whole log into them — in one pass for all of
   * them: each batch is read once and handed to every one (see applyBatchTo).
   */
  async rebuild(names: string | readonly string[], onBatch?: (progress: { position: number; events: number }) => void): Promise<void> {
    const selected = (typeof names === 'string' ? [names] : names).map((n) => this.get(n));
    for (const p of selected) await this.reset(p);
    await this.catchUp(
      selected.map((p) => p.name),
      onBatch,
    );
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
      const position = await this.checkpoints.positionOf(p);
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
    return this.checkpoints.positionOf(p);
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
    if (this.waiters.caughtUp(position, names)) return Promise.resolve(true);
    const waiting = this.waiters.wait(position, timeoutMs, names);
    if (names.some((n) => isEventual(this.get(n)))) this.eventualLane?.wake();
    return waiting;
  }

  /** waitFor for projections another process applies: by its reports when linked, else by polling the checkpoints. */
  private async waitForRemote(position: number, timeoutMs: number, names: readonly string[]): Promise<boolean> {
    const selected = names.map((n) => this.get(n));
    if (!this.channel) return pollUntilCaughtUp(position, timeoutMs, () => this.refreshPositions(selected), this.pollMs);
    // Linked to the worker applying them: resolved by its checkpoint reports, with a slow poll of
    // the stored checkpoints beside them. A read older than a report may move a position back for
    // a moment, which only delays a waiter; taking the larger of the two could end one wrongly
    // after a rebuild.
    if (this.waiters.caughtUp(position, names)) return true;
    const waiting = this.waiters.waitLinked(position, timeoutMs, names, async () => void (await this.refreshPositions(selected)), Math.max(this.pollMs, 200));
    this.channel.send({ t: 'wake' });
    return waiting;
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

  /**
   * Applies a batch to the given projections (see applyBatchTo), then moves their positions and
   * tells the waiters (and the linked process). Returns true when a projection's checkpoint is
   * behind `from` (it was reset by another process), so the caller must read the log again from
   * there.
   */
  private async applyBatch(projections: readonly Projection[], batch: readonly RecordedEvent[], from: number): Promise<boolean> {
    let behind = false;
    // One transaction per store: a projection's documents and its checkpoint always share one.
    for (const [store, group] of this.checkpoints.byStore(projections)) {
      const applied = await applyBatchTo(store, this.checkpoints.of(group[0]), group, batch, from, this.options.inline);
      for (const [name, position] of applied.reached) this.positions.set(name, position);
      this.waiters.wake();
      if (this.channel && applied.reached.size > 0) this.channel.send({ t: 'positions', positions: Object.fromEntries(applied.reached) });
      if (applied.behind) behind = true;
    }
    return behind;
  }

  private async reset(p: Projection): Promise<void> {
    await this.checkpoints.reset(p);
    this.options.inline?.resetApplied();
    this.positions.set(p.name, 0);
  }

  /** Reads the stored checkpoints of these projections (0 when none) and remembers them. */
  private async refreshPositions(projections: readonly Projection[]): Promise<number[]> {
    const byName = await this.checkpoints.positions(projections);
    return projections.map((p) => {
      const position = byName.get(p.name) ?? 0;
      this.positions.set(p.name, position);
      return position;
    });
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
