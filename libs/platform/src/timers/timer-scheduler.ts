// One walk over the due timers: reads the pending timers whose dueAt has passed, oldest first, a
// page at a time; leaves out those this process fired a moment ago (their cancel is still on its
// way through the projection) or is backing off; and hands the rest, grouped by kind, to the
// handlers, one batch per kind and page. A handler that throws never stops the walk: its batch is
// fired again one timer at a time (so one bad timer holds back no other), and what still fails is
// retried on a later walk, after a backoff.
import type { Clock } from '../clock';
import type { EventStore } from '../event-store/event-store.port';
import { type ProjectionRunner, yieldToEventLoop } from '../projections/projection-runner';
import type { Collection } from '../read-store/read-store.port';
import { TimerAttempts, type RetryPolicy } from './timer-attempts';
import type { DueTimer, TimerHandler } from './timer-types';
import { type TimerDoc, TIMERS_PROJECTION } from './timers.projection';

export interface TimerLogger {
  error(message: string): void;
  warn(message: string): void;
}

/** What one walk did. */
export interface TimerPass {
  /** Pending timers found due. */
  due: number;
  /** Handed to their handler, which returned. */
  fired: number;
  /** Handed to their handler, which threw (retried later). */
  failed: number;
  /** Left for later: just fired, backing off, or of a kind no handler fires. */
  waiting: number;
}

export interface SchedulerDeps {
  events: Pick<EventStore, 'headPosition'>;
  timers: Collection<TimerDoc>;
  projections: Pick<ProjectionRunner, 'appliedPosition'>;
  clock: Clock;
  logger: TimerLogger;
  batchSize: number;
  retry: RetryPolicy;
}

/** Fired again this many times without being cancelled: worth a warning (once). */
const WARN_AFTER_FIRES = 3;

/** An error as one log line: its name and message, never a stack or the data it carried. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function toDueTimer(doc: TimerDoc): DueTimer {
  return { timerId: doc.id, kind: doc.kind, dueAt: doc.dueAt, workspaceId: doc.workspaceId, subjectId: doc.subjectId };
}

/** Timers grouped by kind, each group in the order given. */
export function byKind(timers: readonly DueTimer[]): Map<string, DueTimer[]> {
  const groups = new Map<string, DueTimer[]>();
  for (const timer of timers) {
    const group = groups.get(timer.kind);
    if (group) group.push(timer);
    else groups.set(timer.kind, [timer]);
  }
  return groups;
}

/** What a handler's call came to: null when it returned, else what it threw (even before returning a promise). */
async function outcomeOf(handler: TimerHandler, timers: readonly DueTimer[], now: Date): Promise<{ error: unknown } | null> {
  try {
    await handler.fire(timers, now);
    return null;
  } catch (error) {
    return { error };
  }
}

export class TimerScheduler {
  private readonly handlers = new Map<string, TimerHandler>();
  private readonly attempts: TimerAttempts;
  private readonly unknownKinds = new Set<string>();

  constructor(private readonly deps: SchedulerDeps) {
    this.attempts = new TimerAttempts(deps.retry);
  }

  handle(handler: TimerHandler): void {
    if (this.handlers.has(handler.kind)) throw new Error(`Timer handler for ${handler.kind} registered twice`);
    this.handlers.set(handler.kind, handler);
  }

  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** Walks every timer due at the clock's now; `goOn` false stops it between pages. */
  async pass(goOn: () => boolean): Promise<TimerPass> {
    const { timers, clock, batchSize } = this.deps;
    const now = clock.now();
    const result: TimerPass = { due: 0, fired: 0, failed: 0, waiting: 0 };
    const seen = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = await timers.find({ dueAt: { $lte: now.toISOString() } }, { sort: [['dueAt', 1]], limit: batchSize, after });
      const applied = await this.deps.projections.appliedPosition(TIMERS_PROJECTION);
      const nowMs = clock.now().getTime();
      const ready: DueTimer[] = [];
      for (const doc of page.items) {
        seen.add(doc.id);
        const timer = toDueTimer(doc);
        if (this.known(doc) && this.attempts.ready(timer, nowMs, applied)) ready.push(timer);
      }
      result.due += page.items.length;
      await Promise.all([...byKind(ready)].map(([kind, group]) => this.fire(this.handlers.get(kind) as TimerHandler, group, now, result)));
      result.waiting = result.due - result.fired - result.failed;
      if (!page.nextCursor || !goOn()) break;
      after = page.nextCursor;
      await yieldToEventLoop();
    }
    // Only a complete walk shows which remembered timers are no longer pending.
    if (goOn()) this.attempts.keepOnly(seen);
    return result;
  }

  /** Whether a handler fires this kind; an unknown kind is logged once and left pending. */
  private known(doc: TimerDoc): boolean {
    if (this.handlers.has(doc.kind)) return true;
    if (!this.unknownKinds.has(doc.kind)) {
      this.unknownKinds.add(doc.kind);
      this.deps.logger.error(`no handler fires timers of kind ${doc.kind} (e.g. ${doc.id}): they stay pending`);
    }
    return false;
  }

  private async fire(handler: TimerHandler, timers: DueTimer[], now: Date, result: TimerPass): Promise<void> {
    const failure = await outcomeOf(handler, timers, now);
    if (!failure) {
      this.fired(timers, await this.deps.events.headPosition());
      result.fired += timers.length;
      return;
    }
    if (timers.length === 1) {
      const delay = this.attempts.failed(timers[0], this.deps.clock.now().getTime());
      this.deps.logger.error(`timer ${timers[0].timerId} (${handler.kind}) failed: ${describeError(failure.error)}; retrying in ${delay} ms`);
      result.failed += 1;
      return;
    }
    this.deps.logger.error(`timers of kind ${handler.kind}: a batch of ${timers.length} failed (${describeError(failure.error)}); firing them one by one`);
    const outcomes = await Promise.all(timers.map((timer) => outcomeOf(handler, [timer], now)));
    const head = await this.deps.events.headPosition();
    const failures: Array<{ timer: DueTimer; error: unknown }> = [];
    outcomes.forEach((outcome, i) => {
      if (outcome) failures.push({ timer: timers[i], error: outcome.error });
      else this.fired([timers[i]], head);
    });
    result.fired += timers.length - failures.length;
    result.failed += failures.length;
    if (failures.length === 0) return;
    const nowMs = this.deps.clock.now().getTime();
    const delays = failures.map((f) => this.attempts.failed(f.timer, nowMs));
    const first = failures[0];
    this.deps.logger.error(
      `timers of kind ${handler.kind}: ${failures.length} of ${timers.length} failed alone too ` +
        `(first ${first.timer.timerId}: ${describeError(first.error)}); retrying in ${Math.min(...delays)} ms or more`,
    );
  }

  private fired(timers: readonly DueTimer[], head: number): void {
    const nowMs = this.deps.clock.now().getTime();
    for (const timer of timers) {
      const fires = this.attempts.fired(timer, nowMs, head);
      if (fires === WARN_AFTER_FIRES) {
        this.deps.logger.warn(
          `timer ${timer.timerId} (${timer.kind}) was fired ${fires} times and is still pending: ` +
            'its source should cancel it with the event that records its effect',
        );
      }
    }
  }
}
