// Counts by price, as the read models keep them: a flat array [price, count, price, count, …] in
// ascending price (minor units), each count > 0. An object keyed by price would do the same job,
// but its keys are integer-like: V8 parses and walks such an object as a sparse dictionary, which
// made reading a set's demand (a thousand prices) cost milliseconds. A flat array of numbers
// parses fast, is already in order for a band, and keeps its lowest price first. Pure.

export type PriceCounts = number[];

/** Index of `price` (even), or of where it would go, by binary search over the pairs. */
function seek(counts: PriceCounts, price: number): number {
  let lo = 0;
  let hi = counts.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (counts[mid * 2] < price) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2;
}

/** Adds `delta` to the count at `price` (inserted in order; removed when it reaches 0 or less). */
export function addPrice(counts: PriceCounts, price: number, delta: number): void {
  const i = seek(counts, price);
  if (i < counts.length && counts[i] === price) {
    const next = counts[i + 1] + delta;
    if (next <= 0) counts.splice(i, 2);
    else counts[i + 1] = next;
  } else if (delta > 0) {
    counts.splice(i, 0, price, delta);
  }
}

/** The pairs, in ascending price. */
export function pricePairs(counts: PriceCounts): Array<[price: number, count: number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < counts.length; i += 2) out.push([counts[i], counts[i + 1]]);
  return out;
}

/** The sum of the counts. */
export function totalCount(counts: PriceCounts): number {
  let sum = 0;
  for (let i = 1; i < counts.length; i += 2) sum += counts[i];
  return sum;
}

/** The lowest price counted, or null. */
export function lowestPrice(counts: PriceCounts): number | null {
  return counts.length > 0 ? counts[0] : null;
}

/** The sum of the counts at prices strictly under `price`. */
export function countBelow(counts: PriceCounts, price: number): number {
  let sum = 0;
  for (let i = 0; i < counts.length && counts[i] < price; i += 2) sum += counts[i + 1];
  return sum;
}
