// Weighted quantiles and the price band (p10 … p90) that tradegraph prices against.
//
// Why weighted: a band mixes observations of unequal standing (a recent sale counts more than an
// old one, a completed trade more than an asking price). Why this definition: it must reduce
// EXACTLY to the common percentile (Hyndman & Fan type 7, "linear interpolation between closest
// ranks", the default of R, NumPy and spreadsheets) when all weights are 1, put q = 0 on the
// minimum and q = 1 on the maximum, and not depend on the unit of the weights.
//
// The formula. Values x₁ ≤ … ≤ xₙ with weights w₁ … wₙ > 0. Each value is placed at the centre
// of its slab of cumulative weight, shifted so the first centre is at 0:
//
//   c₁ = 0,   cᵢ₊₁ = cᵢ + (wᵢ + wᵢ₊₁) / 2        (so cᵢ = w₁ + … + wᵢ − wᵢ/2 − w₁/2)
//   D  = cₙ = W − (w₁ + wₙ) / 2                    (W = total weight)
//
// The q-quantile sits at h = q × D on that axis, linearly interpolated between the two
// neighbouring centres:  cᵢ ≤ h ≤ cᵢ₊₁  →  Q(q) = xᵢ + (h − cᵢ) / (cᵢ₊₁ − cᵢ) × (xᵢ₊₁ − xᵢ).
//
// With unit weights cᵢ = i − 1 and D = n − 1, i.e. h = q(n − 1): the type-7 rule, with the same
// arithmetic. One value (D = 0): every quantile is that value. Properties: Q(0) = min, Q(1) =
// max, Q is non-decreasing in q, scaling every weight by k > 0 changes nothing, reversing the data
// mirrors q ↔ 1 − q. It is NOT replication-consistent (weight 2 is not "two copies": for [a w=2,
// b w=1] the median is (a + b)/2, with [a, a, b] it is a) — no scale-invariant rule that keeps
// min and max at q = 0 and 1 can be.
//
// Hand example: 10 (w 1), 20 (w 3), 30 (w 1): centres 0, 2, 4; D = 4. Median h = 2 → 20;
// p25 h = 1 → 10 + ½ × 10 = 15; p90 h = 3.6 → 20 + 0.8 × 10 = 28.
//
// Unusable entries are skipped everywhere: a non-finite value, or a weight that is not a finite
// number > 0. Equal values keep a deterministic order (`sortWeighted` breaks ties by weight,
// lighter first): with unequal weights the order of ties shifts the centres of the values around
// them, so it has to be fixed. Pure; `weightedQuantile` allocates nothing.

export interface Weighted {
  value: number;
  /** > 0; entries with a non-finite or non-positive weight are ignored. */
  weight: number;
}

export interface Band {
  p10: number;
  p25: number;
  median: number;
  p75: number;
  p90: number;
  /** Number of values used. */
  count: number;
  /** Their total weight. */
  weight: number;
  min: number;
  max: number;
}

/** A finite value with a finite weight > 0. */
export function usable(w: Weighted): boolean {
  return Number.isFinite(w.value) && Number.isFinite(w.weight) && w.weight > 0;
}

/**
 * The usable entries in ascending value order (ties: lighter weight first, then input order) —
 * a new array of the same objects; the input is not touched.
 */
export function sortWeighted(values: readonly Weighted[]): Weighted[] {
  const out: Weighted[] = [];
  for (const w of values) if (usable(w)) out.push(w);
  return out.sort(byValueThenWeight);
}

function byValueThenWeight(a: Weighted, b: Weighted): number {
  return a.value - b.value || a.weight - b.weight;
}

/**
 * The weighted q-quantile (0 ≤ q ≤ 1) of values sorted ascending, by the centred-cumulative-weight
 * rule in this file's header. Unusable entries are skipped; NaN when none is usable. Throws a
 * RangeError when q is outside [0, 1] or the usable values are not in ascending order.
 */
export function weightedQuantile(sorted: readonly Weighted[], q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`weightedQuantile: q must be in [0, 1], got ${q}`);
  // First pass: check the order and compute D exactly as the walk below will.
  let d = 0;
  let prev: Weighted | undefined;
  for (const w of sorted) {
    if (!usable(w)) continue;
    if (prev !== undefined) {
      if (w.value < prev.value) {
        throw new RangeError(`weightedQuantile: values must be sorted ascending (${w.value} after ${prev.value})`);
      }
      d += (prev.weight + w.weight) / 2;
    }
    prev = w;
  }
  if (prev === undefined) return NaN;
  return quantileAt(sorted, q * d);
}

/**
 * The value at position h (0 ≤ h ≤ D) of the centre axis of `sorted` (ascending, unusable entries
 * skipped). Internal: the callers have checked the order and computed D the same way.
 */
function quantileAt(sorted: readonly Weighted[], h: number): number {
  let c = 0;
  let prev: Weighted | undefined;
  for (const w of sorted) {
    if (!usable(w)) continue;
    if (prev === undefined) {
      if (h <= 0) return w.value;
    } else {
      const next = c + (prev.weight + w.weight) / 2;
      if (next >= h) {
        // c < h ≤ next, so next > c: no division by zero, even when float addition stalls.
        if (next === h) return w.value;
        const x = prev.value + ((h - c) / (next - c)) * (w.value - prev.value);
        // Keep the rounding of the interpolation inside [xᵢ, xᵢ₊₁] (monotone, within min..max).
        return x < prev.value ? prev.value : x > w.value ? w.value : x;
      }
      c = next;
    }
    prev = w;
  }
  return prev === undefined ? NaN : prev.value; // h = D after rounding: the maximum
}

/**
 * The values at positions hs (ascending, each 0 ≤ h ≤ D) of the centre axis of `sorted` — what
 * quantileAt gives for each, in one walk. Internal, like quantileAt.
 */
function quantilesAt(sorted: readonly Weighted[], hs: readonly number[]): number[] {
  const out: number[] = [];
  let c = 0;
  let prev: Weighted | undefined;
  for (const w of sorted) {
    if (!usable(w)) continue;
    if (prev === undefined) {
      while (out.length < hs.length && hs[out.length] <= 0) out.push(w.value);
    } else {
      const next = c + (prev.weight + w.weight) / 2;
      while (out.length < hs.length && next >= hs[out.length]) {
        const h = hs[out.length];
        if (next === h) {
          out.push(w.value);
        } else {
          const x = prev.value + ((h - c) / (next - c)) * (w.value - prev.value);
          out.push(x < prev.value ? prev.value : x > w.value ? w.value : x);
        }
      }
      c = next;
    }
    if (out.length === hs.length) return out;
    prev = w;
  }
  while (out.length < hs.length) out.push(prev === undefined ? NaN : prev.value);
  return out;
}

/**
 * The price band of a set of weighted prices: p10, p25, median, p75, p90, count, total weight,
 * min and max; null when no usable price. Input order does not matter (input already in order —
 * counts kept by price — skips the sort). Prices are positive: a value ≤ 0 (a placeholder, a data
 * error, a "free" listing) is ignored like a non-finite one — kept, it would drag the lower
 * quantiles and make relative spreads and ratios meaningless.
 */
export function band(values: readonly Weighted[], options: { includeZero?: boolean } = {}): Band | null {
  const sorted: Weighted[] = [];
  let total = 0;
  let inOrder = true;
  for (const w of values) {
    // Prices must be positive; a quantity that may be 0 (an age in days) says so.
    if (usable(w) && (w.value > 0 || (options.includeZero === true && w.value === 0))) {
      if (inOrder && sorted.length > 0 && byValueThenWeight(sorted[sorted.length - 1], w) > 0) inOrder = false;
      sorted.push(w);
      total += w.weight;
    }
  }
  const n = sorted.length;
  if (n === 0) return null;
  if (!inOrder) sorted.sort(byValueThenWeight);
  let d = 0;
  for (let i = 1; i < n; i++) d += (sorted[i - 1].weight + sorted[i].weight) / 2;
  const [p10, p25, median, p75, p90] = quantilesAt(sorted, [0.1 * d, 0.25 * d, 0.5 * d, 0.75 * d, 0.9 * d]);
  return { p10, p25, median, p75, p90, count: n, weight: total, min: sorted[0].value, max: sorted[n - 1].value };
}

/** A band as shown: its quantiles and extremes to 2 decimals, its weight to 4 (null stays null). */
export function roundedBand(b: Band | null): Band | null {
  if (!b) return null;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p10: r(b.p10), p25: r(b.p25), median: r(b.median), p75: r(b.p75), p90: r(b.p90), min: r(b.min), max: r(b.max), count: b.count, weight: Math.round(b.weight * 10_000) / 10_000 };
}
