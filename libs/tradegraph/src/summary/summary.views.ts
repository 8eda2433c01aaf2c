// The summary view's documents: per card (and per set, and the workspace), open and unmatched
// requests by price and unmatched ones by the day they came, requests created and archived
// unmatched per day, the available stock by the day it was listed (units, value), units listed and
// sold per day, and (cards) the available listings by price — its cheapest first; and each buyer
// request's card, condition, maximum price and state, indexed by card and price, so the best
// waiting buyer for an item is found directly. Written by the tradegraph projection
// (summary.evolve.ts, and the listings' and trades' steps through changeDemand). They hold counts
// by price or by day — bounded by the distinct prices and days, never by the number of items or
// requests — so a card with ten thousand listings costs an event what a card with one does.
import { type CollectionSpec, type Doc, type ReadStore, view, type ViewStep } from '@app/platform';

import { totalCount } from '../pricing/price-counts';
import type { ByPrice, Listing } from '../pricing/pricing.views';

/** A card's best waiting buyer in a currency: the first bid (archived requests have none). */
export const TG_REQUESTS: CollectionSpec = { name: 'tg_requests', indexes: [{ name: 'by_card_bid', fields: [['workspaceId', 1], ['cardId', 1], ['currency', 1], ['bidMinor', -1]] }] };
export const TG_DEMAND: CollectionSpec = {
  name: 'tg_demand',
  indexes: [
    { name: 'by_workspace_kind_open', fields: [['workspaceId', 1], ['kind', 1], ['openCount', -1], ['name', 1]] },
    { name: 'by_workspace_kind_units', fields: [['workspaceId', 1], ['kind', 1], ['availableUnits', -1], ['name', 1]] },
  ],
};
/**
 * The counts of a demand document (by price and by day), apart from its indexed summary: like the
 * price counts, they carry no index, so a write never re-reads them to maintain one.
 */
export const TG_DEMAND_COUNTS: CollectionSpec = { name: 'tg_demand_counts', indexes: [] };

export type RequestStatus = 'open' | 'matched' | 'archived';

export interface RequestDoc extends Doc, Listing {
  workspaceId: string;
  revision: number;
  pointsKey: string;
  cardId: string;
  /** null: no price limit (such a request has no bid: it is counted, never priced). */
  maxPriceMinor: number | null;
  status: RequestStatus;
  /** The maximum price while the request waits (open or matched), else null: indexed, the best buyer first. */
  bidMinor: number | null;
  createdAt: string;
}

/** A demand document: its indexed summary (tg_demand) with its counts (tg_demand_counts). */
export interface DemandDoc extends DemandSummary, DemandCounts {}

export interface DemandSummary extends Doc {
  workspaceId: string;
  kind: 'card' | 'set' | 'workspace';
  /** Card clusters: `Card (Set)`; set clusters: the set's name; the workspace: `workspace`. */
  name: string;
  cardName: string | null;
  setName: string;
  openCount: number;
  unmatchedCount: number;
  /** Available units now. */
  availableUnits: number;
}

export interface DemandCounts extends Doc {
  /** Open (not archived) requests by maximum price. */
  openPrices: ByPrice;
  /** Open requests no listing has matched, by maximum price. */
  unmatchedPrices: ByPrice;
  /**
   * Open requests without a price limit, and those of them no listing has matched: counted in
   * `openCount` / `unmatchedCount`, but in no price band (they name no price). Absent: 0.
   */
  openUnpriced?: number;
  unmatchedUnpriced?: number;
  /** Card documents: available listings by price (the first is the cheapest); empty for sets and the workspace. */
  asks: ByPrice;
  /** Open requests no listing has matched, by the UTC day they were created. */
  unmatchedByDay: Record<string, number>;
  /** Requests created per UTC day (YYYY-MM-DD). */
  created: Record<string, number>;
  /** Requests archived without ever matching, per UTC day. */
  missed: Record<string, number>;
  /** Available stock by the UTC day it was listed — units and value (minor). */
  stockByDay: Record<string, { units: number; valueMinor: number }>;
  /** Units listed (items created) per UTC day. */
  listed: Record<string, number>;
  /** Units sold (trades completed) per UTC day. */
  sold: Record<string, number>;
}

/** A card's demand document id. */
export const demandCardId = (workspaceId: string, l: Pick<Listing, 'setKey' | 'cardKey'>) => `${workspaceId}|card|${l.setKey}|${l.cardKey}`;
const demandSetId = (workspaceId: string, l: Pick<Listing, 'setKey'>) => `${workspaceId}|set|${l.setKey}`;
export const workspaceDemandId = (workspaceId: string) => `${workspaceId}|workspace`;

/** Adds to a count by day (YYYY-MM-DD keys), removing it at 0. */
export function addTo(counts: Record<string, number>, key: string, delta: number): void {
  const k = String(key);
  const next = (counts[k] ?? 0) + delta;
  if (next <= 0) delete counts[k];
  else counts[k] = next;
}

export function addStock(d: DemandDoc, since: string, units: number, valueMinor: number): void {
  const day = since.slice(0, 10);
  const cur = d.stockByDay[day] ?? { units: 0, valueMinor: 0 };
  const next = { units: cur.units + units, valueMinor: cur.valueMinor + valueMinor };
  if (next.units <= 0) delete d.stockByDay[day];
  else d.stockByDay[day] = next;
}

/** Units listed (an item created) or sold (a trade completed), on the card's and the workspace's days. */
export function* countUnits(item: Listing & { workspaceId: string }, field: 'listed' | 'sold', at: string, units: number): ViewStep {
  for (const kind of ['card', 'workspace'] as const) {
    yield* changeDemand(item.workspaceId, kind, item, (d) => addTo(d[field], at.slice(0, 10), units));
  }
}

/**
 * Applies `change` to a demand document (a card's, a set's or the workspace's), made from `listing`
 * when absent: its counts are rewritten, its indexed summary only when a total it carries moved.
 */
export function* changeDemand(workspaceId: string, kind: DemandDoc['kind'], listing: Listing, change: (d: DemandDoc) => void): ViewStep {
  const id = kind === 'card' ? demandCardId(workspaceId, listing) : kind === 'set' ? demandSetId(workspaceId, listing) : workspaceDemandId(workspaceId);
  // Both read are this step's own (fresh copies): changed in place, not copied.
  const summary = yield* view.get<DemandSummary>(TG_DEMAND, id);
  const counts = yield* view.get<DemandCounts>(TG_DEMAND_COUNTS, id);
  const doc: DemandDoc = {
    ...(counts ?? { id, openPrices: [], unmatchedPrices: [], asks: [], unmatchedByDay: {}, created: {}, missed: {}, stockByDay: {}, listed: {}, sold: {} }),
    ...(summary ?? {
      id,
      workspaceId,
      kind,
      name: kind === 'card' ? `${listing.cardName} (${listing.setName})` : kind === 'set' ? listing.setName : 'workspace',
      cardName: kind === 'card' ? listing.cardName : null,
      setName: kind === 'workspace' ? '' : listing.setName,
      openCount: 0,
      unmatchedCount: 0,
      availableUnits: 0,
    }),
  };
  change(doc);
  const totals = {
    openCount: totalCount(doc.openPrices) + (doc.openUnpriced ?? 0),
    unmatchedCount: totalCount(doc.unmatchedPrices) + (doc.unmatchedUnpriced ?? 0),
    availableUnits: Object.values(doc.stockByDay).reduce((sum, s) => sum + s.units, 0),
  };
  const { workspaceId: ws, kind: k, name, cardName, setName, openCount, unmatchedCount, availableUnits: units, ...rest } = doc;
  yield* view.put<DemandCounts>(TG_DEMAND_COUNTS, rest);
  if (!summary || openCount !== totals.openCount || unmatchedCount !== totals.unmatchedCount || units !== totals.availableUnits) {
    yield* view.put<DemandSummary>(TG_DEMAND, { id, workspaceId: ws, kind: k, name, cardName, setName, ...totals });
  }
}

/** Joins demand summaries with their counts (a summary without counts — never written so — is skipped). */
export async function withDemandCounts(store: ReadStore, summaries: readonly DemandSummary[]): Promise<DemandDoc[]> {
  if (summaries.length === 0) return [];
  const counts = new Map((await store.collection<DemandCounts>(TG_DEMAND_COUNTS).getMany(summaries.map((s) => s.id))).map((c) => [c.id, c]));
  return summaries.flatMap((s) => {
    const c = counts.get(s.id);
    return c ? [{ ...c, ...s }] : [];
  });
}

/** One demand document by id, joined; null when absent. */
export async function demandDoc(store: ReadStore, id: string): Promise<DemandDoc | null> {
  const summary = await store.collection<DemandSummary>(TG_DEMAND).get(id);
  return summary ? ((await withDemandCounts(store, [summary]))[0] ?? null) : null;
}
