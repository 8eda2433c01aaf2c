// Tradegraph's read models: incremental projections of the log that keep, per workspace, what the
// market-intelligence routes read — never the log, never every document of a workspace per
// request. One projection, so its collections apply in log order together:
// - tg_items: each inventory item as priced and available (units not reserved or sold), indexed
//   by its card and condition and price, so the listings at one price are found directly;
// - tg_requests: each buyer request's card, condition, maximum price and state, indexed by card
//   and price, so the best waiting buyer for an item is found directly;
// - tg_trades: each trade's card, condition and unit price, from its item at initiation;
// - tg_price_points: per workspace, card, condition and currency, what a price band is made of —
//   the completed sales (unit price, units, when; the most recent SALES_KEPT), and how many
//   available listings and open buyers stand at each price;
// - tg_demand (+ tg_demand_counts): per card (and per set, and the workspace), open and unmatched
//   requests by price and unmatched ones by the day they came, requests created and archived
//   unmatched per day, the available stock by the day it was listed (units, value), units listed
//   and sold per day, and (cards) the available listings by price — its cheapest first.
// Counts by price are flat ascending arrays (price-counts.ts), cheap to parse and already ordered.
// Aggregates hold counts by price or by day — bounded by the distinct prices and days, never by
// the number of items or requests — so a card with ten thousand listings costs an event what a card
// with one does. Idempotent on replay: each per-stream document remembers the revision it
// reflects, and the aggregates change only through those documents' transitions.
import { parseBuyerRequestEvent } from '@app/demand';
import { type CollectionSpec, type Doc, type Projection, type ReadStore, type RecordedEvent, streamEntityId } from '@app/platform';
import { parseInventoryEvent } from '@app/supply';
import { parseTradeEvent } from '@app/trading';

import { addPrice, type PriceCounts, totalCount } from './price-counts';

export const TG_ITEMS: CollectionSpec = {
  name: 'tg_items',
  indexes: [
    { name: 'by_points_price', fields: [['workspaceId', 1], ['pointsKey', 1], ['priceMinor', 1]] },
    { name: 'by_workspace_status_listed', fields: [['workspaceId', 1], ['status', 1], ['listedAt', 1]] },
  ],
};
/** A card's best waiting buyer in a currency: the first bid (archived requests have none). */
export const TG_REQUESTS: CollectionSpec = { name: 'tg_requests', indexes: [{ name: 'by_card_bid', fields: [['workspaceId', 1], ['cardId', 1], ['currency', 1], ['bidMinor', -1]] }] };
export const TG_TRADES: CollectionSpec = { name: 'tg_trades', indexes: [] };
/** Each index serves one of /pricing's filters (none, card, set, condition) in the order it lists. */
export const LISTED_ORDER = [['cardName', 1], ['setName', 1], ['condition', 1]] as const;
export const TG_POINTS: CollectionSpec = {
  name: 'tg_price_points',
  indexes: [
    { name: 'by_workspace_card', fields: [['workspaceId', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_card_key', fields: [['workspaceId', 1], ['cardKey', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_set_key', fields: [['workspaceId', 1], ['setKey', 1], ...LISTED_ORDER] },
    { name: 'by_workspace_condition', fields: [['workspaceId', 1], ['condition', 1], ...LISTED_ORDER] },
  ],
};
/**
 * The counts of a points document, apart from its indexed identity: rewritten on every listing,
 * buyer or sale of the card, they carry no index, so a write never re-reads them for one.
 */
export const TG_COUNTS: CollectionSpec = { name: 'tg_price_counts', indexes: [] };
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

/** Sales kept per card and condition (the most recent); older ones fall out of every window anyway. */
export const SALES_KEPT = 1000;

interface Listing {
  cardKey: string;
  setKey: string;
  cardName: string;
  setName: string;
  condition: string;
  currency: string;
}

export interface ItemDoc extends Doc, Listing {
  workspaceId: string;
  revision: number;
  pointsKey: string;
  cardId: string;
  priceMinor: number;
  quantity: number;
  reserved: number;
  sold: number;
  status: string;
  /** Units available now (see availableUnits). */
  available: number;
  listedAt: string;
}

export type RequestStatus = 'open' | 'matched' | 'archived';

export interface RequestDoc extends Doc, Listing {
  workspaceId: string;
  revision: number;
  pointsKey: string;
  cardId: string;
  maxPriceMinor: number;
  status: RequestStatus;
  /** The maximum price while the request waits (open or matched), else null: indexed, the best buyer first. */
  bidMinor: number | null;
  createdAt: string;
}

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

export const pointsKeyOf = (l: Pick<Listing, 'cardKey' | 'setKey' | 'condition' | 'currency'>) => `${l.setKey}|${l.cardKey}|${l.condition}|${l.currency}`;
/** A points document's id. */
export const pointsIdOf = (workspaceId: string, pointsKey: string) => `${workspaceId}|${pointsKey}`;
/** A card's demand document id. */
export const demandCardId = (workspaceId: string, l: Pick<Listing, 'setKey' | 'cardKey'>) => `${workspaceId}|card|${l.setKey}|${l.cardKey}`;
const demandSetId = (workspaceId: string, l: Pick<Listing, 'setKey'>) => `${workspaceId}|set|${l.setKey}`;
export const workspaceDemandId = (workspaceId: string) => `${workspaceId}|workspace`;

/** Units an item offers now: while available, its quantity less what trades and holds reserved or sold. */
export const availableUnits = (item: Pick<ItemDoc, 'status' | 'quantity' | 'reserved' | 'sold'>) =>
  item.status === 'available' ? Math.max(0, item.quantity - item.reserved - item.sold) : 0;

const TYPES = [
  'inventory.created',
  'inventory.updated',
  'inventory.deleted',
  'inventory.reserved',
  'inventory.released',
  'inventory.sold',
  'buyer_request.created',
  'buyer_request.updated',
  'buyer_request.archived',
  'buyer_request.matched',
  'trade.initiated',
  'trade.status_changed',
];

export const tradegraphProjection: Projection = {
  name: 'tradegraph',
  version: 10,
  // Analytics: writes do not wait for it; its readers do (TradegraphFreshness).
  consistency: 'eventual',
  collections: [TG_ITEMS, TG_REQUESTS, TG_TRADES, TG_POINTS, TG_COUNTS, TG_DEMAND, TG_DEMAND_COUNTS],
  eventTypes: TYPES,
  async apply(event, store) {
    if (event.type.startsWith('inventory.')) return applyItem(event, store);
    if (event.type.startsWith('buyer_request.')) return applyRequest(event, store);
    return applyTrade(event, store);
  },
};

type Listed = { cardName: string; setName: string; condition: string; currency: string; match: { cardKey: string; setKey: string } };

/** What an item's and a request's documents share: the card as listed, and where it is counted. */
function placed(event: RecordedEvent, d: Listed) {
  const workspaceId = event.metadata.workspaceId;
  const listing: Listing = { cardKey: d.match.cardKey, setKey: d.match.setKey, cardName: d.cardName, setName: d.setName, condition: d.condition, currency: d.currency };
  return { ...listing, id: streamEntityId(event.streamId), workspaceId, revision: event.revision, pointsKey: pointsKeyOf(listing), cardId: demandCardId(workspaceId, listing) };
}

async function applyItem(event: RecordedEvent, store: ReadStore): Promise<void> {
  const items = store.collection<ItemDoc>(TG_ITEMS);
  const id = streamEntityId(event.streamId);
  const before = await items.get(id);
  if (before && before.revision >= event.revision) return;
  const e = parseInventoryEvent(event);
  let after: ItemDoc | null = before ? { ...before, revision: event.revision } : null;
  switch (e.type) {
    case 'inventory.created':
    case 'inventory.updated': {
      const d = e.data;
      after = {
        ...placed(event, d),
        priceMinor: d.priceMinor,
        quantity: d.quantity,
        reserved: before?.reserved ?? 0,
        sold: before?.sold ?? 0,
        status: d.status,
        available: 0,
        listedAt: e.type === 'inventory.created' ? e.data.createdAt : (before?.listedAt ?? e.data.updatedAt),
      };
      break;
    }
    case 'inventory.deleted':
      after = null;
      break;
    case 'inventory.reserved':
      if (after) after = { ...after, reserved: after.reserved + e.data.quantity, status: e.data.status };
      break;
    case 'inventory.released':
      if (after) after = { ...after, reserved: Math.max(0, after.reserved - e.data.quantity), status: e.data.status };
      break;
    case 'inventory.sold':
      if (after) after = { ...after, reserved: Math.max(0, after.reserved - e.data.quantity), sold: after.sold + e.data.quantity, status: e.data.status };
      break;
    default:
      return;
  }
  if (after) after.available = availableUnits(after);
  if (after) await items.put(after);
  else if (before) await items.delete(id);
  await moveListing(store, before, after, e.type === 'inventory.created' ? { at: e.data.createdAt, units: e.data.quantity } : null);
}

/**
 * Takes the item out of the aggregates as it was and puts it in as it is — each document read and
 * written once — and, for a new item, counts the units listed that day.
 */
async function moveListing(store: ReadStore, before: ItemDoc | null, after: ItemDoc | null, listed: { at: string; units: number } | null): Promise<void> {
  const was = before?.available ?? 0;
  const is = after?.available ?? 0;
  const unchanged = was === is && (was === 0 || (before && after && before.priceMinor === after.priceMinor && before.pointsKey === after.pointsKey && before.listedAt === after.listedAt));
  if (unchanged && !listed) return;
  const take = (item: ItemDoc, sign: 1 | -1, units: number) => ({
    points: (p: PointsCounts) => addPrice(p.asks, item.priceMinor, sign),
    card: (d: DemandDoc) => {
      addStock(d, item.listedAt, sign * units, sign * units * item.priceMinor);
      addPrice(d.asks, item.priceMinor, sign);
    },
    workspace: (d: DemandDoc) => addStock(d, item.listedAt, sign * units, sign * units * item.priceMinor),
  });
  const out = before && was > 0 && !unchanged ? take(before, -1, was) : null;
  const into = after && is > 0 && !unchanged ? take(after, 1, is) : null;
  const count = (d: DemandDoc) => {
    if (listed) addTo(d.listed, listed.at.slice(0, 10), listed.units);
  };
  const sameCard = before && after && before.cardId === after.cardId;
  const samePoints = before && after && before.pointsKey === after.pointsKey;
  if (before && out && !samePoints) await changePoints(store, before.workspaceId, before.pointsKey, before, out.points);
  if (before && out && !sameCard) await changeDemand(store, before.workspaceId, 'card', before, out.card);
  const item = (after ?? before) as ItemDoc;
  if (after && (into || (out && samePoints))) {
    await changePoints(store, after.workspaceId, after.pointsKey, after, (p) => {
      if (out && samePoints) out.points(p);
      into?.points(p);
    });
  }
  if (after && (into || (out && sameCard) || listed)) {
    await changeDemand(store, after.workspaceId, 'card', after, (d) => {
      if (out && sameCard) out.card(d);
      into?.card(d);
      count(d);
    });
  }
  if (out || into || listed) {
    await changeDemand(store, item.workspaceId, 'workspace', item, (d) => {
      out?.workspace(d);
      into?.workspace(d);
      count(d);
    });
  }
}

/** Adds to a count by day (YYYY-MM-DD keys), removing it at 0. */
function addTo(counts: Record<string, number>, key: string, delta: number): void {
  const k = String(key);
  const next = (counts[k] ?? 0) + delta;
  if (next <= 0) delete counts[k];
  else counts[k] = next;
}

function addStock(d: DemandDoc, since: string, units: number, valueMinor: number): void {
  const day = since.slice(0, 10);
  const cur = d.stockByDay[day] ?? { units: 0, valueMinor: 0 };
  const next = { units: cur.units + units, valueMinor: cur.valueMinor + valueMinor };
  if (next.units <= 0) delete d.stockByDay[day];
  else d.stockByDay[day] = next;
}

/** Units listed (an item created) or sold (a trade completed), on the card's and the workspace's days. */
async function countUnits(store: ReadStore, item: ItemDoc, field: 'listed' | 'sold', at: string, units: number): Promise<void> {
  for (const kind of ['card', 'workspace'] as const) {
    await changeDemand(store, item.workspaceId, kind, item, (d) => addTo(d[field], at.slice(0, 10), units));
  }
}

async function applyRequest(event: RecordedEvent, store: ReadStore): Promise<void> {
  if (event.type === 'match.created') return;
  const requests = store.collection<RequestDoc>(TG_REQUESTS);
  const id = streamEntityId(event.streamId);
  const before = await requests.get(id);
  if (before && before.revision >= event.revision) return;
  const e = parseBuyerRequestEvent(event);
  let after: RequestDoc | null = before ? { ...before, revision: event.revision } : null;
  switch (e.type) {
    case 'buyer_request.created':
    case 'buyer_request.updated': {
      const d = e.data;
      after = {
        ...placed(event, d),
        maxPriceMinor: d.maxPriceMinor,
        status: before?.status ?? 'open',
        bidMinor: null,
        createdAt: e.type === 'buyer_request.created' ? e.data.createdAt : (before?.createdAt ?? e.data.updatedAt),
      };
      break;
    }
    case 'buyer_request.matched':
      if (after && after.status === 'open') after = { ...after, status: 'matched' };
      break;
    case 'buyer_request.archived':
      if (after) after = { ...after, status: 'archived' };
      break;
    default:
      return;
  }
  if (!after) return;
  after.bidMinor = after.status === 'archived' ? null : after.maxPriceMinor;
  await requests.put(after);
  // A further match on a request matched already changes none of the aggregates.
  if (e.type === 'buyer_request.matched' && before?.status !== 'open') return;
  const archivedAt = e.type === 'buyer_request.archived' ? e.data.archivedAt : null;
  const request = after;
  // Out as it was, in as it is: the points' bids and the card's and set's demand — each document
  // read and written once when the request stays on the same card.
  const contribution = (r: RequestDoc, sign: 1 | -1) => ({
    points: (p: PointsCounts) => addPrice(p.bids, r.maxPriceMinor, sign),
    demand: (d: DemandDoc) => {
      addPrice(d.openPrices, r.maxPriceMinor, sign);
      if (r.status === 'open') {
        addPrice(d.unmatchedPrices, r.maxPriceMinor, sign);
        addTo(d.unmatchedByDay, r.createdAt.slice(0, 10), sign);
      }
    },
  });
  const out = before && before.status !== 'archived' ? contribution(before, -1) : null;
  const into = request.status !== 'archived' ? contribution(request, 1) : null;
  const samePoints = before?.pointsKey === request.pointsKey;
  if (before && out && !samePoints) await changePoints(store, before.workspaceId, before.pointsKey, before, out.points);
  if ((out && samePoints) || into) {
    await changePoints(store, request.workspaceId, request.pointsKey, request, (p) => {
      if (out && samePoints) out.points(p);
      into?.points(p);
    });
  }
  for (const kind of ['card', 'set'] as const) {
    const same = before !== null && (kind === 'card' ? before.cardId === request.cardId : before.setKey === request.setKey);
    if (before && out && !same) await changeDemand(store, before.workspaceId, kind, before, out.demand);
    await changeDemand(store, request.workspaceId, kind, request, (d) => {
      if (out && same) out.demand(d);
      if (!before) addTo(d.created, request.createdAt.slice(0, 10), 1);
      if (archivedAt && before && before.status === 'open') addTo(d.missed, archivedAt.slice(0, 10), 1);
      into?.demand(d);
    });
  }
}

async function applyTrade(event: RecordedEvent, store: ReadStore): Promise<void> {
  const trades = store.collection<TradeDoc>(TG_TRADES);
  const id = streamEntityId(event.streamId);
  const before = await trades.get(id);
  if (before && before.revision >= event.revision) return;
  const e = parseTradeEvent(event);
  if (e.type === 'trade.initiated') {
    const d = e.data;
    const item = await store.collection<ItemDoc>(TG_ITEMS).get(d.inventoryItemId);
    await trades.put({
      id,
      workspaceId: event.metadata.workspaceId,
      revision: event.revision,
      pointsKey: item?.pointsKey ?? null,
      itemId: d.inventoryItemId,
      unitPriceMinor: Math.round(d.amountMinor / Math.max(1, d.quantity)),
      quantity: d.quantity,
      completedAt: null,
    });
    return;
  }
  if (!before) return;
  if (e.type !== 'trade.status_changed' || e.data.to !== 'completed' || before.completedAt !== null) {
    await trades.patch(id, { revision: event.revision });
    return;
  }
  const completed = { ...before, revision: event.revision, completedAt: e.data.at };
  await trades.put(completed);
  if (completed.pointsKey === null) return;
  const item = await store.collection<ItemDoc>(TG_ITEMS).get(completed.itemId);
  if (item) await countUnits(store, item, 'sold', e.data.at, completed.quantity);
  await changePoints(store, completed.workspaceId, completed.pointsKey, item, (p) => {
    p.sales.push({ tradeId: id, priceMinor: completed.unitPriceMinor, units: completed.quantity, at: e.data.at });
    if (p.sales.length > SALES_KEPT) p.sales.splice(0, p.sales.length - SALES_KEPT);
  });
}

/** Applies `change` to a card's price counts; a card seen for the first time gets its identity document. */
async function changePoints(store: ReadStore, workspaceId: string, pointsKey: string, listing: Listing | null, change: (p: PointsCounts) => void): Promise<void> {
  const counts = store.collection<PointsCounts>(TG_COUNTS);
  const id = pointsIdOf(workspaceId, pointsKey);
  // The document read is this call's own (parsed afresh): changed in place, not copied.
  let doc = await counts.get(id);
  if (!doc) {
    if (!listing) return;
    const l = listing;
    await store.collection<PointsIdentity>(TG_POINTS).put({ id, workspaceId, cardKey: l.cardKey, setKey: l.setKey, cardName: l.cardName, setName: l.setName, condition: l.condition, currency: l.currency });
    doc = { id, sales: [], asks: [], bids: [] };
  }
  change(doc);
  await counts.put(doc);
}

/**
 * Applies `change` to a demand document (a card's, a set's or the workspace's), made from `listing`
 * when absent: its counts are rewritten, its indexed summary only when a total it carries moved.
 */
async function changeDemand(store: ReadStore, workspaceId: string, kind: DemandDoc['kind'], listing: Listing, change: (d: DemandDoc) => void): Promise<void> {
  const summaries = store.collection<DemandSummary>(TG_DEMAND);
  const id = kind === 'card' ? demandCardId(workspaceId, listing) : kind === 'set' ? demandSetId(workspaceId, listing) : workspaceDemandId(workspaceId);
  // Both read are this call's own (parsed afresh): changed in place, not copied.
  const [summary, counts] = await Promise.all([summaries.get(id), store.collection<DemandCounts>(TG_DEMAND_COUNTS).get(id)]);
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
    openCount: totalCount(doc.openPrices),
    unmatchedCount: totalCount(doc.unmatchedPrices),
    availableUnits: Object.values(doc.stockByDay).reduce((sum, s) => sum + s.units, 0),
  };
  const { workspaceId: ws, kind: k, name, cardName, setName, openCount, unmatchedCount, availableUnits: units, ...rest } = doc;
  await store.collection<DemandCounts>(TG_DEMAND_COUNTS).put(rest);
  if (!summary || openCount !== totals.openCount || unmatchedCount !== totals.unmatchedCount || units !== totals.availableUnits) {
    await summaries.put({ id, workspaceId: ws, kind: k, name, cardName, setName, ...totals });
  }
}
