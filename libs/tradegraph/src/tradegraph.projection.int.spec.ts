// The tradegraph read models on a real SQLite read store: listings, buyers and completed sales land
// in the price points of their card, condition and currency, follow reservations, reprices, moves
// between cards, archives and deletions; a replayed event changes nothing; and a rebuild from the
// same events gives the very same documents.
import type { Doc, Filter, FindOptions, RecordedEvent } from '@app/platform';
import { SqliteCollection } from '@app/platform/read-store/sqlite-read-store';
import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';

import { LISTED_ORDER, type PointsCounts, type PointsIdentity, TG_COUNTS, TG_POINTS, TG_TRADES } from './pricing/pricing.views';
import { demandCardId, demandDoc, TG_DEMAND, TG_REQUESTS } from './summary/summary.views';
import { TG_ITEMS } from './supply/supply.views';
import { tradegraphProjection } from './tradegraph.projection';

const WS = 'ws_1';
let position = 0;
const revisions = new Map<string, number>();
function recorded(streamId: string, type: string, data: unknown): RecordedEvent {
  position += 1;
  const revision = (revisions.get(streamId) ?? -1) + 1;
  revisions.set(streamId, revision);
  return { id: `00000000-0000-7000-8000-${String(position).padStart(12, '0')}`, type, data, streamId, revision, position, createdAt: '2026-11-01T00:00:00.000Z', metadata: { workspaceId: WS, schemaVersion: 1 } };
}
const match = (card: string, set = 'base') => ({ cardKey: card, setKey: set, matchKey: `${set}|${card}`, conditionClass: 'raw', conditionScore: 6, gradingCompany: null });
const item = (id: string, card: string, priceMinor: number, extra: Record<string, unknown> = {}) => ({
  inventoryItemId: id, cardName: card, setName: 'Base', condition: 'Near Mint', priceMinor, currency: 'USD', quantity: 1, status: 'available',
  sku: null, cardNumber: null, notes: null, match: match(card.toLowerCase()), input: { cardName: card, setName: 'Base', condition: 'NM' }, ingestion: null,
  createdAt: '2026-11-01T00:00:00.000Z', ...extra,
});
const request = (id: string, card: string, maxPriceMinor: number) => ({
  buyerRequestId: id, cardName: card, setName: 'Base', condition: 'Near Mint', maxPriceMinor, currency: 'USD', source: null,
  match: match(card.toLowerCase()), input: { cardName: card, setName: 'Base', condition: 'NM' }, buyerSealed: null, createdAt: '2026-11-01T00:00:00.000Z',
});
const move = (tradeId: string, from: string, to: string, at: string) => ({ tradeId, from, to, reason: null, reference: null, carrier: null, trackingNumber: null, refundDue: false, resolution: null, by: 'client', at });

function history(): RecordedEvent[] {
  position = 0;
  revisions.clear();
  return [
    recorded('inventory-inv_1', 'inventory.created', item('inv_1', 'Charizard', 40000)),
    recorded('inventory-inv_2', 'inventory.created', item('inv_2', 'Charizard', 42000)),
    recorded('inventory-inv_3', 'inventory.created', item('inv_3', 'Pikachu', 500)),
    recorded('buyer_request-br_1', 'buyer_request.created', request('br_1', 'Charizard', 45000)),
    recorded('buyer_request-br_2', 'buyer_request.created', request('br_2', 'Charizard', 30000)),
    recorded('buyer_request-br_2', 'buyer_request.archived', { buyerRequestId: 'br_2', reason: null, archivedAt: '2026-11-02T00:00:00.000Z' }),
    // inv_1 sells through a trade: reserved, the trade completes, sold.
    recorded('trade-trd_1', 'trade.initiated', { tradeId: 'trd_1', inventoryItemId: 'inv_1', buyerRequestId: 'br_1', matchId: null, offerId: null, holdId: null, reservationId: 'trd_1', quantity: 1, amountMinor: 41000, currency: 'USD', depositMinor: 0, initiatedAt: '2026-11-03T00:00:00.000Z' }),
    recorded('inventory-inv_1', 'inventory.reserved', { inventoryItemId: 'inv_1', reservationId: 'trd_1', holderId: 'trd_1', quantity: 1, status: 'reserved', reservedAt: '2026-11-03T00:00:00.000Z' }),
    recorded('trade-trd_1', 'trade.status_changed', move('trd_1', 'delivered', 'completed', '2026-11-05T00:00:00.000Z')),
    recorded('inventory-inv_1', 'inventory.sold', { inventoryItemId: 'inv_1', reservationId: 'trd_1', holderId: 'trd_1', quantity: 1, status: 'sold', soldAt: '2026-11-05T00:00:00.000Z' }),
    recorded('trade-trd_1', 'trade.status_changed', move('trd_1', 'completed', 'settled', '2026-11-06T00:00:00.000Z')),
    // inv_2 is repriced; inv_3 becomes another card; then deleted.
    recorded('inventory-inv_2', 'inventory.updated', { ...item('inv_2', 'Charizard', 39000), changedFields: ['priceMinor'], input: {}, updatedAt: '2026-11-04T00:00:00.000Z' }),
    recorded('inventory-inv_3', 'inventory.updated', { ...item('inv_3', 'Raichu', 700), changedFields: ['cardName'], input: {}, updatedAt: '2026-11-04T00:00:00.000Z' }),
    recorded('inventory-inv_3', 'inventory.deleted', { inventoryItemId: 'inv_3', deletedAt: '2026-11-07T00:00:00.000Z' }),
  ];
}

describe('tradegraph projection (SQLite)', () => {
  let stores: TempStores;
  beforeEach(() => {
    stores = openTempStores('cc-tradegraph-');
  });
  afterEach(async () => {
    await closeTempStores(stores);
  });

  async function applyAll(events: readonly RecordedEvent[]): Promise<void> {
    for (const e of events) await stores.reads.transaction(() => tradegraphProjection.apply(e, stores.reads));
  }
  async function snapshot(): Promise<Record<string, Doc[]>> {
    const out: Record<string, Doc[]> = {};
    for (const spec of tradegraphProjection.collections) out[spec.name] = (await stores.reads.collection(spec).find({}, { limit: 1000 })).items;
    return out;
  }
  const points = async (id: string) => {
    const identity = await stores.reads.collection<PointsIdentity>(TG_POINTS).get(`${WS}|${id}`);
    const counts = await stores.reads.collection<PointsCounts>(TG_COUNTS).get(`${WS}|${id}`);
    return identity && counts ? { ...identity, ...counts } : null;
  };

  it('keeps each card\'s price points: available listings, open buyers, completed sales', async () => {
    await applyAll(history());
    const charizard = await points('base|charizard|Near Mint|USD');
    expect(charizard?.asks).toEqual([39000, 1]);
    // The card's demand keeps its available listings by price too: the cheapest first.
    expect((await demandDoc(stores.reads, demandCardId(WS, { setKey: 'base', cardKey: 'charizard' })))?.asks).toEqual([39000, 1]);
    expect(charizard?.bids).toEqual([45000, 1]);
    expect(charizard?.sales).toEqual([{ tradeId: 'trd_1', priceMinor: 41000, units: 1, at: '2026-11-05T00:00:00.000Z' }]);
    expect(charizard).toMatchObject({ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', currency: 'USD' });
    // Pikachu's listing moved to Raichu, then the item was deleted: neither keeps it.
    expect((await points('base|pikachu|Near Mint|USD'))?.asks).toEqual([]);
    expect((await points('base|raichu|Near Mint|USD'))?.asks).toEqual([]);
    expect(await stores.reads.collection(TG_ITEMS).get('inv_3')).toBeNull();
    // An archived request bids no more; a waiting one bids its maximum (the best buyer's index).
    expect(await stores.reads.collection(TG_REQUESTS).get('br_2')).toMatchObject({ status: 'archived', bidMinor: null });
    expect(await stores.reads.collection(TG_REQUESTS).get('br_1')).toMatchObject({ status: 'open', bidMinor: 45000 });
    expect(await stores.reads.collection(TG_TRADES).get('trd_1')).toMatchObject({ completedAt: '2026-11-05T00:00:00.000Z', unitPriceMinor: 41000 });
  });

  it('changes nothing when an event is applied again, and a rebuild gives the same documents', async () => {
    const events = history();
    await applyAll(events);
    const live = await snapshot();
    await applyAll(events.slice(3));
    expect(await snapshot()).toEqual(live);
    for (const spec of tradegraphProjection.collections) await stores.reads.collection(spec).clear();
    await applyAll(events);
    expect(await snapshot()).toEqual(live);
  });

  it('keeps each card\'s and set\'s demand through matches, a move to another card and archives', async () => {
    position = 0;
    revisions.clear();
    const matched = (id: string) => ({ buyerRequestId: id, matches: [{ matchId: `m_${position}`, inventoryItemId: 'inv_1', score: 90 }], matchCount: 1, matchedAt: '2026-11-01T01:00:00.000Z' });
    const archived = (id: string) => ({ buyerRequestId: id, reason: null, archivedAt: '2026-11-02T00:00:00.000Z' });
    const demand = async (card: string) => demandDoc(stores.reads, demandCardId(WS, { setKey: 'base', cardKey: card }));
    await applyAll([
      recorded('buyer_request-br_a', 'buyer_request.created', request('br_a', 'Charizard', 45000)),
      recorded('buyer_request-br_a', 'buyer_request.matched', matched('br_a')),
      recorded('buyer_request-br_a', 'buyer_request.matched', matched('br_a')),
      recorded('buyer_request-br_b', 'buyer_request.created', request('br_b', 'Blastoise', 20000)),
    ]);
    // Matched (twice): still open, no longer unmatched.
    expect(await demand('charizard')).toMatchObject({ openCount: 1, unmatchedCount: 0, openPrices: [45000, 1], unmatchedPrices: [], unmatchedByDay: {}, created: { '2026-11-01': 1 } });
    expect(await demand('blastoise')).toMatchObject({ openCount: 1, unmatchedCount: 1, unmatchedByDay: { '2026-11-01': 1 } });
    await applyAll([
      recorded('buyer_request-br_b', 'buyer_request.updated', { ...request('br_b', 'Venusaur', 25000), changedFields: ['cardName', 'maxPriceMinor'], input: {}, updatedAt: '2026-11-01T02:00:00.000Z' }),
    ]);
    // Moved: out of Blastoise's open demand (its creation stays on the day it happened), into Venusaur's.
    expect(await demand('blastoise')).toMatchObject({ openCount: 0, unmatchedCount: 0, openPrices: [], created: { '2026-11-01': 1 } });
    expect(await demand('venusaur')).toMatchObject({ name: 'Venusaur (Base)', openCount: 1, unmatchedCount: 1, unmatchedPrices: [25000, 1], created: {} });
    await applyAll([recorded('buyer_request-br_b', 'buyer_request.archived', archived('br_b')), recorded('buyer_request-br_a', 'buyer_request.archived', archived('br_a'))]);
    // Archived: the unmatched one is missed demand, the matched one is not.
    expect(await demand('venusaur')).toMatchObject({ openCount: 0, unmatchedCount: 0, missed: { '2026-11-02': 1 } });
    expect(await demand('charizard')).toMatchObject({ openCount: 0, missed: {} });
    expect(await demandDoc(stores.reads, `${WS}|set|base`)).toMatchObject({ kind: 'set', openCount: 0, created: { '2026-11-01': 2 }, missed: { '2026-11-02': 1 } });
  });

  // The routes' reads, on populated collections: each is served by the index made for it, so its
  // cost follows the page asked for, not the size of the workspace (the 1,000,000 items).
  it.each<[string, typeof TG_ITEMS, Filter, FindOptions, string, boolean?]>([
    ['pricing, no filter', TG_POINTS, { workspaceId: WS }, { sort: LISTED_ORDER, limit: 50 }, 'by_workspace_card'],
    ['pricing, card', TG_POINTS, { workspaceId: WS, cardKey: 'charizard' }, { sort: LISTED_ORDER, limit: 50 }, 'by_workspace_card_key'],
    ['pricing, set', TG_POINTS, { workspaceId: WS, setKey: 'base' }, { sort: LISTED_ORDER, limit: 50 }, 'by_workspace_set_key'],
    ['pricing, condition', TG_POINTS, { workspaceId: WS, condition: 'Near Mint' }, { sort: LISTED_ORDER, limit: 50 }, 'by_workspace_condition'],
    ['pricing, card and set', TG_POINTS, { workspaceId: WS, cardKey: 'charizard', setKey: 'base' }, { sort: LISTED_ORDER, limit: 50 }, 'by_workspace_card_key_set_key'],
    ['pricing, card and condition', TG_POINTS, { workspaceId: WS, cardKey: 'charizard', condition: 'Near Mint' }, { sort: LISTED_ORDER, limit: 50 }, 'by_workspace_card_key_condition'],
    ['pricing, set and condition', TG_POINTS, { workspaceId: WS, setKey: 'base', condition: 'Near Mint' }, { sort: LISTED_ORDER, limit: 50 }, 'by_workspace_set_key_condition'],
    ['pricing, items at an anomalous price', TG_ITEMS, { workspaceId: WS, pointsKey: 'k', priceMinor: 100, available: { $gt: 0 } }, { limit: 50 }, 'by_points_price', false],
    ['summary, clusters', TG_DEMAND, { workspaceId: WS, kind: 'card' }, { sort: [['openCount', -1], ['name', 1]], limit: 50 }, 'by_workspace_kind_open'],
    ['supply, cards', TG_DEMAND, { workspaceId: WS, kind: 'card', availableUnits: { $gt: 0 } }, { sort: [['availableUnits', -1], ['name', 1]], limit: 50 }, 'by_workspace_kind_units'],
    ['routing, page', TG_ITEMS, { workspaceId: WS, status: 'available' }, { sort: [['listedAt', 1]], limit: 20 }, 'by_workspace_status_listed'],
    ['routing, best buyer', TG_REQUESTS, { workspaceId: WS, cardId: 'c', currency: 'USD', bidMinor: { $gte: 0 } }, { sort: [['bidMinor', -1]], limit: 1 }, 'by_card_bid'],
  ])('%s: served by its index', async (_what, spec, filter, options, index, sorted = true) => {
    await applyAll(history());
    const collection = stores.reads.collection(spec);
    if (!(collection instanceof SqliteCollection)) throw new Error('expected a SqliteCollection');
    const plan = collection.explain(filter, options).join('\n');
    expect(plan).toContain(`USING INDEX c_${spec.name}__${index}`);
    expect(plan).not.toMatch(/SCAN c_/);
    // Sorted by the index (at most the id tie-break is not); the listings at one price are few, by id.
    if (sorted) expect(plan).not.toContain('USE TEMP B-TREE FOR ORDER BY');
  });
});
