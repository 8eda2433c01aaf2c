// Tradegraph's read models: incremental projections of the log that keep, per workspace, what the
// market-intelligence routes read — never the log, never every document of a workspace per
// request. One projection, so its collections apply in log order together:
// - tg_items: each inventory item as priced and available (units not reserved or sold);
// - tg_requests: each buyer request's card, condition, maximum price and state;
// - tg_trades: each trade's card, condition and unit price, from its item at initiation;
// - tg_price_points: per workspace, card, condition and currency, the points a price band is made
//   of — completed sales (unit price, units, when), the available listings (price, units, since
//   when) and the open buyers' maximum prices — kept up to date event by event, so a band is
//   computed from one small document;
// - tg_demand: per workspace and card (and per set), the open buyer requests (maximum price, since
//   when, matched or not), the requests created and the ones archived without a match per day,
//   and — for cards — the available listings (price, units, since), the units listed and sold per
//   day; and per workspace, the available stock by the day it was listed (units and value) and the
//   units listed and sold per day — so demand clusters, supply and their windows read one document
//   per cluster.
// Idempotent on replay: each per-stream document remembers the revision it reflects, and the
// points document is changed only through those documents' transitions.
import { parseBuyerRequestEvent } from '@app/demand';
import { type CollectionSpec, type Doc, type Projection, type ReadStore, type RecordedEvent, streamEntityId } from '@app/platform';
import { parseInventoryEvent } from '@app/supply';
import { parseTradeEvent } from '@app/trading';

export const TG_ITEMS: CollectionSpec = {
  name: 'tg_items',
  indexes: [
    { name: 'by_workspace', fields: [['workspaceId', 1], ['pointsKey', 1]] },
    { name: 'by_workspace_status_listed', fields: [['workspaceId', 1], ['status', 1], ['listedAt', 1]] },
  ],
};
export const TG_REQUESTS: CollectionSpec = { name: 'tg_requests', indexes: [{ name: 'by_workspace', fields: [['workspaceId', 1], ['pointsKey', 1]] }] };
export const TG_TRADES: CollectionSpec = { name: 'tg_trades', indexes: [] };
export const TG_DEMAND: CollectionSpec = {
  name: 'tg_demand',
  indexes: [
    { name: 'by_workspace_kind_open', fields: [['workspaceId', 1], ['kind', 1], ['openCount', -1], ['name', 1]] },
    { name: 'by_workspace_kind_units', fields: [['workspaceId', 1], ['kind', 1], ['availableUnits', -1], ['name', 1]] },
  ],
};
export const TG_POINTS: CollectionSpec = {
  name: 'tg_price_points',
  indexes: [
    { name: 'by_workspace_card', fields: [['workspaceId', 1], ['cardName', 1], ['setName', 1], ['condition', 1]] },
    { name: 'by_workspace_card_key', fields: [['workspaceId', 1], ['cardKey', 1]] },
    { name: 'by_workspace_set_key', fields: [['workspaceId', 1], ['setKey', 1]] },
  ],
};

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
  priceMinor: number;
  quantity: number;
  reserved: number;
  sold: number;
  status: string;
  listedAt: string;
}

export interface RequestDoc extends Doc, Listing {
  workspaceId: string;
  revision: number;
  pointsKey: string;
  maxPriceMinor: number;
  status: 'open' | 'matched' | 'archived';
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

export interface PointsDoc extends Doc, Listing {
  workspaceId: string;
  /** Completed sales, oldest first: unit price, units, when (at most SALES_KEPT). */
  sales: Array<{ tradeId: string; priceMinor: number; units: number; at: string }>;
  /** Available listings by item: price, available units, listed since. */
  listings: Record<string, { priceMinor: number; units: number; since: string }>;
  /** Open buyer requests by id: their maximum price. */
  buyers: Record<string, number>;
}

export interface DemandDoc extends Doc {
  workspaceId: string;
  kind: 'card' | 'set' | 'workspace';
  /** Card clusters: `Card (Set)`; set clusters: the set's name. */
  name: string;
  cardName: string | null;
  setName: string;
  openCount: number;
  /** Open (not archived) requests: maximum price (minor), currency, since, matched or not. */
  open: Record<string, { priceMinor: number; currency: string; since: string; matched: boolean }>;
  /** Requests created per UTC day (YYYY-MM-DD). */
  created: Record<string, number>;
  /** Requests archived without ever matching, per UTC day. */
  missed: Record<string, number>;
  /** Card clusters: the available listings by item (price in minor units, units, listed since). */
  listings: Record<string, { priceMinor: number; units: number; since: string }>;
  /** Cards and the workspace: available units now. */
  availableUnits: number;
  /** Cards and the workspace: units listed (items created) per UTC day. */
  listed: Record<string, number>;
  /** Cards and the workspace: units sold (trades completed) per UTC day. */
  sold: Record<string, number>;
  /** The workspace: available stock by the UTC day it was listed — units and value (minor). */
  stockByDay: Record<string, { units: number; valueMinor: number }>;
}

/** The points document a listing belongs to. */
/** A card's demand document id. */
export const demandCardId = (workspaceId: string, l: Pick<Listing, 'setKey' | 'cardKey'>) => `${workspaceId}|card|${l.setKey}|${l.cardKey}`;
/** A points document's id. */
export const pointsIdOf = (workspaceId: string, pointsKey: string) => `${workspaceId}|${pointsKey}`;

export const pointsKeyOf = (l: Pick<Listing, 'cardKey' | 'setKey' | 'condition' | 'currency'>) => `${l.setKey}|${l.cardKey}|${l.condition}|${l.currency}`;
const pointsId = (workspaceId: string, pointsKey: string) => `${workspaceId}|${pointsKey}`;

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
  version: 3,
  collections: [TG_ITEMS, TG_REQUESTS, TG_TRADES, TG_POINTS, TG_DEMAND],
  eventTypes: TYPES,
  async apply(event, store) {
    if (event.type.startsWith('inventory.')) return applyItem(event, store);
    if (event.type.startsWith('buyer_request.')) return applyRequest(event, store);
    return applyTrade(event, store);
  },
};

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
      const listing: Listing = { cardKey: d.match.cardKey, setKey: d.match.setKey, cardName: d.cardName, setName: d.setName, condition: d.condition, currency: d.currency };
      after = {
        ...listing,
        id,
        workspaceId: event.metadata.workspaceId,
        revision: event.revision,
        pointsKey: pointsKeyOf(listing),
        priceMinor: d.priceMinor,
        quantity: d.quantity,
        reserved: before?.reserved ?? 0,
        sold: before?.sold ?? 0,
        status: d.status,
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
  if (after) await items.put(after);
  else if (before) await items.delete(id);
  await moveListing(store, before, after);
  if (e.type === 'inventory.created' && after) await countUnits(store, after.workspaceId, after, 'listed', e.data.createdAt, e.data.quantity);
}

/** Keeps the item's entry in its points document (and out of the one it left) as it stands now. */
async function moveListing(store: ReadStore, before: ItemDoc | null, after: ItemDoc | null): Promise<void> {
  const units = after ? availableUnits(after) : 0;
  if (before && (!after || before.pointsKey !== after.pointsKey)) {
    await changePoints(store, before.workspaceId, before.pointsKey, before, (p) => {
      delete p.listings[before.id];
    });
  }
  if (after) {
    await changePoints(store, after.workspaceId, after.pointsKey, after, (p) => {
      if (units > 0) p.listings[after.id] = { priceMinor: after.priceMinor, units, since: after.listedAt };
      else delete p.listings[after.id];
    });
  }
  if (before && (!after || cardOf(before) !== cardOf(after))) {
    await changeDemand(store, before.workspaceId, 'card', before, (d) => {
      delete d.listings[before.id];
    });
  }
  if (after) {
    await changeDemand(store, after.workspaceId, 'card', after, (d) => {
      if (units > 0) d.listings[after.id] = { priceMinor: after.priceMinor, units, since: after.listedAt };
      else delete d.listings[after.id];
    });
  }
  // The workspace's stock by listing day: take out what the item was, put in what it is.
  const was = before ? availableUnits(before) : 0;
  const workspace = (after ?? before) as ItemDoc;
  if (was === 0 && units === 0) return;
  await changeDemand(store, workspace.workspaceId, 'workspace', workspace, (d) => {
    if (before && was > 0) addStock(d, before.listedAt, -was, -was * before.priceMinor);
    if (after && units > 0) addStock(d, after.listedAt, units, units * after.priceMinor);
  });
}

function addStock(d: DemandDoc, since: string, units: number, valueMinor: number): void {
  const day = since.slice(0, 10);
  const cur = d.stockByDay[day] ?? { units: 0, valueMinor: 0 };
  const next = { units: cur.units + units, valueMinor: cur.valueMinor + valueMinor };
  if (next.units <= 0) delete d.stockByDay[day];
  else d.stockByDay[day] = next;
}

/** Units listed (an item created) or sold (a trade completed), on the card's and the workspace's days. */
async function countUnits(store: ReadStore, workspaceId: string, listing: Listing, field: 'listed' | 'sold', at: string, units: number): Promise<void> {
  for (const kind of ['card', 'workspace'] as const) {
    await changeDemand(store, workspaceId, kind, listing, (d) => {
      d[field][at.slice(0, 10)] = (d[field][at.slice(0, 10)] ?? 0) + units;
    });
  }
}

async function applyRequest(event: RecordedEvent, store: ReadStore): Promise<void> {
  const requests = store.collection<RequestDoc>(TG_REQUESTS);
  const id = streamEntityId(event.streamId);
  const before = await requests.get(id);
  if (before && before.revision >= event.revision) return;
  if (event.type === 'match.created') return;
  const e = parseBuyerRequestEvent(event);
  let after: RequestDoc | null = before ? { ...before, revision: event.revision } : null;
  switch (e.type) {
    case 'buyer_request.created':
    case 'buyer_request.updated': {
      const d = e.data;
      const listing: Listing = { cardKey: d.match.cardKey, setKey: d.match.setKey, cardName: d.cardName, setName: d.setName, condition: d.condition, currency: d.currency };
      after = {
        ...listing,
        id,
        workspaceId: event.metadata.workspaceId,
        revision: event.revision,
        pointsKey: pointsKeyOf(listing),
        maxPriceMinor: d.maxPriceMinor,
        status: before?.status ?? 'open',
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
  await requests.put(after);
  if (before && before.pointsKey !== after.pointsKey) {
    await changePoints(store, before.workspaceId, before.pointsKey, before, (p) => {
      delete p.buyers[id];
    });
  }
  await changePoints(store, after.workspaceId, after.pointsKey, after, (p) => {
    if (after.status === 'archived') delete p.buyers[id];
    else p.buyers[id] = after.maxPriceMinor;
  });
  for (const kind of ['card', 'set'] as const) {
    if (before && (kind === 'card' ? cardOf(before) !== cardOf(after) : before.setKey !== after.setKey)) {
      await changeDemand(store, before.workspaceId, kind, before, (d) => {
        delete d.open[id];
      });
    }
    await changeDemand(store, after.workspaceId, kind, after, (d) => {
      if (!before) d.created[after.createdAt.slice(0, 10)] = (d.created[after.createdAt.slice(0, 10)] ?? 0) + 1;
      if (after.status === 'archived') {
        if (d.open[id] && !d.open[id].matched) {
          const day = archivedAt(e) ?? after.createdAt;
          d.missed[day.slice(0, 10)] = (d.missed[day.slice(0, 10)] ?? 0) + 1;
        }
        delete d.open[id];
      } else {
        d.open[id] = { priceMinor: after.maxPriceMinor, currency: after.currency, since: after.createdAt, matched: after.status === 'matched' };
      }
    });
  }
}

const archivedAt = (e: ReturnType<typeof parseBuyerRequestEvent>): string | null => (e.type === 'buyer_request.archived' ? e.data.archivedAt : null);
const cardOf = (l: Pick<Listing, 'setKey' | 'cardKey'>) => `${l.setKey}|${l.cardKey}`;

/** Applies `change` to a demand cluster (a card's or a set's), made from `listing` when absent. */
async function changeDemand(store: ReadStore, workspaceId: string, kind: DemandDoc['kind'], listing: Listing, change: (d: DemandDoc) => void): Promise<void> {
  const demand = store.collection<DemandDoc>(TG_DEMAND);
  const id = kind === 'card' ? `${workspaceId}|card|${cardOf(listing)}` : kind === 'set' ? `${workspaceId}|set|${listing.setKey}` : `${workspaceId}|workspace`;
  const current = await demand.get(id);
  const doc: DemandDoc = current
    ? {
        ...current,
        open: { ...current.open },
        created: { ...current.created },
        missed: { ...current.missed },
        listings: { ...current.listings },
        listed: { ...current.listed },
        sold: { ...current.sold },
        stockByDay: { ...current.stockByDay },
      }
    : {
        id,
        workspaceId,
        kind,
        name: kind === 'card' ? `${listing.cardName} (${listing.setName})` : kind === 'set' ? listing.setName : 'workspace',
        cardName: kind === 'card' ? listing.cardName : null,
        setName: kind === 'workspace' ? '' : listing.setName,
        openCount: 0,
        open: {},
        created: {},
        missed: {},
        listings: {},
        availableUnits: 0,
        listed: {},
        sold: {},
        stockByDay: {},
      };
  change(doc);
  doc.openCount = Object.keys(doc.open).length;
  doc.availableUnits =
    kind === 'workspace' ? Object.values(doc.stockByDay).reduce((sum, s) => sum + s.units, 0) : Object.values(doc.listings).reduce((sum, l) => sum + l.units, 0);
  await demand.put(doc);
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
  if (item) await countUnits(store, completed.workspaceId, item, 'sold', e.data.at, completed.quantity);
  await changePoints(store, completed.workspaceId, completed.pointsKey, item, (p) => {
    p.sales.push({ tradeId: id, priceMinor: completed.unitPriceMinor, units: completed.quantity, at: e.data.at });
    if (p.sales.length > SALES_KEPT) p.sales.splice(0, p.sales.length - SALES_KEPT);
  });
}

/** Applies `change` to a points document, made from `listing` when it does not exist yet. */
async function changePoints(store: ReadStore, workspaceId: string, pointsKey: string, listing: Listing | null, change: (p: PointsDoc) => void): Promise<void> {
  const points = store.collection<PointsDoc>(TG_POINTS);
  const id = pointsId(workspaceId, pointsKey);
  const current = await points.get(id);
  if (!current && !listing) return;
  const doc: PointsDoc = current
    ? { ...current, sales: [...current.sales], listings: { ...current.listings }, buyers: { ...current.buyers } }
    : {
        id,
        workspaceId,
        cardKey: (listing as Listing).cardKey,
        setKey: (listing as Listing).setKey,
        cardName: (listing as Listing).cardName,
        setName: (listing as Listing).setName,
        condition: (listing as Listing).condition,
        currency: (listing as Listing).currency,
        sales: [],
        listings: {},
        buyers: {},
      };
  change(doc);
  await points.put(doc);
}
