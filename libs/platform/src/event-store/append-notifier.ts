// Wakes idle subscribers: soon after an append in this process, or after a short poll interval so
// appends made by other processes (the CLI) are picked up too.
export class AppendNotifier {
  private waiters = new Set<() => void>();
  private readonly listeners: Array<() => void> = [];
  private scheduled = false;

  /** Also tells `listener`, once per turn with appends (the worker process, over IPC). */
  onNotify(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Wakes the waiters once per turn of the event loop, not once per append: the appends of many
   * concurrent requests then reach subscribers (projections) as one batch.
   */
  notify(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const waiters = [...this.waiters];
      this.waiters.clear();
      for (const wake of waiters) wake();
      for (const listener of this.listeners) listener();
    });
  }

  /** Wakes the waiters for appends another process made (its listeners are not told: no echo back). */
  wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const done of waiters) done();
  }

  /** Resolves on the next `notify()` or after `timeoutMs`, whichever comes first. */
  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }
}
