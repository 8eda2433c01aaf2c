// Is a listed price out of line with its band? Above the band's p90 or below its p10, and by how
// much — a ratio to that edge, graded into a severity — with the factors and one sentence.
//
//   no anomaly (null)  when band.count < 3 (too thin to judge), or p10 ≤ price ≤ p90
//   above p90          ratio = price / p90     high ≥ 2     medium ≥ 1.4   low otherwise
//   below p10          ratio = price / p10     high ≤ 0.5   medium ≤ 0.7   low otherwise
//
// The ratio is rounded to 4 decimals and the severity read from the rounded ratio, so a price of
// exactly 2 × p90 is high and 1.4 × p90 is medium (boundaries included in the graver severity,
// on both sides). Factors: `price` (value = price, weight = 1 / edge, contribution = the ratio)
// and two context factors of weight 0: `p90` or `p10` (the edge) and `count` (the band's size).
//
// Prices: a negative or non-finite price is not a price — null. A price of 0 IS judged: below a
// positive p10 its ratio is 0, a high anomaly (a listing at 0 is worth flagging). An edge ≤ 0
// gives no ratio — null; it exists only in a hand-built Band (`band()` keeps positive prices).
// A "use the median when p10 is 0" fallback would never apply: a price ≥ 0 is never below a
// p10 ≤ 0, and above a p90 ≤ 0 the median (≤ p90) is ≤ 0 too. Pure.
import { type Factor, factor, roundTo } from './factor';
import type { Band } from './quantiles';

/** Fewer prices than this in the band: no anomaly is judged. */
export const MIN_ANOMALY_COUNT = 3;
/** price / p90 ≥ this → high. */
export const ABOVE_HIGH_RATIO = 2;
/** price / p90 ≥ this → medium (below ABOVE_HIGH_RATIO). */
export const ABOVE_MEDIUM_RATIO = 1.4;
/** price / p10 ≤ this → high. */
export const BELOW_HIGH_RATIO = 0.5;
/** price / p10 ≤ this → medium (above BELOW_HIGH_RATIO). */
export const BELOW_MEDIUM_RATIO = 0.7;

export type AnomalySeverity = 'low' | 'medium' | 'high';

export interface Anomaly {
  direction: 'above' | 'below';
  severity: AnomalySeverity;
  /** price / the edge crossed (p90 above, p10 below), 4 decimals. */
  ratio: number;
  factors: Factor[];
  /** One plain English sentence. */
  reasons: string;
}

const WORDS: Record<'above' | 'below', Record<AnomalySeverity, string>> = {
  above: { high: 'far above', medium: 'well above', low: 'slightly above' },
  below: { high: 'far below', medium: 'well below', low: 'slightly below' },
};

export function anomaly(price: number, band: Band): Anomaly | null {
  if (!Number.isFinite(price) || price < 0) return null;
  if (band.count < MIN_ANOMALY_COUNT) return null;
  const direction = price > band.p90 ? 'above' : price < band.p10 ? 'below' : null;
  if (direction === null) return null;
  const edgeName = direction === 'above' ? 'p90' : 'p10';
  const edge = direction === 'above' ? band.p90 : band.p10;
  if (!(edge > 0)) return null;
  const ratio = roundTo(price / edge, 4);
  const severity: AnomalySeverity =
    direction === 'above'
      ? ratio >= ABOVE_HIGH_RATIO ? 'high' : ratio >= ABOVE_MEDIUM_RATIO ? 'medium' : 'low'
      : ratio <= BELOW_HIGH_RATIO ? 'high' : ratio <= BELOW_MEDIUM_RATIO ? 'medium' : 'low';
  const factors = [factor('price', price, 1 / edge), factor(edgeName, edge, 0), factor('count', band.count, 0)];
  const reasons =
    `listed at ${price.toFixed(2)}, ${times(ratio)}× the band's ${edgeName} of ${edge.toFixed(2)} ` +
    `(${band.count} prices): ${WORDS[direction][severity]}`;
  return { direction, severity, ratio, factors, reasons };
}

/** The ratio with two decimals, a trailing zero dropped: 5 → "5.0", 1.39 → "1.39", 0.5 → "0.5". */
function times(ratio: number): string {
  const s = ratio.toFixed(2);
  return s.endsWith('0') ? s.slice(0, -1) : s;
}
