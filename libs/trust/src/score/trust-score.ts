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

export function scoreInputs(inputs: InputsDocument): TrustScore {
  const rows = inputs.trades;
  const outcomes = rows.length;
  const completed = rows.filter((r) => r.outcome === 'completed').length;
  const sellerCancels = rows.filter(sellerCausedCancel).length;
  const refunded = rows.filter((r) => r.dispute === 'refund').length;
  const released = rows.filter((r) => r.dispute === 'release').length;
  const judged = completed + sellerCancels + refunded;
  const shipHours = rows
    .filter((r) => r.paidAt !== null && r.shippedAt !== null)
    .map((r) => Math.max(0, Date.parse(r.shippedAt as string) - Date.parse(r.paidAt as string)) / HOUR);
  const medianShip = median(shipHours);
  const first = rows.reduce<string | null>((min, r) => (min === null || r.initiatedAt < min ? r.initiatedAt : min), null);
  const tenureDays = first === null ? 0 : Math.max(0, (Date.parse(inputs.asOf) - Date.parse(first)) / DAY);

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

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
