// The public event catalogue as the composition roots put it together from every context's own
// public events: the spec's types, each with its data fields, and the data each context emits.
// Cross-context on purpose: the events are made by the contexts' own deciders.
import { fannedOutEventId, PublicEventCatalogue, publicEventId, type RecordedEvent } from '@app/platform';

import { PUBLIC_EVENTS } from '../../apps/composition/public-events';
import { buyerRequestDecider } from '../../libs/demand/src/buyer-request/buyer-request.decider';
import { toCriteria } from '../../libs/demand/src/buyer-request/buyer-request.handlers';
import { inventoryDecider } from '../../libs/supply/src/inventory/inventory.decider';
import { lotDecider } from '../../libs/live/src/lot/lot.decider';
import { liveSessionDecider } from '../../libs/live/src/session/live-session.decider';
import { holdDecider } from '../../libs/trading/src/hold/hold.decider';
import { offerDecider } from '../../libs/trading/src/offer/offer.decider';
import { tradeDecider } from '../../libs/trading/src/trade/trade.decider';
import { sellerTrustDecider } from '../../libs/trust/src/seller/seller-trust.decider';
import { fold } from '@app/platform/domain';

const catalogue = new PublicEventCatalogue(PUBLIC_EVENTS);
const EVENT_CATALOGUE = catalogue.entries;
const isPublicEventType = (type: string) => catalogue.has(type);
/** The data of a stored event that is one public event (null: internal). */
const publicData = (event: RecordedEvent) => {
  const published = catalogue.publicEvents(event);
  if (published.length > 1) throw new Error(`${event.type} is ${published.length} public events`);
  return published[0]?.data ?? null;
};
const toPublicEvent = (event: RecordedEvent) => catalogue.envelopes(event)[0] ?? null;

const SPEC_TYPES = [
  'buyer_request.created', 'buyer_request.matched', 'buyer_request.archived', 'match.completed',
  'offer.created', 'offer.accepted', 'offer.rejected', 'offer.countered',
  'trade.initiated', 'trade.paid', 'trade.shipped', 'trade.completed', 'trade.cancelled',
  'hold.created', 'hold.expired', 'hold.deposit_paid',
  'inventory.created', 'inventory.updated', 'inventory.deleted',
  'live_session.started', 'live_session.ended', 'reserve.placed',
];
const CLIENT_EXAMPLE_TYPES = ['match.created', 'trade.status_changed', 'trust.score_updated'];
/** Ours beyond the spec's list, so a subscriber sees every way an offer or a hold ends. */
const OWN_TYPES = ['offer.expired', 'hold.converted', 'hold.released'];

const now = new Date('2026-11-22T12:00:00.000Z');
let position = 0;
function recorded(streamId: string, e: { type: string; data: unknown }, id = '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60718'): RecordedEvent {
  position += 1;
  return {
    id,
    type: e.type,
    data: JSON.parse(JSON.stringify(e.data)),
    metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
    streamId,
    revision: 0,
    position,
    createdAt: now.toISOString(),
  };
}

const match = {
  matchId: 'mt_1',
  inventoryItemId: 'inv_1',
  kind: 'full' as const,
  score: 0.93,
  factors: [{ name: 'name_similarity' as const, value: 1, weight: 0.4, contribution: 0.4 }],
  reasons: ['same card'],
};
const input = { cardName: 'charizard', setName: 'BS', condition: 'NM' };
const requestEvents = buyerRequestDecider
  .decide(
    { type: 'CreateBuyerRequest', buyerRequestId: 'br_1', criteria: toCriteria({ ...input, maxPriceMinor: 45050, currency: 'USD', source: null }), input, matches: [match], matchedThrough: 0, now },
    buyerRequestDecider.initialState,
  )
  .map((e) => recorded('buyer_request-br_1', e));
const item = {
  inventoryItemId: 'inv_1',
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  priceMinor: 40000,
  currency: 'USD',
  quantity: 1,
  status: 'available' as const,
  sku: 'A-1',
  cardNumber: '4',
  notes: null,
  match: { cardKey: 'charizard', setKey: 'base1', matchKey: 'base1|charizard', conditionClass: 'raw', conditionScore: 5, gradingCompany: null },
  input,
  ingestion: null,
};
const itemCreated = inventoryDecider.decide({ type: 'CreateInventoryItem', item, now }, inventoryDecider.initialState).map((e) => recorded('inventory-inv_1', e));
const emitted: RecordedEvent[] = [
  ...requestEvents,
  recorded('buyer_request-br_1', { type: 'buyer_request.archived', data: { buyerRequestId: 'br_1', reason: null, archivedAt: now.toISOString() } }),
  recorded('match_pack-mp_1', {
    type: 'match.completed',
    data: { matchPackId: 'mp_1', buyerRequestId: 'br_1', matches: [match], fullCount: 1, nearMissCount: 0, createdAt: now.toISOString() },
  }),
  ...itemCreated,
  recorded('inventory-inv_1', { type: 'inventory.updated', data: { ...item, priceMinor: 39000, changedFields: ['priceMinor', 'match'], input: {}, updatedAt: now.toISOString() } }),
  recorded('inventory-inv_1', { type: 'inventory.deleted', data: { inventoryItemId: 'inv_1', deletedAt: now.toISOString() } }),
];

/** Runs commands through a decider from nothing, recording every event on `streamId`. */
function lifecycle<C, S>(decider: { initialState: S; decide(c: C, s: S): Array<{ type: string; data: unknown }>; evolve(s: S, e: never): S }, streamId: string, commands: C[]): RecordedEvent[] {
  const out: Array<{ type: string; data: unknown }> = [];
  for (const command of commands) out.push(...decider.decide(command, fold(decider as never, out as never) as S));
  return out.map((e) => recorded(streamId, e));
}
const later = new Date(now.getTime() + 3600_000);
const tradeTerms = { tradeId: 'trd_1', inventoryItemId: 'inv_1', buyerRequestId: 'br_1', matchId: 'mt_1', offerId: 'ofr_1', holdId: null, reservationId: 'trd_1', quantity: 1, amountMinor: 40000, currency: 'USD', depositMinor: 0 };
const tradeEvents = lifecycle(tradeDecider, 'trade-trd_1', [
  { type: 'InitiateTrade', trade: tradeTerms, now },
  ...(['paid', 'shipped', 'delivered', 'completed', 'settled'] as const).map((to) => ({ type: 'MoveTrade' as const, tradeId: 'trd_1', to, now })),
]);
const cancelled = lifecycle(tradeDecider, 'trade-trd_2', [
  { type: 'InitiateTrade', trade: { ...tradeTerms, tradeId: 'trd_2' }, now },
  { type: 'MoveTrade', tradeId: 'trd_2', to: 'cancelled', now },
]);
const offerTerms = { offerId: 'ofr_1', threadId: 'ofr_1', countersOfferId: null, inventoryItemId: 'inv_1', buyerRequestId: 'br_1', matchId: 'mt_1', amountMinor: 40000, currency: 'USD', quantity: 1, from: 'buyer' as const, message: null, expiresAt: later.toISOString() };
const offerEvents = [
  ...lifecycle(offerDecider, 'offer-ofr_1', [{ type: 'MakeOffer', offer: offerTerms, now }, { type: 'CounterOffer', offerId: 'ofr_1', party: 'seller', counterOfferId: 'ofr_2', amountMinor: 42000, now }]),
  ...lifecycle(offerDecider, 'offer-ofr_2', [{ type: 'MakeOffer', offer: { ...offerTerms, offerId: 'ofr_2', from: 'seller', countersOfferId: 'ofr_1' }, now }, { type: 'AcceptOffer', offerId: 'ofr_2', party: 'buyer', tradeId: 'trd_1', now }]),
  ...lifecycle(offerDecider, 'offer-ofr_3', [{ type: 'MakeOffer', offer: { ...offerTerms, offerId: 'ofr_3' }, now }, { type: 'RejectOffer', offerId: 'ofr_3', party: 'seller', reason: null, now }]),
  ...lifecycle(offerDecider, 'offer-ofr_4', [{ type: 'MakeOffer', offer: { ...offerTerms, offerId: 'ofr_4' }, now }, { type: 'ExpireOffer', offerId: 'ofr_4', now: later }]),
];
const holdTerms = { holdId: 'hld_1', inventoryItemId: 'inv_1', buyerRequestId: null, quantity: 1, depositMinor: 5000, currency: 'USD', amountMinor: 40000, expiresAt: later.toISOString() };
const holdEvents = [
  ...lifecycle(holdDecider, 'hold-hld_1', [{ type: 'PlaceHold', hold: holdTerms, now }, { type: 'PayHoldDeposit', holdId: 'hld_1', reference: 'pi_1', now }, { type: 'ConvertHold', holdId: 'hld_1', tradeId: 'trd_1', now }]),
  ...lifecycle(holdDecider, 'hold-hld_2', [{ type: 'PlaceHold', hold: { ...holdTerms, holdId: 'hld_2' }, now }, { type: 'ExpireHold', holdId: 'hld_2', now: later }]),
  ...lifecycle(holdDecider, 'hold-hld_3', [{ type: 'PlaceHold', hold: { ...holdTerms, holdId: 'hld_3' }, now }, { type: 'ReleaseHold', holdId: 'hld_3', reason: null, now }]),
];
const sessionEvents = lifecycle(liveSessionDecider, 'live_session-ls_1', [
  { type: 'CreateLiveSession', session: { sessionId: 'ls_1', title: 'Friday', currency: 'USD', scheduledAt: null, settlement: 'hold', depositPercent: 20, paymentWindowHours: 48 }, now },
  { type: 'AddLotToSession', sessionId: 'ls_1', lotId: 'lot_1', inventoryItemId: 'inv_1', now },
  { type: 'StartLiveSession', sessionId: 'ls_1', now },
  { type: 'EndLiveSession', sessionId: 'ls_1', now },
]);
const lotEvents = lifecycle(lotDecider, 'lot-lot_1', [
  { type: 'AddLot', lot: { lotId: 'lot_1', sessionId: 'ls_1', inventoryItemId: 'inv_1', cardName: 'Charizard', setName: 'Base Set', quantity: 1, startingPriceMinor: 100, incrementMinor: 10, currency: 'USD' }, now },
  { type: 'OpenLot', lotId: 'lot_1', sessionLive: true, now },
  { type: 'PlaceReserve', lotId: 'lot_1', reserveId: 'rsv_1', amountMinor: 100, buyerSealed: 'sb1.sealed', buyerRequestId: null, sessionLive: true, now },
]);
const subject = {
  type: 'SellerTrustScore' as const, credentialId: 'urn:uuid:1', seller: { id: 'ws_1', slug: 'acme', name: 'Acme' }, score: 87, tier: 'trusted' as const,
  formula: 'trust-v1', factors: [], inputsHash: 'sha256:00', inputsCount: 6, asOf: now.toISOString(),
};
const trustEvents = lifecycle(sellerTrustDecider, 'trust-ws_1', [
  {
    type: 'IssueCredential',
    credential: { credentialId: 'urn:uuid:1', issuedAt: now.toISOString(), validUntil: later.toISOString(), kid: 'did:key:z6Mk#z6Mk', subject, statusListCredential: 'https://x/api/v1/trust/status/ws_1', statusListIndex: 0, jws: 'sig', proofValue: 'zsig', inputsPosition: 9, reason: 'inputs' },
    now,
  },
]);
emitted.push(...trustEvents.filter((e) => e.type === 'trust.score_updated'), ...tradeEvents, ...cancelled, ...offerEvents, ...holdEvents, ...sessionEvents.filter((e) => e.type !== 'live_session.created' && e.type !== 'live_session.lot_added'), ...lotEvents.filter((e) => e.type === 'reserve.placed'));

describe('the public event catalogue', () => {
  it('lists every type of the spec plus the client example\'s three, once each, each with data fields', () => {
    const types = EVENT_CATALOGUE.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...SPEC_TYPES, ...CLIENT_EXAMPLE_TYPES, ...OWN_TYPES].sort());
    for (const entry of EVENT_CATALOGUE) expect(Object.keys(entry.data).length).toBeGreaterThan(0);
  });

  it('trade.completed carries exactly trade_id, offer_id, amount and status (the spec)', () => {
    const entry = EVENT_CATALOGUE.find((e) => e.type === 'trade.completed');
    expect(Object.keys(entry?.data ?? {}).sort()).toEqual(['amount', 'offer_id', 'status', 'trade_id']);
  });

  it('internal events are not public', () => {
    for (const type of ['buyer_request.updated', 'ingestion.pushed', 'workspace.created', 'api_key.created']) {
      expect(isPublicEventType(type)).toBe(false);
    }
  });
});

/** Every public event of the emitted stored events. */
const published = emitted.flatMap((e) => catalogue.publicEvents(e));

describe('public event data', () => {
  it.each(published.map((p) => [p.type, p] as const))('%s: exactly the catalogue\'s fields, snake_case', (type, p) => {
    const declared = EVENT_CATALOGUE.find((e) => e.type === type)?.data ?? {};
    expect(Object.keys(p.data).sort()).toEqual(Object.keys(declared).sort());
  });

  it('covers every public type the service emits today', () => {
    expect(new Set(published.map((p) => p.type))).toEqual(
      new Set([
        'buyer_request.created', 'buyer_request.matched', 'match.created', 'buyer_request.archived', 'match.completed',
        'inventory.created', 'inventory.updated', 'inventory.deleted',
        'trade.initiated', 'trade.paid', 'trade.shipped', 'trade.completed', 'trade.cancelled', 'trade.status_changed',
        'offer.created', 'offer.accepted', 'offer.rejected', 'offer.countered', 'offer.expired',
        'hold.created', 'hold.deposit_paid', 'hold.converted', 'hold.expired', 'hold.released',
        'live_session.started', 'live_session.ended', 'reserve.placed',
        'trust.score_updated',
      ]),
    );
    // … and those are exactly the catalogued types some context maps to data.
    expect(new Set(EVENT_CATALOGUE.filter((e) => e.toData || e.fanOut).map((e) => e.type))).toEqual(new Set(published.map((p) => p.type)));
  });

  it('trade.completed names the offer; a trade moves with one trade.status_changed per move', () => {
    const completed = tradeEvents.find((e) => e.type === 'trade.completed') as RecordedEvent;
    expect(publicData(completed)).toEqual({ trade_id: 'trd_1', offer_id: 'ofr_1', amount: 400, status: 'completed' });
    expect(tradeEvents.filter((e) => e.type === 'trade.status_changed').map((e) => publicData(e)?.status)).toEqual(['paid', 'shipped', 'delivered', 'completed', 'settled']);
  });

  it('a type declared twice is refused when the catalogue is composed', () => {
    expect(() => new PublicEventCatalogue([...PUBLIC_EVENTS, PUBLIC_EVENTS[0]])).toThrow(/declared twice/);
  });

  it('the envelope: evt_ id, type, created_at, workspace_id, money as decimals, internal names hidden', () => {
    const created = toPublicEvent(requestEvents[0]);
    expect(created).toEqual({
      id: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718',
      type: 'buyer_request.created',
      created_at: now.toISOString(),
      workspace_id: 'ws_1',
      data: { buyer_request_id: 'br_1', card_name: 'Charizard', set_name: 'Base', condition: 'Near Mint', max_price: 450.5, currency: 'USD', source: null },
    });
    const updated = publicData(emitted.find((e) => e.type === 'inventory.updated') as RecordedEvent);
    expect(updated).toMatchObject({ price: 390, changed_fields: ['price'] });
    expect(toPublicEvent(recorded('buyer_request-br_1', { type: 'buyer_request.updated', data: {} }))).toBeNull();
  });
});

describe('a buyer request\'s matches: one stored event, one public event per match', () => {
  const near = { ...match, matchId: 'mt_2', inventoryItemId: 'inv_2', kind: 'near_miss' as const, score: 0.61 };
  const full2 = { ...match, matchId: 'mt_3', inventoryItemId: 'inv_3', score: 0.97 };
  const stored = buyerRequestDecider
    .decide(
      { type: 'CreateBuyerRequest', buyerRequestId: 'br_9', criteria: toCriteria({ ...input, maxPriceMinor: 45050, currency: 'USD', source: null }), input, matches: [match, near, full2], matchedThrough: 0, now },
      buyerRequestDecider.initialState,
    )
    .map((e, i) => recorded('buyer_request-br_9', e, `019ab3c4-d5e6-7f80-a1b2-c3d4e5f6071${i}`));
  const recordedMatches = stored[1];
  // The same write as a log before matches_recorded held it: a matched, then one match.created each.
  const at = now.toISOString();
  const oldLog = [
    recorded('buyer_request-br_9', { type: 'buyer_request.matched', data: { buyerRequestId: 'br_9', matches: [full2, match].map((m) => ({ matchId: m.matchId, inventoryItemId: m.inventoryItemId, score: m.score })), matchCount: 2, matchedAt: at } }, '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60721'),
    ...[full2, match, near].map((m, i) => recorded('buyer_request-br_9', { type: 'match.created', data: { ...m, buyerRequestId: 'br_9', createdAt: at } }, `019ab3c4-d5e6-7f80-a1b2-c3d4e5f6072${i + 2}`)),
  ];

  it('the write stores the request and one internal event carrying every match', () => {
    expect(stored.map((e) => e.type)).toEqual(['buyer_request.created', 'buyer_request.matches_recorded']);
    expect(isPublicEventType('buyer_request.matches_recorded')).toBe(false);
    expect(catalogue.storedTypes()).toContain('buyer_request.matches_recorded');
    expect(catalogue.publicTypesOf('buyer_request.matches_recorded')).toEqual(['buyer_request.matched', 'match.created']);
  });

  it('stands for the public events the old log held, in the same order, with the same data', () => {
    const fresh = catalogue.envelopes(recordedMatches);
    const old = oldLog.flatMap((e) => catalogue.envelopes(e));
    expect(fresh.map((e) => e.type)).toEqual(['buyer_request.matched', 'match.created', 'match.created', 'match.created']);
    expect(fresh.map(({ type, data, created_at, workspace_id }) => ({ type, data, created_at, workspace_id }))).toEqual(
      old.map(({ type, data, created_at, workspace_id }) => ({ type, data, created_at, workspace_id })),
    );
    expect(fresh[0].data).toEqual({ buyer_request_id: 'br_9', match_count: 2, match_ids: ['mt_3', 'mt_1'], inventory_item_ids: ['inv_3', 'inv_1'] });
    expect(fresh[3].data).toEqual({ match_id: 'mt_2', buyer_request_id: 'br_9', inventory_item_id: 'inv_2', kind: 'near_miss', score: 0.61 });
  });

  it('ids: an old stored event keeps its own; the fan-out\'s are derived, distinct, stable, ordered by index', () => {
    expect(oldLog.map((e) => catalogue.envelopes(e)[0].id)).toEqual(oldLog.map((e) => publicEventId(e.id)));
    const ids = catalogue.envelopes(recordedMatches).map((e) => e.id);
    expect(ids).toEqual([0, 1, 2, 3].map((i) => publicEventId(fannedOutEventId(recordedMatches.id, i))));
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(ids).not.toContain(publicEventId(recordedMatches.id));
    // Read again (a redelivery, a replay, a rebuilt read model): the same ids.
    expect(catalogue.envelopes(JSON.parse(JSON.stringify(recordedMatches)) as RecordedEvent).map((e) => e.id)).toEqual(ids);
    // Sorted by id, they keep their order (lists sort a position's events by id).
    expect([...ids].sort()).toEqual(ids);
    // Another stored event: other ids.
    expect(catalogue.envelopes({ ...recordedMatches, id: '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60799' }).map((e) => e.id).some((id) => ids.includes(id))).toBe(false);
  });

  it('a near miss alone is match.created only; a near miss becoming full is buyer_request.matched only', () => {
    const state = fold(buyerRequestDecider, [stored[0], recordedMatches].map((e) => ({ type: e.type, data: e.data })) as never);
    const onlyNear = buyerRequestDecider.decide({ type: 'RecordMatches', matches: [{ ...near, matchId: 'mt_4', inventoryItemId: 'inv_4' }], now }, state);
    expect(catalogue.publicEvents(recorded('buyer_request-br_9', onlyNear[0])).map((p) => p.type)).toEqual(['match.created']);
    const promoted = buyerRequestDecider.decide(
      { type: 'RecordMatches', matches: [{ ...near, kind: 'full', score: 0.9, matchId: 'mt_ignored' }], now },
      state,
    );
    expect(catalogue.publicEvents(recorded('buyer_request-br_9', promoted[0])).map((p) => [p.type, p.data])).toEqual([
      ['buyer_request.matched', { buyer_request_id: 'br_9', match_count: 3, match_ids: ['mt_2'], inventory_item_ids: ['inv_2'] }],
    ]);
  });
});
