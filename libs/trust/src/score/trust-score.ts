// The trust score (formula trust-v1): six factors of a seller's trade outcomes, each a value in
// 0..1 (four decimals) times its weight (the weights sum to 100) giving its contribution (two
// decimals); the score is the contributions' sum rounded to an integer 0..100, so what a
// credential shows always adds up — each factor with a sentence, as match scores are. Under
// MIN_OUTCOMES outcomes there is no number: the tier is `new_seller`, never a made-up score.
//
//   completion      35  completed ÷ (completed + seller-caused cancels + refunded disputes)
//   cancellations   15  1 − seller-caused cancels ÷ outcomes
//   disputes        20  1 − 4 × (refunded + ¼ × released disputes) ÷ outcomes, at least 0
//   shipping_speed  15  median hours from paid to shipped: 1 at ≤ 24 h, 0 at ≥ 168 h, linear
//                       between (0.5 when no trade was shipped yet)
//   volume          10  log10(1 + completed) ÷ 2, at most 1 (100 completed trades = 1)
//   tenure           5  days from the first trade to asOf ÷ 365, at most 1
//
// A cancel is the seller's when it says so (`cancelledBy: seller`), or when it is unstated and the
// buyer had paid (and it did not end a dispute — those count under disputes). Tiers: top_rated
// ≥ 90, trusted ≥ 80, established ≥ 60, developing below, new_seller without a number. Pure.
import type { InputRow, InputsDocument } from './trust-inputs';

export const MIN_OUTCOMES = 5;

export const TRUST_TIERS = ['new_seller', 'developing', 'established', 'trusted', 'top_rated'] as const;
export type TrustTier = (typeof TRUST_TIERS)[number];

export interface TrustFactor {
  name: 'completion' | 'cancellations' | 'disputes' | 'shipping_speed' | 'volume' | 'tenure';
  /** 0..1, four decimals. */
  value: number;
  /** Its share of 100. */
  weight: number;
  /** value × weight, two decimals. */
  contribution: number;
  reason: string;
}

export interface TrustScore {
  /** 0..100, or null under MIN_OUTCOMES outcomes. */
  score: number | null;
  tier: TrustTier;
  factors: TrustFactor[];
  /** Outcomes counted (completed + cancelled trades). */
  outcomes: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function sellerCausedCancel(row: InputRow): boolean {
  if (row.outcome !== 'cancelled' || row.dispute === 'refund') return false;
  if (row.cancelledBy !== null) return row.cancelledBy === 'seller';
  return row.paidAt !== null;
}

export function tierOf(score: number | null): TrustTier {
  if (score === null) return 'new_seller';
  if (score >= 90) return 'top_rated';
  if (score >= 80) return 'trusted';
  if (score >= 60) return 'established';
  return 'developing';
}

/**
 * What the score reads of a seller's input rows: counts, the paid → shipped hours in ascending
 * order, and the first trade's start. Kept per seller as rows arrive (SellerInputs, with
 * `addToStats`), so a reissue scores without going over every trade again; `statsOf` sums up a
 * document's rows at once.
 */
export interface InputsStats {
  outcomes: number;
  completed: number;
  sellerCancels: number;
  refunded: number;
  released: number;
  /** Hours from payment to shipment of each trade shipped after payment: ascending, unless `unordered`. */
  shipHours: number[];
  /**
   * An hour is NaN (a date that does not parse): `shipHours` is then in the document's row order,
   * and the median sorts it as scoreInputs always did (a NaN makes that order matter).
   */
  unordered: boolean;
  firstInitiatedAt: string | null;
}

export function emptyStats(): InputsStats {
  return { outcomes: 0, completed: 0, sellerCancels: 0, refunded: 0, released: 0, shipHours: [], unordered: false, firstInitiatedAt: null };
}

/** Hours from payment to shipment, for a row shipped after payment; else null. */
function shipHoursOf(row: InputRow): number | null {
  return row.paidAt !== null && row.shippedAt !== null ? Math.max(0, Date.parse(row.shippedAt) - Date.parse(row.paidAt)) / HOUR : null;
}

function countRow(stats: InputsStats, row: InputRow): void {
  stats.outcomes += 1;
  if (row.outcome === 'completed') stats.completed += 1;
  if (sellerCausedCancel(row)) stats.sellerCancels += 1;
  if (row.dispute === 'refund') stats.refunded += 1;
  if (row.dispute === 'release') stats.released += 1;
  if (stats.firstInitiatedAt === null || row.initiatedAt < stats.firstInitiatedAt) stats.firstInitiatedAt = row.initiatedAt;
}

/**
 * Counts one more row into `stats` (in place), in any order of rows. Returns false when it cannot
 * keep them exact — a NaN hour, whose place in the median depends on the document's row order —
 * and then `stats` must be built again with `statsOf` from the document's rows.
 */
export function addToStats(stats: InputsStats, row: InputRow): boolean {
  const hours = shipHoursOf(row);
  if (stats.unordered || (hours !== null && Number.isNaN(hours))) return false;
  countRow(stats, row);
  if (hours !== null) stats.shipHours.splice(upperBound(stats.shipHours, hours), 0, hours);
  return true;
}

/** The stats of a document's rows (in its order). */
export function statsOf(rows: readonly InputRow[]): InputsStats {
  const stats = emptyStats();
  for (const row of rows) {
    countRow(stats, row);
    const hours = shipHoursOf(row);
    if (hours === null) continue;
    if (Number.isNaN(hours)) stats.unordered = true;
    stats.shipHours.push(hours);
  }
  if (!stats.unordered) stats.shipHours.sort((a, b) => a - b);
  return stats;
}

export function scoreInputs(inputs: InputsDocument): TrustScore {
  return scoreStats(statsOf(inputs.trades), inputs.asOf);
}

/** The score of rows summed up in `stats`, as of an instant: exactly scoreInputs of the same rows. */
export function scoreStats(stats: InputsStats, asOf: string): TrustScore {
  const { outcomes, completed, sellerCancels, refunded, released, shipHours } = stats;
  const judged = completed + sellerCancels + refunded;
  const medianShip = stats.unordered ? median([...shipHours].sort((a, b) => a - b)) : median(shipHours);
  const first = stats.firstInitiatedAt;
  const tenureDays = first === null ? 0 : Math.max(0, (Date.parse(asOf) - Date.parse(first)) / DAY);

  const factors: TrustFactor[] = [
    factor('completion', judged === 0 ? 1 : completed / judged, 35, `${completed} of ${judged} trades the seller answered for completed`),
    factor('cancellations', outcomes === 0 ? 1 : 1 - sellerCancels / outcomes, 15, `${sellerCancels} of ${outcomes} trades cancelled by the seller`),
    factor(
      'disputes',
      outcomes === 0 ? 1 : Math.max(0, 1 - (4 * (refunded + released / 4)) / outcomes),
      20,
      `${refunded + released} disputed of ${outcomes}: ${refunded} refunded to the buyer, ${released} released to the seller`,
    ),
    factor(
      'shipping_speed',
      medianShip === null ? 0.5 : clamp01((168 - medianShip) / (168 - 24)),
      15,
      medianShip === null ? 'no trade shipped yet' : `median ${round(medianShip, 1)} h from payment to shipment over ${shipHours.length} trades`,
    ),
    factor('volume', Math.min(1, Math.log10(1 + completed) / 2), 10, `${completed} completed trades (100 count fully)`),
    factor('tenure', Math.min(1, tenureDays / 365), 5, `${Math.floor(tenureDays)} days since the first trade (a year counts fully)`),
  ];
  // From the contributions as shown (whole hundredths): the score is always their sum, rounded.
  const hundredths = factors.reduce((sum, f) => sum + Math.round(f.contribution * 100), 0);
  const score = outcomes < MIN_OUTCOMES ? null : Math.round(hundredths / 100);
  return { score, tier: tierOf(score), factors, outcomes };
}

function factor(name: TrustFactor['name'], raw: number, weight: number, reason: string): TrustFactor {
  const value = round(clamp01(raw), 4);
  return { name, value, weight, contribution: round(value * weight, 2), reason };
}

/** The median of values in ascending order. */
function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Where `value` goes in ascending `sorted`, after any equal values. */
function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
