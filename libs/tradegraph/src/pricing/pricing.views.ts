// The pricing view's documents: per workspace, card, condition and currency, what a price band is
// made of — the completed sales (unit price, units, when; the most recent SALES_KEPT), and how many
// available listings and open buyers stand at each price — and each trade's card, condition and
// unit price (from its item at initiation), which its completion adds to the sales. Written by the
// tradegraph projection (pricing.evolve.ts, and the listings' and requests' steps through
// changePoints). Counts by price are flat ascending arrays (price-counts.ts), already ordered.
import { type CollectionSpec, type Doc, view, type ViewStep } from '@app/platform';

import type { PriceCounts } from './price-counts';

/** What an item's and a request's documents share: the card as listed. */
export interface Listing {
  cardKey: string;
  setKey: string;
  cardName: string;
  setName: string;
  condition: string;
  currency: string;
}

export const TG_TRADES: CollectionSpec = { name: 'tg_trades', indexes: [] };
/**
 * Each index serves one of /pricing's filters (none, card, set, condition, and each pair of them) in
 * the order it lists. A pair has its own index: with two single-field ones equally good on paper,
 * SQLite (no statistics) took the later declared — the condition's, a sixth of the workspace's
 * points, for a card and a condition — and sorted them (13 ms against 0.1 ms at 208,755 points).
 */
export const LISTED_ORDER = [['cardName', 1], ['setName', 1], ['condition', 1]] as const;
export const TG_POINTS: CollectionSpec = {
  name: 'tg_price_points',
  indexes: [
    { name: 'by_workspace_card', fields: [['workspaceId', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_card_key', fields: [['workspaceId', 1], ['cardKey', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_set_key', fields: [['workspaceId', 1], ['setKey', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_condition', fields: [['workspaceId', 1], ['condition', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_card_key_set_key', fields: [['workspaceId', 1], ['cardKey', 1], ['setKey', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_card_key_condition', fields: [['workspaceId', 1], ['cardKey', 1], ['condition', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_set_key_condition', fields: [['workspaceId', 1], ['setKey', 1], ['condition', 1], ...LISTED_ORDER] },
  ],
};
/**
 * The counts of a points document, apart from its indexed identity: rewritten on every listing,
 * buyer or sale of the card, they carry no index, so a write never re-reads them for one.
 */
export const TG_COUNTS: CollectionSpec = { name: 'tg_price_counts', indexes: [] };
/** Sales kept per card and condition (the most recent); older ones fall out of every window anyway. */
export const SALES_KEPT = 1000;

export interface TradeDoc extends Doc {
  workspaceId: string;
  revision: number;
  pointsKey: string | null;
  itemId: string;
  unitPriceMinor: number;
  quantity: number;
  completedAt: string | null;
}

/** Counts by price (minor units): a flat ascending [price, count, …] array (see price-counts.ts). */
export type ByPrice = PriceCounts;

/** A card's price points: its identity (tg_price_points) with its counts (tg_price_counts). */
export interface PointsDoc extends PointsIdentity, PointsCounts {}

export interface PointsIdentity extends Doc, Listing {
  workspaceId: string;
}

export interface PointsCounts extends Doc {
  /** Completed sales, oldest first: unit price, units, when (at most SALES_KEPT). */
  sales: Array<{ tradeId: string; priceMinor: number; units: number; at: string }>;
  /** Available listings (items with units available) by price. */
  asks: ByPrice;
  /** Open buyer requests by maximum price. */
  bids: ByPrice;
}

export const pointsKeyOf = (l: Pick<Listing, 'cardKey' | 'setKey' | 'condition' | 'currency'>) => `${l.setKey}|${l.cardKey}|${l.condition}|${l.currency}`;
/** A points document's id. */
export const pointsIdOf = (workspaceId: string, pointsKey: string) => `${workspaceId}|${pointsKey}`;

/** Applies `change` to a card's price counts; a card seen for the first time gets its identity document. */
export function* changePoints(workspaceId: string, pointsKey: string, listing: Listing | null, change: (p: PointsCounts) => void): ViewStep {
  const id = pointsIdOf(workspaceId, pointsKey);
  // The document read is this step's own (a fresh copy): changed in place, not copied.
  let doc = yield* view.get<PointsCounts>(TG_COUNTS, id);
  if (!doc) {
    if (!listing) return;
    const l = listing;
    yield* view.put<PointsIdentity>(TG_POINTS, { id, workspaceId, cardKey: l.cardKey, setKey: l.setKey, cardName: l.cardName, setName: l.setName, condition: l.condition, currency: l.currency });
    doc = { id, sales: [], asks: [], bids: [] };
  }
  change(doc);
  yield* view.put(TG_COUNTS, doc);
}
