// The best ways to execute an available item, ranked by expected value: each action has a price,
// a probability that it happens, a delay, and so an expected value = probability × price ×
// (1 − 0.2 %)^delayDays (stats/expected-value), with a confidence that is lower on thin data
// (band points n: n ÷ (n + 5), halved for an action that rests on no band). Actions:
// - sell_to_request: an open, matching buyer request whose maximum price reaches the listed price —
//   sell at the listed price, or up to the band's median when the buyer allows (p 0.85, 1 day);
// - send_offer: an open request whose maximum price is under the listed price but within the band
//   (≥ p25) — offer at the buyer's maximum (p 0.6, 2 days);
// - reprice_to_band: an item priced outside the middle half of its band — relist at the median
//   (p the card's sell-through in the window, at least 0.25; half the window);
// - hold_for_live: a card with at least 2 open requests — put it up in a live session, at the
//   band's p75 (p 0.5, 7 days);
// - bundle: a low-value item (under 10.00) with no open request — sell it in a lot (p 0.4, 14 days);
// - wait: keep it as listed (p the card's sell-through, at least 0.1; the whole window).
// Actions at the listed price (wait, hold, bundle) have their probability scaled by the price's fit
// in the band: 1 up to p75, ½ up to p90, and ½ × (p90 ÷ price)² above it — a listing at 5× the
// market does not sell at the card's usual pace. Pure.
import { type Band, confidence, expectedValue, type Factor, factor, roundTo } from '../stats';

export const ACTIONS = ['sell_to_request', 'send_offer', 'reprice_to_band', 'hold_for_live', 'bundle', 'wait'] as const;
export type ActionKind = (typeof ACTIONS)[number];
export const BUNDLE_BELOW = 10;

export interface RoutingInput {
  /** Listed price (decimal). */
  price: number;
  band: Band | null;
  /** The best open request of the card whose maximum price reaches the listed price, if any. */
  paying: { buyerRequestId: string; maxPrice: number } | null;
  /** The best open request of the card (whatever its price), if any. */
  best: { buyerRequestId: string; maxPrice: number } | null;
  /** Open requests of the card. */
  openRequests: number;
  /** The card's sell-through in the window (null without sales or stock). */
  sellThrough: number | null;
  windowDays: number;
}

export interface RoutedAction {
  action: ActionKind;
  price: number;
  probability: number;
  delayDays: number;
  expectedValue: number;
  confidence: number;
  buyerRequestId: string | null;
  factors: Factor[];
  reasons: string;
}

const money = (n: number) => n.toFixed(2);

/** How a price at or above the band sells compared with one in it (1 without a band). */
export function priceFit(price: number, band: Band | null): number {
  if (!band || price <= band.p75) return 1;
  if (price <= band.p90) return 0.5;
  return roundTo(0.5 * (band.p90 / price) ** 2, 4);
}

export function executionActions(input: RoutingInput): RoutedAction[] {
  const { price, band } = input;
  const points = band?.count ?? 0;
  const sure = confidence(points);
  const actions: RoutedAction[] = [];
  const add = (action: ActionKind, at: number, probability: number, delayDays: number, buyerRequestId: string | null, why: string, conf = sure) => {
    const ev = expectedValue({ price: at, probability, delayDays });
    actions.push({
      action,
      price: roundTo(at, 2),
      probability,
      delayDays,
      expectedValue: ev.value,
      confidence: conf,
      buyerRequestId,
      factors: [...ev.factors, factor('band_points', points, 0)],
      reasons: why,
    });
  };
  // The best buyer that already pays the listed price, else the best one if within the band.
  const paying = input.paying;
  if (paying) {
    const at = band ? Math.max(price, Math.min(paying.maxPrice, band.median)) : price;
    add('sell_to_request', at, 0.85, 1, paying.buyerRequestId, `a waiting buyer pays up to ${money(paying.maxPrice)}: sell at ${money(at)}`, Math.max(sure, 0.5));
  } else if (band) {
    const near = input.best && input.best.maxPrice >= band.p25 ? input.best : null;
    if (near) add('send_offer', near.maxPrice, 0.6, 2, near.buyerRequestId, `a buyer pays up to ${money(near.maxPrice)}, under the listed ${money(price)} but within the band (p25 ${money(band.p25)}): offer at their maximum`);
  }
  const sellThrough = input.sellThrough ?? 0;
  const fit = priceFit(price, band);
  if (band && (price > band.p75 || price < band.p25)) {
    add(
      'reprice_to_band',
      band.median,
      Math.max(0.25, sellThrough),
      Math.round(input.windowDays / 2),
      null,
      `listed at ${money(price)}, outside the middle half of its band (${money(band.p25)}–${money(band.p75)}): relist at the median ${money(band.median)}`,
    );
  }
  if (input.openRequests >= 2) {
    const at = band ? Math.max(price, band.p75) : price;
    add('hold_for_live', at, roundTo(0.5 * priceFit(at, band), 4), 7, null, `${input.openRequests} open requests for this card: put it up in a live session at ${money(at)}`, band ? sure : roundTo(sure / 2, 2));
  }
  if (price < BUNDLE_BELOW && input.openRequests === 0) {
    add('bundle', price, roundTo(0.4 * fit, 4), 14, null, `low value (${money(price)}) and no open request: sell it in a lot with others`, band ? sure : roundTo(sure / 2, 2));
  }
  add(
    'wait',
    price,
    roundTo(Math.max(0.1, sellThrough) * fit, 4),
    input.windowDays,
    null,
    `keep it listed at ${money(price)}: ${roundTo(sellThrough * 100, 1)} % of this card's units sold in ${input.windowDays} days` +
      (fit < 1 ? `, and it is priced ${price > (band?.p90 ?? Infinity) ? 'above' : 'high in'} its band (fit ${fit})` : ''),
    band ? sure : roundTo(sure / 2, 2),
  );
  return actions.sort((a, b) => b.expectedValue - a.expectedValue || b.confidence - a.confidence);
}
