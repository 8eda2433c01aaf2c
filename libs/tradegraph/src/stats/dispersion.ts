// How far a price band can be trusted to price by: its relative spread, its reliability (how many
// prices stand behind it) and a 0–1 score combining the two, with a label and one sentence.
//
//   spread      = (p75 − p25) / median            the middle half's width relative to the median
//   reliability = n / (n + 5)                     n = band.count: 1 → 0.17, 5 → 0.5, 20 → 0.8
//   score       = reliability × (1 − min(1, spread))
//               = reliability − reliability × min(1, spread)     ← the two factors below
//   label       = thin      when n < 3 (whatever the spread)
//                 tight     when spread < 0.15
//                 moderate  when spread < 0.40
//                 wide      otherwise
//
// spread, reliability and score are rounded to 4 decimals, and the label is read from the
// ROUNDED spread, so the number shown and the word shown never disagree. Factors:
//   reliability  value = reliability,          weight = 1             → + reliability
//   spread       value = min(1, spread),       weight = −reliability  → − the spread's toll
// and the score is exactly the sum of their (4-decimal) contributions.
//
// A median ≤ 0 (impossible from `band()`, which drops non-positive prices; possible in a
// hand-built Band) has no relative spread: it is 0 when the middle half has no width (p75 = p25,
// all the same price), and 1 — the cap, a band that scores 0 — when it has, since a width around
// a zero median is unboundedly wide relative to it. Pure.
import { type Factor, factor, roundTo } from './factor';
import type { Band } from './quantiles';

/** The number of points at which reliability is one half: reliability = n / (n + PRIOR_POINTS). */
export const PRIOR_POINTS = 5;
/** Fewer prices than this make a `thin` band (and no anomaly is judged against it). */
export const THIN_COUNT = 3;
/** spread < TIGHT_SPREAD → tight. */
export const TIGHT_SPREAD = 0.15;
/** spread < MODERATE_SPREAD → moderate; otherwise wide. */
export const MODERATE_SPREAD = 0.4;

export type DispersionLabel = 'tight' | 'moderate' | 'wide' | 'thin';

export interface Dispersion {
  /** (p75 − p25) / median, 4 decimals, not capped. */
  spread: number;
  /** n / (n + 5), 4 decimals. */
  reliability: number;
  /** 0..1, higher = a band you can price by; the sum of the factors' contributions. */
  score: number;
  label: DispersionLabel;
  factors: Factor[];
  /** One plain English sentence. */
  reasons: string;
}

/** n / (n + PRIOR_POINTS), unrounded; 0 for n ≤ 0. Thin data → low reliability. */
export function reliabilityOf(n: number): number {
  if (!(n > 0)) return 0;
  if (n === Infinity) return 1;
  return n / (n + PRIOR_POINTS);
}

export function dispersion(band: Band): Dispersion {
  const n = band.count;
  const iqr = band.p75 - band.p25;
  const measurable = band.median > 0;
  const spread = roundTo(measurable ? iqr / band.median : iqr > 0 ? 1 : 0, 4);
  const reliability = roundTo(reliabilityOf(n), 4);
  const capped = Math.min(1, spread);
  const factors = [factor('reliability', reliability, 1), factor('spread', capped, -reliability)];
  const score = roundTo(factors[0].contribution + factors[1].contribution, 4);
  const label: DispersionLabel =
    n < THIN_COUNT ? 'thin' : spread < TIGHT_SPREAD ? 'tight' : spread < MODERATE_SPREAD ? 'moderate' : 'wide';
  return { spread, reliability, score, label, factors, reasons: sentence(n, spread, measurable, label) };
}

function sentence(n: number, spread: number, measurable: boolean, label: DispersionLabel): string {
  const prices = n === 0 ? 'no prices' : n === 1 ? '1 price' : `${n} prices`;
  if (label === 'thin') return `${prices}: too few for a reliable band (thin)`;
  if (!measurable) {
    return spread === 0
      ? `${prices}, the middle half all at 0: a tight band`
      : `${prices} around a median of 0, so the spread cannot be measured against it: a wide band`;
  }
  return `${prices}, the middle half spanning ${roundTo(spread * 100, 2)} % of the median: a ${label} band`;
}
