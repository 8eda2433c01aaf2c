// The match engine's judgement, pure: does an inventory item meet a buyer request, almost meet it
// (a near miss) or not, and how well — as a score in 0..1 whose factors add up to it.
import { type Condition, type ConditionFit, compareCondition, nameSimilarity, normalizeCondition } from '@app/catalog';
import type { MatchCandidate, MatchFactor } from '@app/contracts';
import { fromMinor } from '@app/platform';

/**
 * What scoring needs of a request (its stored criteria, flattened). Open fields: a null `setName`
 * (`setKey` `*`) takes any printing, a null `condition` any condition, a null `maxPriceMinor` any
 * price; an open field never makes a near miss, it is met, and its factor and reason say so.
 */
export interface RequestView {
  cardName: string;
  cardKey: string;
  setKey: string;
  setName: string | null;
  condition: string | null;
  maxPriceMinor: number | null;
  currency: string;
}

/** What scoring needs of an inventory item. */
export interface ItemView {
  id: string;
  cardName: string;
  cardKey: string;
  setKey: string;
  /** Its set's display name (said in the reason when any set was requested). */
  setName?: string;
  condition: string;
  priceMinor: number;
  currency: string;
}

export const WEIGHTS = { name_similarity: 0.4, set: 0.2, condition_margin: 0.2, price_headroom: 0.2 } as const;
/** Below this name similarity two names are different cards, not a typo. */
export const TYPO_SIMILARITY = 0.85;
/** A price at most this far above the maximum is a near miss. */
export const PRICE_TOLERANCE = 0.1;
/** Near misses lose this share of their score, so every full match outranks every near miss. */
export const NEAR_MISS_PENALTY = 0.2;

const conditions = new Map<string, Condition>();
/** Stored labels are already normalized; parsing them again is cheap but they repeat a lot. */
function conditionOf(label: string): Condition {
  let c = conditions.get(label);
  if (!c) {
    c = normalizeCondition(label).value;
    if (conditions.size > 10_000) conditions.clear();
    conditions.set(label, c);
  }
  return c;
}

const round = (n: number): number => Math.round(n * 10_000) / 10_000;
const money = (minor: number, currency: string): string => `${fromMinor(minor).toFixed(2)} ${currency}`;

/** The value of an open field's factor: met, as well as a field can be (every open-field match ranks the same on it). */
export const OPEN_FIELD_VALUE = 1;

function priceFactor(req: RequestView, item: ItemView): { value: number; nearMiss: boolean; reason: string } | null {
  const max = req.maxPriceMinor;
  const price = item.priceMinor;
  if (max === null) return { value: OPEN_FIELD_VALUE, nearMiss: false, reason: `any price requested (offered at ${money(price, item.currency)})` };
  if (price <= max) {
    const headroom = max === 0 ? 0 : (max - price) / max;
    const pct = Math.round(headroom * 100);
    return {
      value: 0.7 + 0.3 * Math.min(1, headroom / 0.5),
      nearMiss: false,
      reason: price === max
        ? `price ${money(price, item.currency)} is exactly the maximum`
        : `price ${money(price, item.currency)} is ${pct} % under the ${money(max, req.currency)} maximum`,
    };
  }
  // Integer comparison: over / max ≤ 10 %  ⇔  over × 10 ≤ max.
  const over = price - max;
  if (max === 0 || over * 10 > max) return null;
  const ratio = over / max;
  return {
    value: 0.4 * (1 - ratio / PRICE_TOLERANCE),
    nearMiss: true,
    reason: `price ${money(price, item.currency)} is ${Math.max(1, Math.round(ratio * 100))} % above the ${money(max, req.currency)} maximum`,
  };
}

/** Scores one item against one request; null when it is neither a match nor a near miss. */
export function scoreMatch(req: RequestView, item: ItemView): MatchCandidate | null {
  const anySet = req.setName === null;
  if (item.currency !== req.currency || (!anySet && item.setKey !== req.setKey)) return null;
  const similarity = item.cardKey === req.cardKey ? 1 : nameSimilarity(req.cardKey, item.cardKey);
  if (similarity < TYPO_SIMILARITY) return null;
  const requested = req.condition === null ? null : conditionOf(req.condition);
  const fit: ConditionFit = requested
    ? compareCondition(requested, conditionOf(item.condition))
    : { verdict: 'meets', margin: 0, sameCompany: true, reason: `any condition requested (offered ${item.condition})` };
  if (fit.verdict === 'no') return null;
  const price = priceFactor(req, item);
  if (!price) return null;

  const nameTypo = similarity < 1;
  const conditionNear = fit.verdict === 'near_miss';
  const kind = nameTypo || conditionNear || price.nearMiss ? 'near_miss' : 'full';

  let conditionValue = requested === null ? OPEN_FIELD_VALUE : conditionNear ? 0.4 : 0.8 + 0.1 * Math.min(2, Math.max(0, fit.margin));
  // Another grading company's grade is worth a little less than the requested company's own.
  if (!conditionNear && !fit.sameCompany && requested?.kind === 'graded') conditionValue -= 0.1;

  const values = { name_similarity: similarity, set: 1, condition_margin: conditionValue, price_headroom: price.value };
  const factors: MatchFactor[] = (Object.keys(WEIGHTS) as Array<keyof typeof WEIGHTS>).map((name) => ({
    name,
    value: round(values[name]),
    weight: WEIGHTS[name],
    contribution: round(values[name] * WEIGHTS[name]),
  }));
  const reasons = [
    nameTypo
      ? `near miss: card name "${item.cardName}" differs from "${req.cardName}" by a typo (${Math.round(similarity * 100)} % similar)`
      : 'same card',
    anySet ? `any set requested (${item.setName ?? 'this printing'})` : `same set (${req.setName})`,
    conditionNear ? `near miss: ${fit.reason}` : fit.reason,
    price.nearMiss ? `near miss: ${price.reason}` : price.reason,
  ];
  if (kind === 'near_miss') {
    const base = factors.reduce((sum, f) => sum + f.contribution, 0);
    factors.push({ name: 'near_miss_penalty', value: NEAR_MISS_PENALTY, weight: 1, contribution: -round(base * NEAR_MISS_PENALTY) });
  }
  const score = round(Math.min(1, Math.max(0, factors.reduce((sum, f) => sum + f.contribution, 0))));
  return { inventoryItemId: item.id, kind, score, factors, reasons };
}

/** Best first; ties broken by item id so results are stable. */
export function byScore(a: MatchCandidate, b: MatchCandidate): number {
  return b.score - a.score || (a.inventoryItemId < b.inventoryItemId ? -1 : a.inventoryItemId > b.inventoryItemId ? 1 : 0);
}
