// A card's price band (per condition and currency) from its price points: the completed sales in
// the window (each unit price weighted by its units × SALE_WEIGHT), the available listings (each
// LISTING_WEIGHT) and the open buyers' maximum prices (each BUYER_WEIGHT) — what the market paid,
// asks and bids, in that order of trust — as p10 / p25 / median / p75 / p90 with the count of
// each source, its dispersion (how wide, how reliable), and the listing prices outside it: each
// judged against the band of every other point (leave one out: one listing at that price taken
// away), so an outlier does not widen the band it is judged by. Listings and buyers come counted
// by price, so a card's band costs its distinct prices, not its listings. Prices are decimals here
// (minor units ÷ 100), as the API shows them. Pure.
import { anomaly, type Anomaly, band, type Band, dispersion, type Dispersion, type Weighted } from '../stats';
import type { PriceCounts } from './price-counts';
import type { PointsDoc } from './pricing.views';

export const SALE_WEIGHT = 1;
export const LISTING_WEIGHT = 0.5;
export const BUYER_WEIGHT = 0.25;
const DAY = 86_400_000;

export interface PriceBand {
  band: Band | null;
  sources: { sales: number; listings: number; buyers: number };
  dispersion: Dispersion | null;
}

/** Listings at one price found outside the band of the other points. */
export interface PriceAnomaly extends Anomaly {
  priceMinor: number;
  /** Listings at that price. */
  listings: number;
  /** The listing price (decimal). */
  price: number;
  /** The band it was judged against: every point but one listing at that price. */
  against: Band;
}

export interface CardPricing extends PriceBand {
  anomalies: PriceAnomaly[];
}

type Counted = Weighted & { priceMinor: number; n: number };

function counted(counts: PriceCounts, weight: number): Counted[] {
  const out: Counted[] = [];
  for (let i = 0; i < counts.length; i += 2) out.push({ value: counts[i] / 100, weight: counts[i + 1] * weight, priceMinor: counts[i], n: counts[i + 1] });
  return out;
}

/** The points of a band: the sales in the window, the listings and the buyers. */
function pointsOf(doc: Pick<PointsDoc, 'sales' | 'asks' | 'bids'>, now: Date, windowDays: number): { sales: Weighted[]; asks: Counted[]; bids: Counted[] } {
  const from = now.getTime() - windowDays * DAY;
  const sales: Weighted[] = [];
  for (const sale of doc.sales) {
    const at = Date.parse(sale.at);
    if (at < from || at > now.getTime()) continue;
    sales.push({ value: sale.priceMinor / 100, weight: sale.units * SALE_WEIGHT });
  }
  return { sales, asks: counted(doc.asks, LISTING_WEIGHT), bids: counted(doc.bids, BUYER_WEIGHT) };
}

/** The band alone (what routing prices against): no listing judged, so no band per listing price. */
export function priceBandOf(doc: Pick<PointsDoc, 'sales' | 'asks' | 'bids'>, now: Date, windowDays: number): PriceBand {
  const { sales, asks, bids } = pointsOf(doc, now, windowDays);
  return described(band([...sales, ...asks, ...bids]), sales, asks, bids);
}

function described(whole: Band | null, sales: Weighted[], asks: Counted[], bids: Counted[]): PriceBand {
  const shown = whole ? { ...whole, count: pointCount(sales.length, asks, bids) } : null;
  return {
    band: shown,
    sources: { sales: sales.length, listings: asks.reduce((sum, a) => sum + a.n, 0), buyers: bids.reduce((sum, b) => sum + b.n, 0) },
    dispersion: shown ? dispersion(shown) : null,
  };
}

/** The band, and each listing price judged against the band of every other point. */
export function pricingOf(doc: Pick<PointsDoc, 'sales' | 'asks' | 'bids'>, now: Date, windowDays: number): CardPricing {
  const { sales, asks, bids } = pointsOf(doc, now, windowDays);
  const whole = band([...sales, ...asks, ...bids]);
  const anomalies: PriceAnomaly[] = [];
  for (const ask of asks) {
    // Every point but one listing at this price.
    const others = [...sales, ...bids, ...asks.map((a) => (a === ask ? { ...a, weight: (a.n - 1) * LISTING_WEIGHT } : a))].filter((p) => p.weight > 0);
    const against = band(others);
    // Counted points: a count of `n` listings is n points for the band's count.
    const found = against ? anomaly(ask.value, { ...against, count: pointCount(sales.length, asks, bids) - 1 }) : null;
    if (found && against) anomalies.push({ ...found, priceMinor: ask.priceMinor, listings: ask.n, price: ask.value, against: { ...against, count: pointCount(sales.length, asks, bids) - 1 } });
  }
  return { ...described(whole, sales, asks, bids), anomalies };
}

/** Points behind a band: each sale, each listing and each buyer (not each distinct price). */
function pointCount(sales: number, asks: ReadonlyArray<{ n: number }>, bids: ReadonlyArray<{ n: number }>): number {
  return sales + asks.reduce((sum, a) => sum + a.n, 0) + bids.reduce((sum, b) => sum + b.n, 0);
}
