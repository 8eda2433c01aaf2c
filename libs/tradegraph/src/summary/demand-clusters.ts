// A demand cluster (a card's buyer requests, or a set's) over a window, from its demand document:
// how many are open (and how many of those no listing has matched), the distribution of their
// maximum prices, velocity (requests created per day) against the previous window of the same
// length, and missed demand — requests archived without a match in the window, open ones left
// unmatched past AGED_DAYS, and (for a card) open ones whose maximum price is under every
// available listing. Its `heat` ranks clusters: open + 7 × velocity + ½ × missed, each a factor
// with its contribution. Prices are decimals. Pure.
import { band, type Band, type Factor, factor, roundTo, trend, type Trend, velocity } from '../stats';
import type { DemandDoc } from '../tradegraph.projection';

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
  for (const [day, n] of Object.entries(days)) if (day >= from && day < to) sum += n;
  return sum;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function demandCluster(doc: DemandDoc, now: Date, windowDays: number): DemandCluster {
  const end = now.getTime() + DAY; // today counts
  const start = end - windowDays * DAY;
  const previousStart = start - windowDays * DAY;
  const open = Object.values(doc.open);
  const unmatched = open.filter((r) => !r.matched);
  const created = sumDays(doc.created, dayOf(start), dayOf(end));
  const previous = sumDays(doc.created, dayOf(previousStart), dayOf(start));
  const archivedUnmatched = sumDays(doc.missed, dayOf(start), dayOf(end));
  const aged = unmatched.filter((r) => now.getTime() - Date.parse(r.since) > AGED_DAYS * DAY).length;
  const listingPrices = Object.values(doc.listings).map((l) => l.priceMinor);
  const cheapest = listingPrices.length > 0 ? Math.min(...listingPrices) : null;
  const underEveryListing = doc.kind === 'card' ? (cheapest === null ? 0 : unmatched.filter((r) => r.priceMinor < cheapest).length) : null;
  const missed = archivedUnmatched + aged + (underEveryListing ?? 0);
  const perDay = velocity(created, windowDays);
  const previousPerDay = velocity(previous, windowDays);
  const factors = [
    factor('open_requests', open.length, HEAT_WEIGHTS.open),
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
    open: open.length,
    unmatched: unmatched.length,
    prices: band(open.map((r) => ({ value: r.priceMinor / 100, weight: 1 }))),
    created,
    velocity: perDay,
    previousVelocity: previousPerDay,
    trend: shift,
    missed: { archivedUnmatched, aged, underEveryListing, total: missed },
    heat: roundTo(factors.reduce((sum, f) => sum + f.contribution, 0), 4),
    factors,
    reasons:
      `${open.length} open request${open.length === 1 ? '' : 's'} (${unmatched.length} unmatched), ` +
      `${perDay} new a day (${trendWords}), ` +
      `${missed} missed${missedWords.length > 0 ? `: ${missedWords.join(', ')}` : ''}`,
  };
}
