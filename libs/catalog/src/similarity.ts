// Name similarity for typo detection: Damerau-Levenshtein (optimal string alignment) distance
// scaled by the longer length, capped below the typo threshold when the keys differ in an
// identity token (ex/EX/GX/V…, variant letters, numbers), so a different card never looks like a typo.
import { identitySignature } from './card-name-key';

/** At or above this, two keys are close enough to be a typo of each other. */
export const TYPO_SIMILARITY = 0.85;
/** Keys that differ in an identity token score at most this. */
export const DIFFERENT_IDENTITY_CAP = 0.8;

/**
 * Optimal-string-alignment distance (insert, delete, substitute, swap adjacent), giving up as soon
 * as it must exceed `max`: then returns `max + 1`.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  const m = a.length;
  const n = b.length;
  if ((m > n ? m - n : n - m) > max) return max + 1;
  // Three rolling rows; the hot loop touches no globals (`Math.min` is slow in jest's vm context).
  let before = new Int32Array(n + 1);
  let previous = new Int32Array(n + 1);
  let current = new Int32Array(n + 1);
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= m; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = previous[j - 1] + (ai === bj ? 0 : 1);
      const del = previous[j] + 1;
      if (del < d) d = del;
      const ins = current[j - 1] + 1;
      if (ins < d) d = ins;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj) {
        const swap = before[j - 2] + 1;
        if (swap < d) d = swap;
      }
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const recycled = before;
    before = previous;
    previous = current;
    current = recycled;
  }
  return previous[n];
}

/** 1 - distance / longer length, from a known distance; exported for the catalogue search. */
export function similarityFromDistance(distance: number, aLength: number, bLength: number): number {
  const longer = Math.max(aLength, bLength);
  return longer === 0 ? 1 : 1 - distance / longer;
}

/**
 * 0..1 similarity of two card-name keys (see `cardNameKey`); 1 iff they are equal. A one-letter
 * typo in a name of 7+ characters scores ≥ 0.85; keys differing in a mechanic or variant token
 * (`charizard ex` / `charizard gx`, `charizard` / `charizard ex`) score ≤ 0.8.
 */
export function nameSimilarity(aKey: string, bKey: string): number {
  if (aKey === bKey) return 1;
  if (aKey === '' || bKey === '') return 0;
  const similarity = similarityFromDistance(editDistance(aKey, bKey), aKey.length, bKey.length);
  return identitySignature(aKey) === identitySignature(bKey)
    ? similarity
    : Math.min(similarity, DIFFERENT_IDENTITY_CAP);
}
