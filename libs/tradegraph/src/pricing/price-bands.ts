// A card's price band (per condition and currency) from its price points: the completed sales in
// the window (each unit price weighted by its units × SALE_WEIGHT), the available listings (each
// LISTING_WEIGHT) and the open buyers' maximum prices (each BUYER_WEIGHT) — what the market paid,
// asks and bids, in that order of trust — as p10 / p25 / median / p75 / p90 with the count of
// each source, its dispersion (how wide, how reliable), and the listings priced outside it: each
// judged against the band of every other point (leave one out), so an outlier does not widen the
// band it is judged by. Prices are decimals here (minor units ÷ 100), as the API shows them. Pure.
import { anomaly, type Anomaly, band, type Band, dispersion, type Dispersion, type Weighted } from '../stats';
import type { PointsDoc } from '../tradegraph.projection';

export const SALE_WEIGHT = 1;
export const LISTING_WEIGHT = 0.5;
export const BUYER_WEIGHT = 0.25;
const DAY = 86_400_000;

export interface PriceBand {
  band: Band | null;
  sources: { sales: number; listings: number; buyers: number };
  dispersion: Dispersion | null;
}

export interface ListingAnomaly extends Anomaly {
  itemId: string;
  /** The listing's price (decimal). */
  price: number;
  /** The band the listing was judged against: every point but its own. */
  against: Band;
}

export interface CardPricing extends PriceBand {
  anomalies: ListingAnomaly[];
}

interface Point extends Weighted {
  itemId?: string;
}

export function pricingOf(doc: PointsDoc, now: Date, windowDays: number): CardPricing {
  const from = now.getTime() - windowDays * DAY;
  const points: Point[] = [];
  let sales = 0;
  for (const sale of doc.sales) {
    const at = Date.parse(sale.at);
    if (at < from || at > now.getTime()) continue;
    points.push({ value: sale.priceMinor / 100, weight: sale.units * SALE_WEIGHT });
    sales += 1;
  }
  const listings = Object.entries(doc.listings);
  for (const [itemId, listing] of listings) points.push({ value: listing.priceMinor / 100, weight: LISTING_WEIGHT, itemId });
  const buyers = Object.values(doc.buyers);
  for (const maxPrice of buyers) points.push({ value: maxPrice / 100, weight: BUYER_WEIGHT });
  const whole = band(points);
  const anomalies: ListingAnomaly[] = [];
  for (const [itemId, listing] of listings) {
    const others = band(points.filter((p) => p.itemId !== itemId));
    const found = others ? anomaly(listing.priceMinor / 100, others) : null;
    if (found && others) anomalies.push({ ...found, itemId, price: listing.priceMinor / 100, against: others });
  }
  return {
    band: whole,
    sources: { sales, listings: listings.length, buyers: buyers.length },
    dispersion: whole ? dispersion(whole) : null,
    anomalies,
  };
}
