// The public event catalogue as the composition roots put it together from every context's own
// public events: the spec's types, each with its data fields, and the data each context emits.
// Cross-context on purpose: the events are made by the contexts' own deciders.
import { PublicEventCatalogue, type RecordedEvent } from '@app/platform';

import { PUBLIC_EVENTS } from '../../apps/composition/public-events';
import { buyerRequestDecider } from '../../libs/demand/src/buyer-request/buyer-request.decider';
import { toCriteria } from '../../libs/demand/src/buyer-request/buyer-request.handlers';
import { inventoryDecider } from '../../libs/supply/src/inventory/inventory.decider';

const catalogue = new PublicEventCatalogue(PUBLIC_EVENTS);
const EVENT_CATALOGUE = catalogue.entries;
const isPublicEventType = (type: string) => catalogue.has(type);
const publicData = (event: RecordedEvent) => catalogue.data(event);
const toPublicEvent = (event: RecordedEvent) => catalogue.envelope(event);

const SPEC_TYPES = [
  'buyer_request.created', 'buyer_request.matched', 'buyer_request.archived', 'match.completed',
  'offer.created', 'offer.accepted', 'offer.rejected', 'offer.countered',
  'trade.initiated', 'trade.paid', 'trade.shipped', 'trade.completed', 'trade.cancelled',
  'hold.created', 'hold.expired', 'hold.deposit_paid',
  'inventory.created', 'inventory.updated', 'inventory.deleted',
  'live_session.started', 'live_session.ended', 'reserve.placed',
];
const CLIENT_EXAMPLE_TYPES = ['match.created', 'trade.status_changed', 'trust.score_updated'];

const now = new Date('2026-11-22T12:00:00.000Z');
let position = 0;
function recorded(streamId: string, e: { type: string; data: unknown }): RecordedEvent {
  position += 1;
  return {
    id: '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60718',
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

describe('the public event catalogue', () => {
  it('lists every type of the spec plus the client example\'s three, once each, each with data fields', () => {
    const types = EVENT_CATALOGUE.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...SPEC_TYPES, ...CLIENT_EXAMPLE_TYPES].sort());
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

describe('public event data', () => {
  it.each(emitted.map((e) => [e.type, e] as const))('%s: exactly the catalogue\'s fields, snake_case', (type, event) => {
    const data = publicData(event);
    const declared = EVENT_CATALOGUE.find((e) => e.type === type)?.data ?? {};
    expect(data).not.toBeNull();
    expect(Object.keys(data ?? {}).sort()).toEqual(Object.keys(declared).sort());
  });

  it('covers every public type the service emits today', () => {
    expect(new Set(emitted.map((e) => e.type))).toEqual(
      new Set(['buyer_request.created', 'buyer_request.matched', 'match.created', 'buyer_request.archived', 'match.completed', 'inventory.created', 'inventory.updated', 'inventory.deleted']),
    );
    // … and those are exactly the catalogued types some context maps to data.
    expect(new Set(EVENT_CATALOGUE.filter((e) => e.toData).map((e) => e.type))).toEqual(new Set(emitted.map((e) => e.type)));
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
