// The tradegraph view projection, given/when/then: given documents, when events, then documents —
// its pure evolve driven in memory. An item listed is a listing (supply), an ask at its price
// (pricing) and stock of its card and the workspace (summary); a buyer request a bid and demand;
// a completed trade a sale and units sold. Applying an event twice is applying it once.
import type { RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { TG_COUNTS, TG_POINTS, TG_TRADES } from './pricing/pricing.views';
import { TG_DEMAND, TG_DEMAND_COUNTS, TG_REQUESTS } from './summary/summary.views';
import { TG_ITEMS } from './supply/supply.views';
import { tradegraphProjection } from './tradegraph.projection';

const WS = 'ws_1';
const DAY = '2026-11-01T00:00:00.000Z';
let position = 0;
const revisions = new Map<string, number>();
function recorded(streamId: string, type: string, data: unknown): RecordedEvent {
  position += 1;
  const revision = (revisions.get(streamId) ?? -1) + 1;
  revisions.set(streamId, revision);
  return { id: `00000000-0000-7000-8000-${String(position).padStart(12, '0')}`, type, data, streamId, revision, position, createdAt: DAY, metadata: { workspaceId: WS, schemaVersion: 1 } };
}
const match = { cardKey: 'charizard', setKey: 'base', matchKey: 'base|charizard', conditionClass: 'raw', conditionScore: 6, gradingCompany: null };
const listing = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', currency: 'USD' };
const input = { cardName: 'Charizard', setName: 'Base', condition: 'NM' };
const itemCreated = () =>
  recorded('inventory-inv_1', 'inventory.created', {
    inventoryItemId: 'inv_1', ...listing, priceMinor: 40000, quantity: 2, status: 'available', sku: null, cardNumber: null, notes: null, match, input, ingestion: null, createdAt: DAY,
  });
const requestCreated = () =>
  recorded('buyer_request-br_1', 'buyer_request.created', { buyerRequestId: 'br_1', ...listing, maxPriceMinor: 45000, source: null, match, input, buyerSealed: null, createdAt: DAY });
const tradeInitiated = () =>
  recorded('trade-trd_1', 'trade.initiated', {
    tradeId: 'trd_1', inventoryItemId: 'inv_1', buyerRequestId: 'br_1', matchId: null, offerId: null, holdId: null, reservationId: 'trd_1', quantity: 1, amountMinor: 41000, currency: 'USD', depositMinor: 0, initiatedAt: '2026-11-03T00:00:00.000Z',
  });
const tradeCompleted = () =>
  recorded('trade-trd_1', 'trade.status_changed', {
    tradeId: 'trd_1', from: 'delivered', to: 'completed', reason: null, reference: null, carrier: null, trackingNumber: null, refundDue: false, resolution: null, by: 'client', at: '2026-11-05T00:00:00.000Z',
  });

const pointsId = `${WS}|base|charizard|Near Mint|USD`;
const cardId = `${WS}|card|base|charizard`;
const setId = `${WS}|set|base`;
const workspaceId = `${WS}|workspace`;
const identity = { id: pointsId, workspaceId: WS, cardKey: 'charizard', setKey: 'base', ...listing };
const noCounts = { openPrices: [], unmatchedPrices: [], asks: [], unmatchedByDay: {}, created: {}, missed: {}, stockByDay: {}, listed: {}, sold: {} };
const spec = viewSpec(tradegraphProjection);

describe('tradegraph projection (evolve)', () => {
  beforeEach(() => {
    position = 0;
    revisions.clear();
  });

  it('follows the eventual lane under its one name', () => {
    expect(tradegraphProjection).toMatchObject({ name: 'tradegraph', consistency: 'eventual' });
    expect(tradegraphProjection.collections.map((c) => c.name)).toEqual(['tg_items', 'tg_requests', 'tg_trades', 'tg_price_points', 'tg_price_counts', 'tg_demand', 'tg_demand_counts']);
  });

  it('given nothing, when an item is listed, then its listing, an ask at its price (one listing), and its card\'s and the workspace\'s stock', () => {
    spec.given().when(itemCreated()).then({
      [TG_ITEMS.name]: [
        {
          id: 'inv_1', workspaceId: WS, revision: 0, cardKey: 'charizard', setKey: 'base', ...listing, pointsKey: 'base|charizard|Near Mint|USD', cardId,
          priceMinor: 40000, quantity: 2, reserved: 0, sold: 0, status: 'available', available: 2, listedAt: DAY,
        },
      ],
      [TG_POINTS.name]: [identity],
      [TG_COUNTS.name]: [{ id: pointsId, sales: [], asks: [40000, 1], bids: [] }],
      [TG_DEMAND.name]: [
        { id: cardId, workspaceId: WS, kind: 'card', name: 'Charizard (Base)', cardName: 'Charizard', setName: 'Base', openCount: 0, unmatchedCount: 0, availableUnits: 2 },
        { id: workspaceId, workspaceId: WS, kind: 'workspace', name: 'workspace', cardName: null, setName: '', openCount: 0, unmatchedCount: 0, availableUnits: 2 },
      ],
      [TG_DEMAND_COUNTS.name]: [
        { id: cardId, ...noCounts, asks: [40000, 1], stockByDay: { '2026-11-01': { units: 2, valueMinor: 80000 } }, listed: { '2026-11-01': 2 } },
        { id: workspaceId, ...noCounts, stockByDay: { '2026-11-01': { units: 2, valueMinor: 80000 } }, listed: { '2026-11-01': 2 } },
      ],
    });
  });

  it('when a buyer request comes and is archived unmatched, then its bid goes and the day counts it missed', () => {
    const created = requestCreated();
    const archived = recorded('buyer_request-br_1', 'buyer_request.archived', { buyerRequestId: 'br_1', reason: null, archivedAt: '2026-11-02T00:00:00.000Z' });
    const open = spec.given().when(created).documents();
    expect(open[TG_REQUESTS.name]).toEqual([expect.objectContaining({ id: 'br_1', status: 'open', bidMinor: 45000, maxPriceMinor: 45000 })]);
    expect(open[TG_COUNTS.name]).toEqual([{ id: pointsId, sales: [], asks: [], bids: [45000, 1] }]);
    expect(open[TG_DEMAND.name]).toEqual([
      expect.objectContaining({ id: cardId, openCount: 1, unmatchedCount: 1 }),
      expect.objectContaining({ id: setId, kind: 'set', name: 'Base', openCount: 1, unmatchedCount: 1 }),
    ]);

    const after = spec.given(open).when(archived).documents();
    expect(after[TG_REQUESTS.name]).toEqual([expect.objectContaining({ status: 'archived', bidMinor: null, revision: 1 })]);
    expect(after[TG_COUNTS.name]).toEqual([{ id: pointsId, sales: [], asks: [], bids: [] }]);
    expect(after[TG_DEMAND_COUNTS.name]).toEqual([
      { id: cardId, ...noCounts, created: { '2026-11-01': 1 }, missed: { '2026-11-02': 1 } },
      { id: setId, ...noCounts, created: { '2026-11-01': 1 }, missed: { '2026-11-02': 1 } },
    ]);
  });

  it('given nothing, when a request for any printing, condition and price comes and is archived, then it counts once, in its own card and set clusters, without a price', () => {
    const openMatch = { cardKey: 'charizard', setKey: '*', matchKey: '*|charizard', conditionClass: '*', conditionScore: 0, gradingCompany: null };
    const created = recorded('buyer_request-br_1', 'buyer_request.created', {
      buyerRequestId: 'br_1', cardName: 'Charizard', setName: null, condition: null, maxPriceMinor: null, currency: 'USD', source: null,
      match: openMatch, input: { cardName: 'Charizard', setName: null, condition: null }, buyerSealed: null, createdAt: DAY,
    });
    const open = spec.given().when(created).documents();
    expect(open[TG_REQUESTS.name]).toEqual([expect.objectContaining({ id: 'br_1', setName: 'any set', condition: 'any condition', maxPriceMinor: null, bidMinor: null })]);
    // No bid: it names no price.
    expect(open[TG_COUNTS.name]).toEqual([{ id: `${WS}|*|charizard|any condition|USD`, sales: [], asks: [], bids: [] }]);
    expect(open[TG_DEMAND.name]).toEqual([
      expect.objectContaining({ id: `${WS}|card|*|charizard`, name: 'Charizard (any set)', openCount: 1, unmatchedCount: 1 }),
      expect.objectContaining({ id: `${WS}|set|*`, kind: 'set', name: 'any set', openCount: 1, unmatchedCount: 1 }),
    ]);
    expect(open[TG_DEMAND_COUNTS.name]).toEqual([
      expect.objectContaining({ openPrices: [], unmatchedPrices: [], openUnpriced: 1, unmatchedUnpriced: 1 }),
      expect.objectContaining({ openPrices: [], unmatchedPrices: [], openUnpriced: 1, unmatchedUnpriced: 1 }),
    ]);
    const archived = recorded('buyer_request-br_1', 'buyer_request.archived', { buyerRequestId: 'br_1', reason: null, archivedAt: '2026-11-02T00:00:00.000Z' });
    const after = spec.given(open).when(archived).documents();
    expect(after[TG_DEMAND.name]).toEqual([
      expect.objectContaining({ name: 'Charizard (any set)', openCount: 0, unmatchedCount: 0 }),
      expect.objectContaining({ name: 'any set', openCount: 0, unmatchedCount: 0 }),
    ]);
  });

  it('a request\'s first full match makes it matched — one matches_recorded as an old log\'s matched and match.created did; near misses alone change nothing', () => {
    const factors = [{ name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 }];
    const near = { matchId: 'mt_n', inventoryItemId: 'inv_n', kind: 'near_miss', score: 0.6, factors, reasons: [] };
    const full = { matchId: 'mt_1', inventoryItemId: 'inv_1', kind: 'full', score: 0.9, factors, reasons: [] };
    const withoutRevision = (docs: Record<string, Array<object>>) => Object.fromEntries(Object.entries(docs).map(([name, ds]) => [name, ds.map((d) => ({ ...d, revision: undefined }))]));

    const nearOnly = (() => {
      const created = requestCreated();
      return spec.given().when(created, recorded('buyer_request-br_1', 'buyer_request.matches_recorded', { buyerRequestId: 'br_1', created: [near], full: [], matchCount: 0, recordedAt: DAY })).documents();
    })();
    position = 0;
    revisions.clear();
    const open = spec.given().when(requestCreated()).documents();
    expect(nearOnly).toEqual(open);

    position = 0;
    revisions.clear();
    const oldLog = [
      requestCreated(),
      recorded('buyer_request-br_1', 'buyer_request.matched', { buyerRequestId: 'br_1', matches: [{ matchId: 'mt_1', inventoryItemId: 'inv_1', score: 0.9 }], matchCount: 1, matchedAt: DAY }),
      recorded('buyer_request-br_1', 'match.created', { ...full, buyerRequestId: 'br_1', createdAt: DAY }),
      recorded('buyer_request-br_1', 'match.created', { ...near, buyerRequestId: 'br_1', createdAt: DAY }),
    ];
    const before = spec.given().when(...oldLog).documents();
    expect(before[TG_REQUESTS.name]).toEqual([expect.objectContaining({ id: 'br_1', status: 'matched' })]);
    position = 0;
    revisions.clear();
    const newLog = [
      requestCreated(),
      recorded('buyer_request-br_1', 'buyer_request.matches_recorded', {
        buyerRequestId: 'br_1', created: [full, near], full: [{ matchId: 'mt_1', inventoryItemId: 'inv_1', score: 0.9 }], matchCount: 1, recordedAt: DAY,
      }),
    ];
    expect(withoutRevision(spec.given().when(...newLog).documents())).toEqual(withoutRevision(before));
  });

  it('when a trade on the item completes, then a sale at its unit price on the card, and its units sold', () => {
    const docs = spec.given().when(itemCreated(), tradeInitiated(), tradeCompleted()).documents();
    expect(docs[TG_TRADES.name]).toEqual([
      { id: 'trd_1', workspaceId: WS, revision: 1, pointsKey: 'base|charizard|Near Mint|USD', itemId: 'inv_1', unitPriceMinor: 41000, quantity: 1, completedAt: '2026-11-05T00:00:00.000Z' },
    ]);
    expect(docs[TG_COUNTS.name]).toEqual([{ id: pointsId, sales: [{ tradeId: 'trd_1', priceMinor: 41000, units: 1, at: '2026-11-05T00:00:00.000Z' }], asks: [40000, 1], bids: [] }]);
    expect(docs[TG_DEMAND_COUNTS.name]).toEqual([
      expect.objectContaining({ id: cardId, sold: { '2026-11-05': 1 } }),
      expect.objectContaining({ id: workspaceId, sold: { '2026-11-05': 1 } }),
    ]);
  });

  it('when a unit is reserved, then one unit fewer is available and asked for', () => {
    const created = itemCreated();
    const reserved = recorded('inventory-inv_1', 'inventory.reserved', { inventoryItemId: 'inv_1', reservationId: 'trd_1', holderId: 'trd_1', quantity: 1, status: 'available', reservedAt: DAY });
    const docs = spec.given().when(created, reserved).documents();
    expect(docs[TG_ITEMS.name]).toEqual([expect.objectContaining({ reserved: 1, available: 1, revision: 1 })]);
    expect(docs[TG_COUNTS.name]).toEqual([{ id: pointsId, sales: [], asks: [40000, 1], bids: [] }]);
    expect(docs[TG_DEMAND.name]).toEqual([expect.objectContaining({ id: cardId, availableUnits: 1 }), expect.objectContaining({ id: workspaceId, availableUnits: 1 })]);
  });

  it('applying events twice is applying them once', () => {
    const events = [itemCreated(), requestCreated(), tradeInitiated(), tradeCompleted()];
    const once = spec.given().when(...events).documents();
    spec
      .given(once)
      .when(...events)
      .then(once);
  });
});
