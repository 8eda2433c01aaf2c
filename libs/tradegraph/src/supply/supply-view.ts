// Supply over a window, from the demand documents (a card's, and the workspace's): freshness (how
// long the available units have been listed: the age distribution, weighted by units), stale
// capital (the value of units listed longer than `staleDays`), saturation (available units ÷ open
// requests of the card: `no_demand`, `saturated` above 2, `balanced` from 0.5, `undersupplied`
// below) and sell-through (units sold in the window ÷ (those + the units available now)). Each
// card carries its factors and a sentence. Prices are decimals. Pure.
import { band, type Band, type Factor, factor, roundedBand, roundTo } from '../stats';
import type { DemandDoc } from '../tradegraph.projection';

const DAY = 86_400_000;
export const SATURATED_ABOVE = 2;
export const UNDERSUPPLIED_BELOW = 0.5;
export const AGE_BUCKETS = [
  { label: '0-7 days', upTo: 7 },
  { label: '8-30 days', upTo: 30 },
  { label: '31-90 days', upTo: 90 },
  { label: 'over 90 days', upTo: Number.POSITIVE_INFINITY },
] as const;

export type Saturation = 'no_demand' | 'saturated' | 'balanced' | 'undersupplied' | 'no_stock';

function sumDays(days: Record<string, number>, from: number, to: number): number {
  const a = new Date(from).toISOString().slice(0, 10);
  const b = new Date(to).toISOString().slice(0, 10);
  let sum = 0;
  for (const [day, n] of Object.entries(days)) if (day >= a && day < b) sum += n;
  return sum;
}

const ageDays = (since: string, now: Date) => Math.max(0, (now.getTime() - Date.parse(since)) / DAY);

export interface WorkspaceSupply {
  availableUnits: number;
  stockValue: number;
  freshness: { ages: Band | null; buckets: Array<{ label: string; units: number }> };
  staleCapital: { value: number; units: number };
  soldUnits: number;
  listedUnits: number;
  sellThrough: number | null;
}

export function workspaceSupply(doc: DemandDoc | null, now: Date, windowDays: number, staleDays: number): WorkspaceSupply {
  const stock = Object.entries(doc?.stockByDay ?? {});
  const ages = stock.map(([day, s]) => ({ value: ageDays(`${day}T00:00:00.000Z`, now), weight: s.units, s }));
  const buckets = AGE_BUCKETS.map((b) => ({ label: b.label, units: 0 }));
  let staleValue = 0;
  let staleUnits = 0;
  let value = 0;
  for (const a of ages) {
    value += a.s.valueMinor;
    const i = AGE_BUCKETS.findIndex((b) => a.value <= b.upTo);
    buckets[i].units += a.s.units;
    if (a.value > staleDays) {
      staleValue += a.s.valueMinor;
      staleUnits += a.s.units;
    }
  }
  const end = now.getTime() + DAY;
  const sold = sumDays(doc?.sold ?? {}, end - windowDays * DAY, end);
  const available = doc?.availableUnits ?? 0;
  return {
    availableUnits: available,
    stockValue: roundTo(value / 100, 2),
    freshness: { ages: roundedBand(band(ages.map((a) => ({ value: roundTo(a.value, 2), weight: a.weight })), { includeZero: true })), buckets },
    staleCapital: { value: roundTo(staleValue / 100, 2), units: staleUnits },
    soldUnits: sold,
    listedUnits: sumDays(doc?.listed ?? {}, end - windowDays * DAY, end),
    sellThrough: sold + available === 0 ? null : roundTo(sold / (sold + available), 4),
  };
}

export interface CardSupply {
  availableUnits: number;
  openRequests: number;
  saturation: { ratio: number | null; label: Saturation };
  medianAgeDays: number | null;
  staleCapital: { value: number; units: number };
  soldUnits: number;
  sellThrough: number | null;
  factors: Factor[];
  reasons: string;
}

export function cardSupply(doc: DemandDoc, now: Date, windowDays: number, staleDays: number): CardSupply {
  const listings = Object.values(doc.listings);
  const units = listings.reduce((sum, l) => sum + l.units, 0);
  const open = doc.openCount;
  const ratio = open === 0 ? null : roundTo(units / open, 4);
  const label: Saturation =
    units === 0 ? 'no_stock' : ratio === null ? 'no_demand' : ratio > SATURATED_ABOVE ? 'saturated' : ratio >= UNDERSUPPLIED_BELOW ? 'balanced' : 'undersupplied';
  const ages = band(listings.map((l) => ({ value: roundTo(ageDays(l.since, now), 2), weight: l.units })), { includeZero: true });
  let staleValue = 0;
  let staleUnits = 0;
  for (const l of listings) {
    if (ageDays(l.since, now) > staleDays) {
      staleValue += l.priceMinor * l.units;
      staleUnits += l.units;
    }
  }
  const end = now.getTime() + DAY;
  const sold = sumDays(doc.sold, end - windowDays * DAY, end);
  const sellThrough = sold + units === 0 ? null : roundTo(sold / (sold + units), 4);
  const factors = [
    factor('available_units', units, 1),
    factor('open_requests', open, 1),
    factor('units_per_request', ratio ?? 0, 0),
    factor('stale_units', staleUnits, 0),
    factor('sell_through', sellThrough ?? 0, 0),
  ];
  const words: Record<Saturation, string> = {
    no_stock: 'no stock',
    no_demand: 'stock with no open request',
    saturated: `saturated: ${ratio} units per open request`,
    balanced: `balanced: ${ratio} units per open request`,
    undersupplied: `undersupplied: ${ratio} units per open request`,
  };
  return {
    availableUnits: units,
    openRequests: open,
    saturation: { ratio, label },
    medianAgeDays: ages ? roundTo(ages.median, 1) : null,
    staleCapital: { value: roundTo(staleValue / 100, 2), units: staleUnits },
    soldUnits: sold,
    sellThrough,
    factors,
    reasons:
      `${units} unit${units === 1 ? '' : 's'} available for ${open} open request${open === 1 ? '' : 's'} (${words[label]}); ` +
      `${sold} sold in ${windowDays} days${sellThrough === null ? '' : ` (sell-through ${roundTo(sellThrough * 100, 1)} %)`}` +
      (staleUnits > 0 ? `; ${staleUnits} listed over ${staleDays} days, worth ${roundTo(staleValue / 100, 2).toFixed(2)}` : ''),
  };
}
