// A factor: one named input behind a tradegraph number, so that every number the market
// intelligence returns can be explained term by term.
//
//   value = round6(input), contribution = round4(input × weight)
//
// Where a function returns factors for a number, the number is (up to the stated rounding) the
// sum of their contributions; a factor with weight 0 is context (a reference price, a sample
// size): it shaped the answer without adding to it. Also the one rounding rule used by the stats
// (`roundTo`), so a displayed number and the decision taken on it never disagree. Pure.

export interface Factor {
  /** snake_case name of the input, e.g. `reliability`, `spread`, `time_discount`. */
  name: string;
  /** The input's value, to 6 decimals (a price in major units, a ratio, a count). */
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

/**
 * A factor: its contribution as value × weight to four decimals, and the value shown to six — a
 * binary remainder such as 163.43200000000002 is noise to a reader, while six decimals keep
 * value × weight equal to the contribution at its own precision.
 */
export function factor(name: string, value: number, weight: number): Factor {
  return { name, value: roundTo(value, 6), weight: weight === 0 ? 0 : weight, contribution: roundTo(value * weight, 4) };
}
