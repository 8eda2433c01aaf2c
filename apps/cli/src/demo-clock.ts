// The demo's time frame: the units its plan counts in, how far back its history reaches, the final
// day where what is left pending is made, and the simulated clock the seed's context reads.
import type { Clock } from '@app/platform';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** How far back the simulated clock starts. */
export const HISTORY_DAYS = 42;
/** The final day's stretch (before the run) where what is left pending is made. */
export const FINAL_DAY_FROM_MS = 20 * HOUR;
export const FINAL_DAY_TO_MS = HOUR;

/**
 * The CLOCK of the seed's context: it stands still until moved, moves only forward, and never
 * past the real now (read from `realNow` at each move).
 */
export class SimulatedClock implements Clock {
  private at: number;

  constructor(
    start: Date,
    private readonly realNow: () => number = Date.now,
  ) {
    if (!(start.getTime() <= realNow())) throw new Error(`A simulated clock cannot start after the real now (${start.toISOString()})`);
    this.at = start.getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  advanceTo(to: Date): void {
    const t = to.getTime();
    if (!(t >= this.at)) throw new Error(`The simulated clock does not go back (from ${new Date(this.at).toISOString()} to ${to.toISOString()})`);
    if (!(t <= this.realNow())) throw new Error(`The simulated clock does not pass the real now (asked for ${to.toISOString()})`);
    this.at = t;
  }
}
