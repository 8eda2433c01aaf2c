// Durable timers: records in the store read by one scheduler. A context declares which of its
// events schedule or cancel timers (a TimerSource, read from the log by the `timers` projection)
// and what fires them (a TimerHandler per kind). The scheduler runs where the workers run: it
// polls the due pending timers, oldest first, and hands them to their handlers in batches.
//
// Exactly once in effect: a timer stays pending until the event recording its effect cancels it
// (e.g. `hold.expired` cancels `hold-expiry:hld_…`), so a crash, a restart or a second worker
// process only ever fires it again, and the handler — a command through the write path, whose
// decider decides nothing the second time and whose append carries the expected revision — turns
// every extra fire into a no-op. The handler must decide on the subject's state, not on the timer:
// a timer document can lag behind the log (a hold extended a moment ago is still due in it).
import type { Clock } from '../clock';
import type { EventStore } from '../event-store/event-store.port';
import type { ProjectionRunner } from '../projections/projection-runner';
import type { ReadStore } from '../read-store/read-store.port';
import { describeError, type TimerLogger, type TimerPass, TimerScheduler } from './timer-scheduler';
import type { TimerHandler, TimerSource } from './timer-types';
import { type TimerDoc, TIMERS, TimersProjection } from './timers.projection';

export type { DueTimer, TimerHandler, TimerSource } from './timer-types';

export interface DurableTimersOptions {
  /** How often due timers are looked for (TIMER_POLL_MS); default 250. */
  pollMs?: number;
  /** Timers read, and at most handed to one handler, at once; default 500. */
  batchSize?: number;
  /** Delay before a timer that failed (or fired and is still pending) is fired again; doubles each time. Default 1000. */
  retryMs?: number;
  /** The longest such delay; default 300000 (5 minutes). */
  maxRetryMs?: number;
  logger?: TimerLogger;
}

export type { TimerLogger, TimerPass } from './timer-scheduler';
export { type TimerDoc, TIMERS, TIMERS_PROJECTION } from './timers.projection';

const silent: TimerLogger = { error: () => undefined, warn: () => undefined };

export class DurableTimers {
  private readonly projection: TimersProjection;
  private readonly scheduler: TimerScheduler;
  private readonly logger: TimerLogger;
  private readonly pollMs: number;
  private registered = false;
  private running = false;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private failures = 0;
  private current: Promise<TimerPass> | null = null;
  private queued: Promise<TimerPass> | null = null;

  constructor(
    events: Pick<EventStore, 'headPosition'>,
    reads: ReadStore,
    private readonly projections: ProjectionRunner,
    clock: Clock,
    options: DurableTimersOptions = {},
  ) {
    this.logger = options.logger ?? silent;
    this.pollMs = options.pollMs ?? 250;
    this.projection = new TimersProjection((reason) => this.logger.error(`timer left out: ${reason}`));
    this.scheduler = new TimerScheduler({
      events,
      timers: reads.collection<TimerDoc>(TIMERS),
      projections,
      clock,
      logger: this.logger,
      batchSize: options.batchSize ?? 500,
      retry: { firstMs: options.retryMs ?? 1000, maxMs: options.maxRetryMs ?? 300_000 },
    });
  }

  /** Adds a source (from a module's onModuleInit: before the projections start). */
  register(source: TimerSource): void {
    if (this.projections.isRunning) {
      throw new Error(`Timer source ${source.name} registered after the projections started (register it in onModuleInit)`);
    }
    this.projection.add(source);
    if (!this.registered) {
      this.projections.register(this.projection);
      this.registered = true;
    }
  }

  /** Adds the handler of one kind of timer. */
  handle(handler: TimerHandler): void {
    this.scheduler.handle(handler);
  }

  sources(): string[] {
    return this.projection.sourceNames();
  }

  kinds(): string[] {
    return this.scheduler.kinds();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts polling (where the workers run); a process without sources has nothing to poll. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.arm(0);
  }

  /** Stops polling; a walk under way stops after its current page, whose handlers finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([this.current, this.queued]);
    this.stopping = false;
  }

  /** Looks for due timers now instead of at the next poll (no-op where the scheduler does not run). */
  wake(): void {
    this.arm(0);
  }

  /**
   * Fires every timer due at the clock's now, and resolves when done. A walk under way finishes
   * first (walks never overlap); calls made meanwhile share the one walk that follows it.
   */
  runDue(): Promise<TimerPass> {
    if (this.queued) return this.queued;
    if (this.current) {
      const next: Promise<TimerPass> = this.current.then(
        () => this.begin(),
        () => this.begin(),
      );
      this.queued = next;
      return next;
    }
    return this.begin();
  }

  private begin(): Promise<TimerPass> {
    this.queued = null;
    const walk: Promise<TimerPass> = this.registered
      ? this.scheduler.pass(() => !this.stopping)
      : Promise.resolve({ due: 0, fired: 0, failed: 0, waiting: 0 });
    const tracked = walk.finally(() => {
      if (this.current === tracked) this.current = null;
    });
    this.current = tracked;
    return tracked;
  }

  /** The next poll in `ms`, unless one is due sooner. */
  private arm(ms: number): void {
    if (!this.running || !this.registered) return;
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    try {
      await this.runDue();
      this.failures = 0;
    } catch (error) {
      // The store is unreachable, say: back off (up to 5 s between tries), never crash.
      this.failures += 1;
      this.logger.error(`looking for due timers failed (${describeError(error)}); retrying`);
    }
    this.arm(this.failures === 0 ? this.pollMs : Math.min(5000, this.pollMs * 2 ** this.failures));
  }
}
