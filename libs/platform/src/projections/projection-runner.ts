// Runs projections: each follows the log from its checkpoint and writes its documents and its
// checkpoint in one ReadStore transaction. Inside that transaction the stored checkpoint must equal
// the position the batch starts after; if another process (the CLI, a rebuild) moved it, the batch
// is dropped and the runner resubscribes from the stored checkpoint — so an event is never applied
// twice nor skipped, however many processes run the same projection.
import type { EventStore, EventSubscription, RecordedEvent } from '../event-store/event-store.port';
import type { Collection, Doc, ReadStore } from '../read-store/read-store.port';
import type { Projection } from './projection';

export interface CheckpointDoc extends Doc {
  position: number;
  version: number;
  updatedAt: string;
}

export const CHECKPOINTS = { name: 'projection_checkpoints', indexes: [] } as const;

export interface ProjectionStatus {
  name: string;
  version: number;
  position: number;
  head: number;
  /** head − position: events still to apply (on EventStoreDB, log bytes). */
  lag: number;
}

export interface RunnerLogger {
  error(message: string, error?: unknown): void;
  info?(message: string): void;
}

export interface ProjectionRunnerOptions {
  batchSize?: number;
  logger?: RunnerLogger;
  /** How often `waitFor` polls checkpoints when the projections run in another process. */
  pollMs?: number;
}

type BatchResult = { applied: number } | { moved: number };

export class ProjectionRunner {
  private readonly projections = new Map<string, Projection>();
  private readonly positions = new Map<string, number>();
  private readonly subscriptions = new Set<EventSubscription>();
  private readonly loops: Promise<void>[] = [];
  private waiters: Array<{ position: number; resolve: (ok: boolean) => void }> = [];
  private running = false;
  private readonly checkpoints: Collection<CheckpointDoc>;
  private readonly batchSize: number;
  private readonly pollMs: number;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.checkpoints = store.collection<CheckpointDoc>(CHECKPOINTS);
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 10;
  }

  register(...projections: Projection[]): void {
    for (const p of projections) {
      if (this.projections.has(p.name)) throw new Error(`Projection ${p.name} registered twice`);
      this.projections.set(p.name, p);
    }
  }

  names(): string[] {
    return [...this.projections.keys()];
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Rebuilds projections whose version changed, then follows the log live. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (const p of this.projections.values()) {
      const cp = await this.checkpoints.get(p.name);
      if (cp && cp.version !== p.version) await this.reset(p);
      this.positions.set(p.name, (await this.checkpoints.get(p.name))?.position ?? 0);
      this.loops.push(this.follow(p));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await Promise.all(this.loops.splice(0));
    for (const w of this.waiters.splice(0)) w.resolve(false);
  }

  /** Applies everything up to the head of the log (used by the CLI and tests). */
  async catchUp(names: readonly string[] = this.names()): Promise<void> {
    for (const name of names) {
      const p = this.get(name);
      for (;;) {
        const from = await this.checkpointOf(p);
        const batch = await this.events.readAll({ fromPosition: from, limit: this.batchSize });
        if (batch.length === 0) break;
        await this.applyBatch(p, batch, from);
      }
    }
  }

  /** Drops the projection's documents and replays the whole log into them. */
  async rebuild(name: string): Promise<void> {
    const p = this.get(name);
    await this.reset(p);
    await this.catchUp([name]);
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.events.headPosition();
    const result: ProjectionStatus[] = [];
    for (const p of this.projections.values()) {
      const position = await this.checkpointOf(p);
      result.push({ name: p.name, version: p.version, position, head, lag: Math.max(0, head - position) });
    }
    return result;
  }

  /**
   * Resolves true once every projection has applied the log up to `position` (read-your-writes),
   * false after `timeoutMs`.
   */
  async waitFor(position: number, timeoutMs: number): Promise<boolean> {
    if (this.running) {
      if (this.caughtUp(position)) return true;
      return new Promise((resolve) => {
        const waiter = {
          position,
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
      });
    }
    // The projections run in another process (the worker): watch their checkpoints.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const positions = await Promise.all([...this.projections.values()].map((p) => this.checkpointOf(p)));
      if (positions.every((p) => p >= position)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  private caughtUp(position: number): boolean {
    for (const name of this.projections.keys()) if ((this.positions.get(name) ?? 0) < position) return false;
    return true;
  }

  private async follow(p: Projection): Promise<void> {
    let failures = 0;
    while (this.running) {
      let from = await this.checkpointOf(p).catch(() => this.positions.get(p.name) ?? 0);
      let moved = false;
      const subscription = this.events.subscribe({ fromPosition: from, maxBatchSize: this.batchSize });
      this.subscriptions.add(subscription);
      try {
        for await (const batch of subscription) {
          const result = await this.applyBatch(p, batch, from);
          if ('moved' in result) {
            moved = true;
            break;
          }
          from = result.applied;
          failures = 0;
        }
      } catch (error) {
        if (this.running) this.options.logger?.error(`projection ${p.name} failed; retrying`, error);
      } finally {
        this.subscriptions.delete(subscription);
        await subscription.close();
      }
      // A subscription only ends early on a failure or a closed store: back off, never spin.
      if (this.running && !moved) {
        failures += 1;
        await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** failures)));
      }
    }
  }

  private async applyBatch(p: Projection, batch: readonly RecordedEvent[], from: number): Promise<BatchResult> {
    const last = batch[batch.length - 1].position;
    const result = await this.store.transaction(async (): Promise<BatchResult> => {
      const current = (await this.checkpoints.get(p.name))?.position ?? 0;
      if (current !== from) return { moved: current };
      for (const event of batch) {
        if (p.eventTypes.includes(event.type)) await p.apply(event, this.store);
      }
      await this.checkpoints.put({ id: p.name, position: last, version: p.version, updatedAt: new Date().toISOString() });
      return { applied: last };
    });
    this.advance(p.name, 'applied' in result ? result.applied : result.moved);
    return result;
  }

  private async reset(p: Projection): Promise<void> {
    await this.store.transaction(async () => {
      for (const spec of p.collections) await this.store.collection(spec).clear();
      await this.checkpoints.put({ id: p.name, position: 0, version: p.version, updatedAt: new Date().toISOString() });
    });
    this.positions.set(p.name, 0);
  }

  private advance(name: string, position: number): void {
    this.positions.set(name, position);
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => this.caughtUp(w.position));
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(true);
  }

  private async checkpointOf(p: Projection): Promise<number> {
    return (await this.checkpoints.get(p.name))?.position ?? 0;
  }

  private get(name: string): Projection {
    const p = this.projections.get(name);
    if (!p) throw new Error(`Unknown projection: ${name} (known: ${this.names().join(', ')})`);
    return p;
  }
}
