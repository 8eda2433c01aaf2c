// Who waits for the projections, and for how far: a reader that must see a write first waits until
// the projections it reads have applied the log up to the write's position. The positions are the
// runner's (what this process applied, or what the other process reported or stored); a waiter is
// resolved as soon as they reach its position, or false at its timeout. Separate from the lanes
// that move the positions, so the rules of waiting read apart from the rules of applying.

interface Waiter {
  position: number;
  names: readonly string[];
  resolve(ok: boolean): void;
}

export class ProjectionWaiters {
  private waiters: Waiter[] = [];

  /** `positions`: the position each projection has applied, as this process knows it (the runner's map). */
  constructor(private readonly positions: Map<string, number>) {}

  /** Whether the named projections have all applied the log up to `position`. */
  caughtUp(position: number, names: readonly string[]): boolean {
    for (const name of names) if ((this.positions.get(name) ?? 0) < position) return false;
    return true;
  }

  /** Whether someone waits for one of these projections (a lane then does not pause). */
  waitsForAny(names: readonly string[]): boolean {
    return this.waiters.some((w) => w.names.some((n) => names.includes(n)));
  }

  /** Waits until `wake` finds the projections caught up with `position`; false after `timeoutMs`. */
  wait(position: number, timeoutMs: number, names: readonly string[]): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        names,
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

  /**
   * `wait` for projections another process applies and reports on (a linked worker): beside its
   * reports, `refresh` reads the stored checkpoints every `pollMs`, for a report lost to a restart.
   */
  waitLinked(position: number, timeoutMs: number, names: readonly string[], refresh: () => Promise<void>, pollMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(ok);
      };
      const waiter: Waiter = { position, names, resolve: finish };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const poll = setInterval(() => {
        refresh().then(
          () => this.wake(),
          () => undefined,
        );
      }, pollMs);
      this.waiters.push(waiter);
    });
  }

  /** Resolves the waiters whose projections have caught up. */
  wake(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => this.caughtUp(w.position, w.names));
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(true);
  }

  /** Resolves every waiter false (the runner stops). */
  cancelAll(): void {
    for (const w of this.waiters.splice(0)) w.resolve(false);
  }
}

/**
 * Waits by reading the stored checkpoints every `pollMs` (`refresh` answers their positions): for
 * projections another process applies without reporting to this one.
 */
export async function pollUntilCaughtUp(position: number, timeoutMs: number, refresh: () => Promise<number[]>, pollMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const positions = await refresh();
    if (positions.every((p) => p >= position)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
