// Runs process managers: reactions to events that issue commands (append events), e.g. reverse
// matching. Each follows the log from its own checkpoint, in batches, and only after the
// projections have applied the batch, so the read models it queries reflect every event up to it.
// Delivery is at least once (a crash between handling and checkpointing replays the batch):
// process managers must be idempotent, which the deciders make them.
import type { EventStore, EventSubscription, RecordedEvent } from '../event-store/event-store.port';
import type { Collection, Doc, ReadStore } from '../read-store/read-store.port';
import { type ProjectionRunner, type RunnerLogger, yieldToEventLoop } from '../projections/projection-runner';

export interface ProcessManager {
  readonly name: string;
  readonly eventTypes: readonly string[];
  /** Handles a batch of events (only of `eventTypes`, in log order). Throwing retries the batch. */
  handle(events: readonly RecordedEvent[]): Promise<void>;
  /** Its largest batch, over the runner's `batchSize` (a manager that gains from seeing more at once). */
  readonly batchSize?: number;
}

interface PmCheckpointDoc extends Doc {
  position: number;
  updatedAt: string;
}

export const PROCESS_MANAGER_CHECKPOINTS = { name: 'process_manager_checkpoints', indexes: [] } as const;

export interface ProcessManagerRunnerOptions {
  batchSize?: number;
  logger?: RunnerLogger;
  /** How often `waitFor` polls checkpoints when the process managers run in another process. */
  pollMs?: number;
  /** Batches handled one event at a time after this many failed attempts, skipping the poison ones. */
  maxBatchAttempts?: number;
  /**
   * Where the checkpoints were kept before they moved to the store given to the constructor (the
   * eventual store): read once at start for a process manager that has none there yet, so it goes
   * on from where it stood instead of handling the whole log again.
   */
  formerCheckpoints?: ReadStore;
}

interface Running {
  pm: ProcessManager;
  position: number;
  subscription: EventSubscription | null;
  loop: Promise<void> | null;
}

export class ProcessManagerRunner {
  private readonly managers = new Map<string, Running>();
  private readonly checkpoints: Collection<PmCheckpointDoc>;
  private waiters: Array<{ name: string; position: number; resolve: (ok: boolean) => void }> = [];
  private running = false;

  constructor(
    private readonly events: EventStore,
    store: ReadStore,
    private readonly projections: ProjectionRunner,
    private readonly options: ProcessManagerRunnerOptions = {},
  ) {
    this.checkpoints = store.collection<PmCheckpointDoc>(PROCESS_MANAGER_CHECKPOINTS);
  }

  register(...pms: ProcessManager[]): void {
    for (const pm of pms) {
      if (this.managers.has(pm.name)) throw new Error(`Process manager ${pm.name} registered twice`);
      this.managers.set(pm.name, { pm, position: 0, subscription: null, loop: null });
    }
  }

  names(): string[] {
    return [...this.managers.keys()];
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (const r of this.managers.values()) {
      r.position = (await this.checkpoints.get(r.pm.name))?.position ?? (await this.formerPosition(r.pm.name));
      r.loop = this.follow(r);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const r of this.managers.values()) await r.subscription?.close();
    for (const r of this.managers.values()) {
      await r.loop;
      r.loop = null;
    }
    for (const w of this.waiters.splice(0)) w.resolve(false);
  }

  /**
   * Resolves true once the named process manager has handled the log up to `position` (which
   * must be the position of an event it handles), false after `timeoutMs`.
   */
  async waitFor(name: string, position: number, timeoutMs: number): Promise<boolean> {
    const r = this.managers.get(name);
    if (!r) throw new Error(`Unknown process manager ${name}`);
    if (this.running) {
      if (r.position >= position) return true;
      return new Promise((resolve) => {
        const waiter = {
          name,
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
    // They run in another process (the worker): watch the stored checkpoint.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (((await this.checkpoints.get(name))?.position ?? 0) >= position) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 50));
    }
  }

  /**
   * Moves every checkpoint past the log's head back to it (`projections reset`, after the log was
   * lost or replaced by an older copy): what the log holds was handled already; what it lost is
   * gone. Returns each process manager's position afterwards.
   */
  async rewindTo(head: number): Promise<Record<string, number>> {
    const positions: Record<string, number> = {};
    const updatedAt = new Date().toISOString();
    const stores = [this.checkpoints, ...(this.options.formerCheckpoints ? [this.options.formerCheckpoints.collection<PmCheckpointDoc>(PROCESS_MANAGER_CHECKPOINTS)] : [])];
    for (const checkpoints of stores) {
      const { items } = await checkpoints.find({}, { limit: 1000 });
      for (const doc of items) if (doc.position > head) await checkpoints.put({ ...doc, position: head, updatedAt });
    }
    for (const name of this.names()) positions[name] = Math.min(head, (await this.checkpoints.get(name))?.position ?? (await this.formerPosition(name)));
    return positions;
  }

  private async formerPosition(name: string): Promise<number> {
    const former = this.options.formerCheckpoints;
    if (!former) return 0;
    return (await former.collection<PmCheckpointDoc>(PROCESS_MANAGER_CHECKPOINTS).get(name))?.position ?? 0;
  }

  private async follow(r: Running): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        r.subscription = this.events.subscribe({
          fromPosition: r.position,
          filter: { types: r.pm.eventTypes },
          // Large batches: a request matched by many items of one push gets one event, not several.
          maxBatchSize: r.pm.batchSize ?? this.options.batchSize ?? 2000,
        });
        for await (const batch of r.subscription) {
          const last = batch[batch.length - 1].position;
          await this.awaitProjections(last);
          if (!this.running) break;
          await this.handle(r.pm, batch);
          await this.checkpoints.put({ id: r.pm.name, position: last, updatedAt: new Date().toISOString() });
          r.position = last;
          this.wake(r);
          failures = 0;
          await yieldToEventLoop();
        }
      } catch (error) {
        if (this.running) this.options.logger?.error(`process manager ${r.pm.name} failed; retrying`, error);
      } finally {
        await r.subscription?.close();
        r.subscription = null;
      }
      if (this.running) {
        failures += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 50 * 2 ** failures)));
      }
    }
  }

  /** The read models a process manager queries must include the events it is handling. */
  private async awaitProjections(position: number): Promise<void> {
    while (this.running && !(await this.projections.waitFor(position, 5000))) {
      this.options.logger?.info?.(`process managers waiting for projections to reach ${position}`);
    }
  }

  /** A batch that keeps failing is handled event by event; an event that still fails is logged and skipped. */
  private async handle(pm: ProcessManager, batch: readonly RecordedEvent[]): Promise<void> {
    const attempts = this.options.maxBatchAttempts ?? 3;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await pm.handle(batch);
        return;
      } catch (error) {
        if (attempt >= attempts) break;
        this.options.logger?.error(`process manager ${pm.name}: batch failed (attempt ${attempt}); retrying`, error);
        await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
    for (const event of batch) {
      try {
        await pm.handle([event]);
      } catch (error) {
        this.options.logger?.error(`process manager ${pm.name}: skipped event ${event.id} (${event.type}) at ${event.position}`, error);
      }
    }
  }

  private wake(r: Running): void {
    const ready = this.waiters.filter((w) => w.name === r.pm.name && w.position <= r.position);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(true);
  }
}
