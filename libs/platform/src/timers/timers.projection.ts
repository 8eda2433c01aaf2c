// The pending timers, derived from the log: every registered source says which of its events
// schedule or cancel timers, and this projection keeps one document per pending timer. A cancel
// deletes the document, so the collection holds exactly the pending timers and the scheduler's
// query ("due, oldest first") walks an index of live rows only. Rebuilt from the log like any
// other projection; registered with the ProjectionRunner by DurableTimers.
import type { RecordedEvent } from '../event-store/event-store.port';
import { runView, view, type ViewProjection, type ViewStep } from '../projections/view-projection';
import type { CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';
import type { DueTimer, TimerSource } from './timer-types';

export const TIMERS_PROJECTION = 'timers';

/** `by_due` serves the scheduler's query and its order (dueAt, then id) without a sort step. */
export const TIMERS: CollectionSpec = {
  name: 'timers',
  indexes: [
    {
      name: 'by_due',
      fields: [
        ['dueAt', 1],
        ['id', 1],
      ],
    },
  ],
};

/** A pending timer: its id is the timer's id; `source` names the source that scheduled it. */
export interface TimerDoc extends Doc {
  kind: string;
  /** ISO 8601 UTC, always in `toISOString()` form so that strings compare as instants. */
  dueAt: string;
  workspaceId: string;
  subjectId: string;
  source: string;
}

export type TimerChange = { op: 'put'; doc: TimerDoc } | { op: 'delete'; id: string } | { op: 'invalid'; reason: string };

/** A timer's document, or why the source's timer cannot be kept (the dueAt must be an instant). */
export function timerDoc(timer: DueTimer, source: string): TimerDoc | string {
  const at = typeof timer.dueAt === 'string' ? Date.parse(timer.dueAt) : Number.NaN;
  if (!timer.timerId) return `source ${source} scheduled a timer without an id`;
  if (!timer.kind) return `source ${source} scheduled timer ${timer.timerId} without a kind`;
  if (Number.isNaN(at)) return `source ${source} scheduled timer ${timer.timerId} with dueAt ${String(timer.dueAt)}, not an instant`;
  return {
    id: timer.timerId,
    kind: timer.kind,
    dueAt: new Date(at).toISOString(),
    workspaceId: timer.workspaceId,
    subjectId: timer.subjectId,
    source,
  };
}

/**
 * What one event does to the timers, in order: for each source that reads its type (in
 * registration order), its cancels and then its schedules — so a source may cancel and schedule
 * one id in one event (a replacement). Scheduling an id again replaces the timer (a new dueAt).
 */
export function timerChanges(sources: readonly TimerSource[], event: RecordedEvent): TimerChange[] {
  const changes: TimerChange[] = [];
  for (const source of sources) {
    if (!source.eventTypes.includes(event.type)) continue;
    const { schedule = [], cancel = [] } = source.timersOf(event);
    for (const id of cancel) changes.push({ op: 'delete', id });
    for (const timer of schedule) {
      const doc = timerDoc(timer, source.name);
      changes.push(typeof doc === 'string' ? { op: 'invalid', reason: `${doc} (event ${event.id} at ${event.position})` } : { op: 'put', doc });
    }
  }
  return changes;
}

/** Bump when the documents' shape changes. */
const SHAPE_VERSION = 1;

/**
 * The projection's version: changes with the sources' names, versions and event types, so a
 * process that starts with another set of sources rebuilds the timers from the whole log (a new
 * source's timers include those its events scheduled before it was registered).
 */
export function timersVersion(sources: readonly TimerSource[]): number {
  const shape = [...sources]
    .map((s) => [s.name, s.version ?? 1, [...s.eventTypes].sort()] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // FNV-1a, 32 bits: a stable number from the description.
  let hash = 0x811c9dc5;
  for (const ch of JSON.stringify([SHAPE_VERSION, shape])) {
    hash ^= ch.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The projection over the registered sources. Sources are added until the runners start; the
 * event types and the version follow (cached: the runner reads `eventTypes` for every event).
 * A view projection: `evolve` yields the timers' writes, the runner performs them.
 */
export class TimersProjection implements ViewProjection {
  readonly name = TIMERS_PROJECTION;
  readonly collections = [TIMERS];
  version = timersVersion([]);
  eventTypes: readonly string[] = [];
  private readonly sources: TimerSource[] = [];

  constructor(private readonly onInvalid: (reason: string) => void) {}

  add(source: TimerSource): void {
    if (this.sources.some((s) => s.name === source.name)) throw new Error(`Timer source ${source.name} registered twice`);
    this.sources.push(source);
    this.eventTypes = [...new Set(this.sources.flatMap((s) => s.eventTypes))];
    this.version = timersVersion(this.sources);
  }

  sourceNames(): string[] {
    return this.sources.map((s) => s.name);
  }

  *evolve(event: RecordedEvent): ViewStep {
    for (const change of timerChanges(this.sources, event)) {
      if (change.op === 'delete') yield* view.delete(TIMERS, change.id);
      else if (change.op === 'put') yield* view.put<TimerDoc>(TIMERS, change.doc);
      // A source's bug must not stop every read model: the timer is left out, loudly (a report,
      // not a write: nothing of the read model depends on it).
      else this.onInvalid(change.reason);
    }
  }

  apply(event: RecordedEvent, store: ReadStore): Promise<void> {
    return runView(this.evolve(event), store);
  }
}
