// The end of the log, parsed once. Every subscriber of a process — two projection lanes, the process
// managers, the webhook dispatcher, the timers — reads the same newest events right after they are
// appended; read from SQLite and JSON-parsed by each of them, the same events would be read and
// parsed once per subscriber, a cost every write and every catch-up pays. This keeps the newest
// events, by position, as one contiguous run [first .. end]: what this process appends (after its
// commit), and what an unfiltered read brings in right after the run. A read is answered from it only when the
// answer is certain: it starts inside the run, and it either fills its limit there or the run
// reaches the log's head. Events are immutable, so the cached objects are shared — frozen, so a
// consumer that tried to change one would fail loudly instead of changing it for the others.
import type { EventFilter, RecordedEvent } from './event-store.port';

/** Deep-freezes a JSON value (the event's data or metadata). */
function freeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) freeze(v);
  }
  return value;
}

export function matchesFilter(event: RecordedEvent, filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.types && !filter.types.includes(event.type)) return false;
  if (filter.streamPrefixes && !filter.streamPrefixes.some((prefix) => event.streamId.startsWith(prefix))) return false;
  return true;
}

export class TailCache {
  private events: RecordedEvent[] = [];
  /** Position of events[0] (meaningful while events is not empty). */
  private first = 0;

  constructor(private readonly capacity = 4_000) {}

  /** The last cached position (0 when empty). */
  get end(): number {
    return this.events.length === 0 ? 0 : this.first + this.events.length - 1;
  }

  /**
   * Events after `from`, up to `limit`, matching `filter` — or null when the cache cannot answer for
   * certain (the caller reads SQLite). `head` is asked only when the run ends before the limit.
   */
  read(from: number, limit: number, filter: EventFilter | undefined, head: () => number): RecordedEvent[] | null {
    if (this.events.length === 0 || from + 1 < this.first || from > this.end) return null;
    if (filter?.types?.length === 0 || filter?.streamPrefixes?.length === 0) return [];
    const out: RecordedEvent[] = [];
    for (let i = from + 1 - this.first; i < this.events.length && out.length < limit; i += 1) {
      if (matchesFilter(this.events[i], filter)) out.push(this.events[i]);
    }
    if (out.length >= limit || this.end >= head()) return out;
    return null;
  }

  /** The event at this position, if cached. */
  at(position: number): RecordedEvent | undefined {
    return this.events[position - this.first];
  }

  /**
   * Adds events read or appended, in position order and contiguous among themselves: they extend
   * the run when they start right after it (overlap is skipped); otherwise they start a new run
   * (another process appended in between, or a read far behind).
   */
  add(events: readonly RecordedEvent[]): void {
    if (events.length === 0) return;
    for (let i = 1; i < events.length; i += 1) if (events[i].position !== events[i - 1].position + 1) return;
    const start = events[0].position;
    const last = events[events.length - 1].position;
    if (this.events.length > 0 && start <= this.end + 1 && last > this.end && start >= this.first) {
      for (const event of events.slice(this.end + 1 - start)) this.events.push(freeze(event));
    } else if (this.events.length === 0 || start > this.end + 1) {
      this.events = events.map(freeze);
      this.first = start;
    } else {
      return; // already cached, or behind the run: nothing to add
    }
    if (this.events.length > 2 * this.capacity) {
      const drop = this.events.length - this.capacity;
      this.events = this.events.slice(drop);
      this.first += drop;
    }
  }
}
