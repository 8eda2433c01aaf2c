// A factor: one named input behind a tradegraph number, so that every number the market
// intelligence returns can be explained term by term.
//
//   contribution = round4(value × weight)
//
// Where a function returns factors for a number, the number is (up to the stated rounding) the
// sum of their contributions; a factor with weight 0 is context (a reference price, a sample
// size): it shaped the answer without adding to it. Also the one rounding rule used by the stats
// (`roundTo`), so a displayed number and the decision taken on it never disagree. Pure.

export interface Factor {
  /** snake_case name of the input, e.g. `reliability`, `spread`, `time_discount`. */
  name: string;
  /** The input's value (already rounded by the caller where it is a derived ratio). */
  value: number;
  /** What one unit of `value` is worth in the number explained; 0 for context. */
  weight: number;
  /** value × weight, rounded to 4 decimals. */
  contribution: number;
}

/**
 * `x` rounded to `decimals` places, half away from zero, symmetric for negatives, never −0.
 * The product x × 10^d is nudged by one relative epsilon first, so decimal halves that binary
 * floating point stores a hair low round as written (1.005 → 1.01, 0.145 → 0.15).
 */
export function roundTo(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** decimals;
  const r = (Math.sign(x) * Math.round(Math.abs(x) * f * (1 + Number.EPSILON))) / f;
  return r === 0 ? 0 : r; // -0 === 0: normalise the sign away
}

/** A factor with its contribution computed as value × weight, four decimals. */
export function factor(name: string, value: number, weight: number): Factor {
  return { name, value, weight: weight === 0 ? 0 : weight, contribution: roundTo(value * weight, 4) };
}
