// Supply over a window, from the demand documents (a card's, and the workspace's), whose stock is
// kept by listing day: freshness (how long the available units have been listed — the age
// distribution, weighted by units, at day granularity), stale capital (the value of units listed longer than `staleDays`), saturation (available units ÷ open
// requests of the card: `no_demand`, `saturated` above 2, `balanced` from 0.5, `undersupplied`
// below) and sell-through (units sold in the window ÷ (those + the units available now)). Each
// card carries its factors and a sentence. Prices are decimals. Pure.
import { band, type Band, type Factor, factor, roundedBand, roundTo } from '../stats';
import type { DemandDoc } from '../summary/summary.views';

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

/** The start of a UTC day (YYYY-MM-DD) in ms: days repeat across documents and reads, so each is parsed once. */
const dayStarts = new Map<string, number>();
function dayStart(day: string): number {
  let ms = dayStarts.get(day);
  if (ms === undefined) {
    ms = Date.parse(`${day}T00:00:00.000Z`);
    dayStarts.set(day, ms);
  }
  return ms;
}

interface StockView {
  units: number;
  value: number;
  ages: Band | null;
  buckets: Array<{ label: string; units: number }>;
  stale: { value: number; units: number };
}

/** The available stock of a card or the workspace, from its units and value by listing day. */
function stockView(doc: DemandDoc | null, now: Date, staleDays: number): StockView {
  const at = now.getTime();
  const stock = Object.entries(doc?.stockByDay ?? {}).map(([day, s]) => ({ age: Math.max(0, (at - dayStart(day)) / DAY), ...s }));
  const buckets = AGE_BUCKETS.map((b) => ({ label: b.label, units: 0 }));
  let staleValue = 0;
  let staleUnits = 0;
  let value = 0;
  let units = 0;
  for (const s of stock) {
    value += s.valueMinor;
    units += s.units;
    buckets[AGE_BUCKETS.findIndex((b) => s.age <= b.upTo)].units += s.units;
    if (s.age > staleDays) {
      staleValue += s.valueMinor;
      staleUnits += s.units;
    }
  }
  return {
    units,
    value: roundTo(value / 100, 2),
    ages: roundedBand(band(stock.map((s) => ({ value: roundTo(s.age, 2), weight: s.units })), { includeZero: true })),
    buckets,
    stale: { value: roundTo(staleValue / 100, 2), units: staleUnits },
  };
}

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
  const stock = stockView(doc, now, staleDays);
  const end = now.getTime() + DAY;
  const sold = sumDays(doc?.sold ?? {}, end - windowDays * DAY, end);
  return {
    availableUnits: stock.units,
    stockValue: stock.value,
    freshness: { ages: stock.ages, buckets: stock.buckets },
    staleCapital: stock.stale,
    soldUnits: sold,
    listedUnits: sumDays(doc?.listed ?? {}, end - windowDays * DAY, end),
    sellThrough: sold + stock.units === 0 ? null : roundTo(sold / (sold + stock.units), 4),
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
  const stock = stockView(doc, now, staleDays);
  const units = stock.units;
  const open = doc.openCount;
  const ratio = open === 0 ? null : roundTo(units / open, 4);
  const label: Saturation =
    units === 0 ? 'no_stock' : ratio === null ? 'no_demand' : ratio > SATURATED_ABOVE ? 'saturated' : ratio >= UNDERSUPPLIED_BELOW ? 'balanced' : 'undersupplied';
  const end = now.getTime() + DAY;
  const sold = sumDays(doc.sold, end - windowDays * DAY, end);
  const sellThrough = sold + units === 0 ? null : roundTo(sold / (sold + units), 4);
  const factors = [
    factor('available_units', units, 1),
    factor('open_requests', open, 1),
    factor('units_per_request', ratio ?? 0, 0),
    factor('stale_units', stock.stale.units, 0),
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
    medianAgeDays: stock.ages ? roundTo(stock.ages.median, 1) : null,
    staleCapital: stock.stale,
    soldUnits: sold,
    sellThrough,
    factors,
    reasons:
      `${units} unit${units === 1 ? '' : 's'} available for ${open} open request${open === 1 ? '' : 's'} (${words[label]}); ` +
      `${sold} sold in ${windowDays} days${sellThrough === null ? '' : ` (sell-through ${roundTo(sellThrough * 100, 1)} %)`}` +
      (stock.stale.units > 0 ? `; ${stock.stale.units} listed over ${staleDays} days, worth ${stock.stale.value.toFixed(2)}` : ''),
  };
}
