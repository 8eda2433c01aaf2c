// What one scheduler remembers about the timers it fired (pure: no I/O, times are given). A timer
// stays pending until its effect's event cancels it through the projection, so a timer just fired
// is still listed as due for a moment. It is not fired again:
// - until the timers projection has applied the log as far as it reached when the handler
//   returned (then the effect's cancel, if there is one, has been applied) — or for the longest
//   backoff at most: on EventStoreDB the head can be a system event the projection never applies,
//   and a stuck projection must not hold a timer for ever (firing again is harmless) — and
// - after that, while it is still pending (its effect cancelled nothing: the handler decided
//   nothing, or the source does not cancel it), only after a backoff that doubles on every fire.
// A handler that failed is retried after a backoff that doubles on every failure. The memory is
// this process's only: another scheduler, or this one after a restart, may fire a timer again,
// which the handlers' idempotence makes harmless.
import type { DueTimer } from './timer-types';

export interface RetryPolicy {
  /** The first delay; each further one doubles. */
  firstMs: number;
  maxMs: number;
}

interface Attempt {
  /** The dueAt it was fired or failed for: a timer scheduled again (another dueAt) starts afresh. */
  dueAt: string;
  fires: number;
  failures: number;
  /** Log position the timers projection must reach before the timer may fire again… */
  waitFor: number;
  /** …unless this much (epoch ms) has passed. */
  waitUntil: number;
  /** Epoch ms before which it is not fired again. */
  retryAt: number;
}

export function backoff(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxMs, policy.firstMs * 2 ** Math.max(0, attempt - 1));
}

export class TimerAttempts {
  private readonly attempts = new Map<string, Attempt>();

  constructor(private readonly policy: RetryPolicy) {}

  /** Whether a due timer may fire now (`applied`: the position the timers projection has applied). */
  ready(timer: Pick<DueTimer, 'timerId' | 'dueAt'>, nowMs: number, applied: number): boolean {
    const attempt = this.attempts.get(timer.timerId);
    if (!attempt) return true;
    if (attempt.dueAt !== timer.dueAt) {
      this.attempts.delete(timer.timerId);
      return true;
    }
    return nowMs >= attempt.retryAt && (applied >= attempt.waitFor || nowMs >= attempt.waitUntil);
  }

  /** The handler returned; `head`: the log's head after it. Returns how often it was fired so far. */
  fired(timer: Pick<DueTimer, 'timerId' | 'dueAt'>, nowMs: number, head: number): number {
    const attempt = this.current(timer);
    attempt.fires += 1;
    attempt.failures = 0;
    attempt.waitFor = head;
    attempt.waitUntil = nowMs + this.policy.maxMs;
    attempt.retryAt = nowMs + backoff(this.policy, attempt.fires);
    return attempt.fires;
  }

  /** The handler threw. Returns the delay before the timer is tried again. */
  failed(timer: Pick<DueTimer, 'timerId' | 'dueAt'>, nowMs: number): number {
    const attempt = this.current(timer);
    attempt.failures += 1;
    attempt.waitFor = 0;
    const delay = backoff(this.policy, attempt.failures);
    attempt.retryAt = nowMs + delay;
    return delay;
  }

  /** After a complete walk of the due timers: forgets those no longer pending and due. */
  keepOnly(due: ReadonlySet<string>): void {
    for (const id of this.attempts.keys()) if (!due.has(id)) this.attempts.delete(id);
  }

  get size(): number {
    return this.attempts.size;
  }

  private current(timer: Pick<DueTimer, 'timerId' | 'dueAt'>): Attempt {
    let attempt = this.attempts.get(timer.timerId);
    if (!attempt || attempt.dueAt !== timer.dueAt) {
      attempt = { dueAt: timer.dueAt, fires: 0, failures: 0, waitFor: 0, waitUntil: 0, retryAt: 0 };
      this.attempts.set(timer.timerId, attempt);
    }
    return attempt;
  }
}
