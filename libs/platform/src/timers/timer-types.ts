// What a durable timer is, what a context declares to derive timers from its events, and what
// fires them: the types every part of the timers shares (so none of them imports another's module).
import type { RecordedEvent } from '../event-store/event-store.port';

export interface DueTimer {
  /** Unique per timer, chosen by the source, e.g. `hold-expiry:hld_01…`. */
  timerId: string;
  /** Which handler fires it, e.g. `hold.expiry`. */
  kind: string;
  /** ISO 8601 UTC. */
  dueAt: string;
  workspaceId: string;
  /** The resource it concerns, e.g. `hld_01…`. */
  subjectId: string;
}

/** Declared by a context: which of its events schedule or cancel timers (read from the log). */
export interface TimerSource {
  name: string;
  eventTypes: readonly string[];
  /**
   * Pure. Scheduling an id again replaces its timer (a new dueAt); cancels apply before schedules.
   * A timer whose dueAt is not an instant is left out and logged.
   */
  timersOf(event: RecordedEvent): { schedule?: DueTimer[]; cancel?: string[] };
  /** Bump when `timersOf` changes what it derives: the timers are rebuilt from the log at start. */
  version?: number;
}

/**
 * Fires due timers of one kind. Must be idempotent (a timer may fire more than once: the decider
 * decides nothing the second time); fires a batch at once so 10,000 timers due at the same instant
 * go fast. Throwing retries the batch's timers later (one by one first, then with a backoff).
 */
export interface TimerHandler {
  kind: string;
  fire(timers: readonly DueTimer[], now: Date): Promise<void>;
}

