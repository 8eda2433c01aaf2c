// A demand cluster (a card's buyer requests, or a set's) over a window, from its demand document:
// how many are open (and how many of those no listing has matched), the distribution of their
// maximum prices, velocity (requests created per day) against the previous window of the same
// length, and missed demand — requests archived without a match in the window, open ones left
// unmatched past AGED_DAYS, and (for a card) open ones whose maximum price is under every
// available listing. Its `heat` ranks clusters: open + 7 × velocity + ½ × missed, each a factor
// with its contribution. Prices are decimals. Pure.
import { band, type Band, type Factor, factor, roundTo, trend, type Trend, velocity } from '../stats';
import { countBelow, lowestPrice, type PriceCounts } from '../pricing/price-counts';
import type { DemandDoc } from './summary.views';

/** Open requests unmatched for longer than this count as missed demand. */
export const AGED_DAYS = 14;
export const HEAT_WEIGHTS = { open: 1, velocity: 7, missed: 0.5 } as const;
const DAY = 86_400_000;

export interface DemandCluster {
  open: number;
  unmatched: number;
  prices: Band | null;
  created: number;
  velocity: number;
  previousVelocity: number;
  trend: Trend;
  missed: { archivedUnmatched: number; aged: number; underEveryListing: number | null; total: number };
  heat: number;
  factors: Factor[];
  reasons: string;
}

/** Sums a per-day record over [from, to) (days as YYYY-MM-DD, compared as text). */
function sumDays(days: Record<string, number>, from: string, to: string): number {
  let sum = 0;
  for (const day in days) if (day >= from && day < to) sum += days[day];
  return sum;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface WindowDays {
  key: string;
  previousStart: string;
  start: string;
  end: string;
  agedBefore: string;
}
let lastWindow: WindowDays | undefined;

/** The window's day bounds (a page of clusters shares one: kept for the next call). */
function windowDays(now: Date, days: number): WindowDays {
  const key = `${now.getTime()}|${days}`;
  if (lastWindow?.key === key) return lastWindow;
  const end = now.getTime() + DAY; // today counts
  const start = end - days * DAY;
  lastWindow = { key, previousStart: dayOf(start - days * DAY), start: dayOf(start), end: dayOf(end), agedBefore: dayOf(now.getTime() - AGED_DAYS * DAY) };
  return lastWindow;
}

/** The band of prices counted by price (each request one point). */
function countedBand(counts: PriceCounts, total: number): Band | null {
  const points = [];
  for (let i = 0; i < counts.length; i += 2) points.push({ value: counts[i] / 100, weight: counts[i + 1] });
  const b = band(points);
  return b ? { ...b, count: total } : null;
}

/** A card's missed demand counts the unmatched requests under its cheapest available listing (`asks`). */
export function demandCluster(doc: DemandDoc, now: Date, days: number): DemandCluster {
  const w = windowDays(now, days);
  const open = doc.openCount;
  const unmatched = doc.unmatchedCount;
  const created = sumDays(doc.created, w.start, w.end);
  const previous = sumDays(doc.created, w.previousStart, w.start);
  const archivedUnmatched = sumDays(doc.missed, w.start, w.end);
  // Unmatched requests created before the aged line (day granularity: a day older than AGED_DAYS).
  const aged = sumDays(doc.unmatchedByDay, '', w.agedBefore);
  const cheapest = lowestPrice(doc.asks);
  const underEveryListing = doc.kind === 'card' ? (cheapest === null ? 0 : countBelow(doc.unmatchedPrices, cheapest)) : null;
  const missed = archivedUnmatched + aged + (underEveryListing ?? 0);
  const perDay = velocity(created, days);
  const previousPerDay = velocity(previous, days);
  const factors = [
    factor('open_requests', open, HEAT_WEIGHTS.open),
    factor('velocity_per_day', perDay, HEAT_WEIGHTS.velocity),
    factor('missed_demand', missed, HEAT_WEIGHTS.missed),
  ];
  const shift = trend(perDay, previousPerDay);
  const trendWords =
    shift.direction === 'new' ? 'new this window' : shift.direction === 'flat' ? 'flat on the previous window' : `${shift.direction} ${Math.abs(roundTo((shift.change ?? 0) * 100, 0))} % on the previous window`;
  const missedWords = [
    archivedUnmatched > 0 ? `${archivedUnmatched} archived unmatched` : null,
    aged > 0 ? `${aged} unmatched for over ${AGED_DAYS} days` : null,
    underEveryListing ? `${underEveryListing} priced under every listing` : null,
  ].filter(Boolean);
  return {
    open,
    unmatched,
    prices: countedBand(doc.openPrices, open),
    created,
    velocity: perDay,
    previousVelocity: previousPerDay,
    trend: shift,
    missed: { archivedUnmatched, aged, underEveryListing, total: missed },
    heat: roundTo(factors.reduce((sum, f) => sum + f.contribution, 0), 4),
    factors,
    reasons:
      `${open} open request${open === 1 ? '' : 's'} (${unmatched} unmatched), ` +
      `${perDay} new a day (${trendWords}), ` +
      `${missed} missed${missedWords.length > 0 ? `: ${missedWords.join(', ')}` : ''}`,
  };
}
