// Expected value and confidence, for ranking execution actions (which offer to accept, which
// listing to reprice, which buyer to chase) on one comparable scale.
//
//   value      = probability × price × (1 − dailyDiscount)^delayDays − cost        2 decimals
//                defaults: cost 0, delayDays 0, dailyDiscount 0.002 (≈ 0.2 % a day, ~52 % a year)
//   confidence = points / (points + 5) × agreement                                 2 decimals
//                (5 points → 0.5 × agreement, 20 → 0.8 ×; thin data → low confidence)
//
// The value is explained by three factors whose contributions sum to it (each contribution has 4
// decimals, the value 2, so the sum may differ from the value by less than 0.005):
//   price          value = price,                          weight = probability  → probability × price
//   time_discount  value = 1 − (1 − dailyDiscount)^delay,  weight = −probability × price
//                                                            → what waiting costs
//   cost           value = cost,                           weight = −1           → − cost
//
// Inputs are checked: probability and agreement in [0, 1], dailyDiscount in [0, 1), price, cost,
// delayDays and points finite and ≥ 0; anything else is a caller's bug and throws a RangeError.
// (The value itself may be negative: an action whose cost exceeds what it is expected to bring.)
// Pure.
import { PRIOR_POINTS } from './dispersion';
import { type Factor, factor, roundTo } from './factor';

export const DEFAULT_DAILY_DISCOUNT = 0.002;

export interface ExpectedValueInput {
  /** What the action brings when it succeeds (a sale price, a saved amount). ≥ 0. */
  price: number;
  /** Its chance of succeeding, 0..1. */
  probability: number;
  /** What it costs whatever the outcome (fees, shipping). ≥ 0; default 0. */
  cost?: number;
  /** Days until the money arrives. ≥ 0; default 0. */
  delayDays?: number;
  /** Value lost per day of delay, compounded. [0, 1); default 0.002. */
  dailyDiscount?: number;
}

export interface ExpectedValue {
  /** 2 decimals; may be negative. */
  value: number;
  factors: Factor[];
}

export function expectedValue(input: ExpectedValueInput): ExpectedValue {
  const { price, probability, cost = 0, delayDays = 0, dailyDiscount = DEFAULT_DAILY_DISCOUNT } = input;
  nonNegative('price', price);
  nonNegative('cost', cost);
  nonNegative('delayDays', delayDays);
  unit('probability', probability);
  if (!(dailyDiscount >= 0 && dailyDiscount < 1)) {
    throw new RangeError(`expectedValue: dailyDiscount must be in [0, 1), got ${dailyDiscount}`);
  }
  const gross = probability * price;
  const kept = (1 - dailyDiscount) ** delayDays;
  return {
    value: roundTo(gross * kept - cost, 2),
    factors: [factor('price', price, probability), factor('time_discount', 1 - kept, -gross), factor('cost', cost, -1)],
  };
}

/** points / (points + 5) × agreement, 2 decimals, in [0, 1]. */
export function confidence(points: number, agreement = 1): number {
  nonNegative('points', points);
  unit('agreement', agreement);
  return roundTo((points / (points + PRIOR_POINTS)) * agreement, 2);
}

function nonNegative(name: string, x: number): void {
  if (!(Number.isFinite(x) && x >= 0)) throw new RangeError(`${name} must be a finite number ≥ 0, got ${x}`);
}

function unit(name: string, x: number): void {
  if (!(x >= 0 && x <= 1)) throw new RangeError(`${name} must be in [0, 1], got ${x}`);
}
