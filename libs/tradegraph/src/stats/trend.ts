// Movement between two periods (a median price, a count of sales), and the pace of events.
//
//   change    = (current − previous) / previous, 4 decimals          (relative: +0.25 = +25 %)
//   direction = new    when previous = 0 and current > 0 (change null: no base to compare to)
//               flat   when |change| < 0.05 (and when both are 0: change 0)
//               up / down otherwise, by the sign of change
//   velocity  = count / windowDays, 2 decimals                        (events per day)
//
// The flat test reads the rounded change, so a change shown as 0.05 is never called flat. Inputs
// are prices or counts: a negative or non-finite one (and a window that is not > 0) is a caller's
// bug and throws a RangeError rather than producing a number nobody could explain. Pure.
import { roundTo } from './factor';

/** |change| below this is flat. */
export const FLAT_CHANGE = 0.05;

export type TrendDirection = 'up' | 'down' | 'flat' | 'new';

export interface Trend {
  /** Relative change, 4 decimals; null when direction is 'new'. */
  change: number | null;
  direction: TrendDirection;
}

export function trend(current: number, previous: number): Trend {
  nonNegative('trend', 'current', current);
  nonNegative('trend', 'previous', previous);
  if (previous === 0) return current > 0 ? { change: null, direction: 'new' } : { change: 0, direction: 'flat' };
  const change = roundTo((current - previous) / previous, 4);
  const direction: TrendDirection = Math.abs(change) < FLAT_CHANGE ? 'flat' : change > 0 ? 'up' : 'down';
  return { change, direction };
}

/** Events per day over a window: count / windowDays, 2 decimals. */
export function velocity(count: number, windowDays: number): number {
  nonNegative('velocity', 'count', count);
  if (!(Number.isFinite(windowDays) && windowDays > 0)) {
    throw new RangeError(`velocity: windowDays must be a finite number > 0, got ${windowDays}`);
  }
  return roundTo(count / windowDays, 2);
}

function nonNegative(fn: string, name: string, x: number): void {
  if (!(Number.isFinite(x) && x >= 0)) throw new RangeError(`${fn}: ${name} must be a finite number ≥ 0, got ${x}`);
}
