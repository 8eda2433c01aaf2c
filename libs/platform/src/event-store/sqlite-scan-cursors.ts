// How far this store instance scanned each persistent subscription group past its stored read
// position by skipping alone (the consumer would only ack those events): kept in memory so such a
// scan takes no write lock, and written within FLUSH_MS (or by the next transaction of the group),
// so a restart rescans little. A crash before that write only means those events are scanned (and
// skipped) again.

/** How long a scan position reached by skipping alone may stay in memory before it is written. */
const FLUSH_MS = 200;

export class ScanCursors {
  private readonly cursors = new Map<string, number>();
  private readonly flushes = new Map<string, NodeJS.Timeout>();

  /** `write`: writes the group's cursor (as its read position), in a transaction; may throw. */
  constructor(
    private readonly write: (group: string) => void,
    private readonly isClosed: () => boolean,
  ) {}

  has(group: string): boolean {
    return this.cursors.has(group);
  }

  /** Where this instance's next scan starts: the stored read position, or its cursor when ahead. */
  from(group: string, readPosition: number): number {
    return Math.max(readPosition, this.cursors.get(group) ?? 0);
  }

  /** The scan skipped up to `position`: remembered now, written soon. */
  advance(group: string, position: number): void {
    this.cursors.set(group, position);
    this.scheduleFlush(group);
  }

  /** The group's read position was written (or the write is under way): nothing to remember. */
  forget(group: string): void {
    this.cursors.delete(group);
  }

  /** Writes a cursor moved by skipping alone soon, so a restart rescans little. */
  private scheduleFlush(group: string): void {
    if (this.flushes.has(group)) return;
    const timer = setTimeout(() => {
      this.flushes.delete(group);
      if (this.isClosed() || !this.cursors.has(group)) return;
      try {
        this.write(group);
      } catch {
        this.scheduleFlush(group); // busy or failing storage: the next claim, ack or try writes it
      }
    }, FLUSH_MS);
    timer.unref();
    this.flushes.set(group, timer);
  }
}
