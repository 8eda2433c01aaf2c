// Every method of every resource group, called on a client whose fetch is a fake that records the
// requests: the route it calls (method, path with its parameters encoded, query) and the body it
// sends. The table is checked against the generated OpenAPI types, so every documented route of
// /api/v1 is the route of exactly one method, and every method of a group is in the table. Lists
// fetch their pages lazily; tradegraph reports await to their answer and iterate their list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CommerceClient, type CommerceClientOptions } from './client';
import { type FetchLike } from './core/transport';
import { Page, PagePromise } from './core/pagination';
import { NotFoundError, ValidationError } from './core/errors';
import { ReportPromise, Resource } from './resources/resource';

interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
}

interface Reply {
  status?: number;
  json?: unknown;
  text?: string;
  contentType?: string;
}

/** Every list shape at once, so any method can read it: `data` lists, the tradegraph's, a cursor. */
const ANY_ANSWER = { id: 'x', data: [], nextCursor: null, clusters: [], cards: [], items: [] };

function fakeApi(reply: (sent: Sent, index: number) => Reply = () => ({ json: ANY_ANSWER }), options: Partial<CommerceClientOptions> = {}) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init) => {
    const request: Sent = { method: String(init.method), url: new URL(url), headers: new Headers(init.headers), body: init.body as string | undefined };
    sent.push(request);
    const { status = 200, json, text, contentType = 'application/json' } = reply(request, sent.length - 1);
    return new Response(text ?? JSON.stringify(json), { status, headers: { 'content-type': contentType, 'x-request-id': `req_${sent.length}` } });
  };
  const api = new CommerceClient({ apiKey: 'sk_test_1', baseUrl: 'https://api.example.test', fetch, maxRetries: 0, ...options });
  return { api, sent };
}

/** Ids with characters a path must encode: each fills one segment, whatever it holds. */
const ID = 'br 1/ä?#';
const ID_ENC = 'br%201%2F%C3%A4%3F%23';
const LOT = 'lot/2';
const LOT_ENC = 'lot%2F2';

type ListField = 'data' | 'clusters' | 'cards' | 'items';

interface Row {
  /** `group.method`. */
  name: string;
  call: (api: CommerceClient) => PromiseLike<unknown>;
  /** The route as the OpenAPI document names it: `GET /api/v1/buyer-requests/{id}`. */
  route: string;
  /** The path and query sent, exactly. */
  url: string;
  /** The JSON body sent (undefined: none). */
  body?: unknown;
  /** A body sent as it is. */
  raw?: { contentType: string; content: string };
  /** A cursor-paged list, and the field of its answer the items are in. */
  list?: ListField;
}

const buyer = { cardName: 'Charizard', setName: 'Base Set', condition: 'NM', maxPrice: 350 };
const item = { cardName: 'Charizard', setName: 'Base Set', condition: 'NM', price: 300 };
const trigger = { event: 'offer.created', conditions: [{ field: 'amount', op: 'gte' as const, value: 100 }] };
const credential = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'] };

const ROWS: Row[] = [
  // buyerRequests
  { name: 'buyerRequests.create', call: (api) => api.buyerRequests.create(buyer), route: 'POST /api/v1/buyer-requests', url: '/api/v1/buyer-requests', body: buyer },
  {
    name: 'buyerRequests.list',
    call: (api) => api.buyerRequests.list({ status: 'open', cardName: 'Pikachu & co', limit: 2 }),
    route: 'GET /api/v1/buyer-requests',
    url: '/api/v1/buyer-requests?status=open&cardName=Pikachu+%26+co&limit=2',
    list: 'data',
  },
  { name: 'buyerRequests.retrieve', call: (api) => api.buyerRequests.retrieve(ID), route: 'GET /api/v1/buyer-requests/{id}', url: `/api/v1/buyer-requests/${ID_ENC}` },
  {
    name: 'buyerRequests.update',
    call: (api) => api.buyerRequests.update(ID, { maxPrice: 400, buyer: null }),
    route: 'PATCH /api/v1/buyer-requests/{id}',
    url: `/api/v1/buyer-requests/${ID_ENC}`,
    body: { maxPrice: 400, buyer: null },
  },
  {
    name: 'buyerRequests.archive',
    call: (api) => api.buyerRequests.archive(ID, { reason: 'bought elsewhere' }),
    route: 'POST /api/v1/buyer-requests/{id}/archive',
    url: `/api/v1/buyer-requests/${ID_ENC}/archive`,
    body: { reason: 'bought elsewhere' },
  },
  {
    name: 'buyerRequests.listMatches',
    call: (api) => api.buyerRequests.listMatches(ID, { limit: 5 }),
    route: 'GET /api/v1/buyer-requests/{id}/matches',
    url: `/api/v1/buyer-requests/${ID_ENC}/matches?limit=5`,
    list: 'data',
  },
  // inventory
  { name: 'inventory.create', call: (api) => api.inventory.create(item), route: 'POST /api/v1/inventory', url: '/api/v1/inventory', body: item },
  {
    name: 'inventory.list',
    call: (api) => api.inventory.list({ status: 'available', minPrice: '10', maxPrice: '99.50', currency: 'EUR' }),
    route: 'GET /api/v1/inventory',
    url: '/api/v1/inventory?status=available&minPrice=10&maxPrice=99.50&currency=EUR',
    list: 'data',
  },
  { name: 'inventory.retrieve', call: (api) => api.inventory.retrieve('inv_1'), route: 'GET /api/v1/inventory/{id}', url: '/api/v1/inventory/inv_1' },
  {
    name: 'inventory.update',
    call: (api) => api.inventory.update('inv_1', { price: 280, notes: null }),
    route: 'PATCH /api/v1/inventory/{id}',
    url: '/api/v1/inventory/inv_1',
    body: { price: 280, notes: null },
  },
  { name: 'inventory.delete', call: (api) => api.inventory.delete('inv_1'), route: 'DELETE /api/v1/inventory/{id}', url: '/api/v1/inventory/inv_1' },
  // matchPacks
  {
    name: 'matchPacks.list',
    call: (api) => api.matchPacks.list({ buyerRequestId: 'br_1' }),
    route: 'GET /api/v1/match-packs',
    url: '/api/v1/match-packs?buyerRequestId=br_1',
    list: 'data',
  },
  { name: 'matchPacks.retrieve', call: (api) => api.matchPacks.retrieve('mp_1'), route: 'GET /api/v1/match-packs/{id}', url: '/api/v1/match-packs/mp_1' },
  {
    name: 'matchPacks.run',
    call: (api) => api.matchPacks.run({ buyerRequestId: 'br_1' }),
    route: 'POST /api/v1/match-runs',
    url: '/api/v1/match-runs',
    body: { buyerRequestId: 'br_1' },
  },
  // secureTrades
  {
    name: 'secureTrades.create',
    call: (api) => api.secureTrades.create({ matchId: 'm_1', quantity: 1 }),
    route: 'POST /api/v1/trades',
    url: '/api/v1/trades',
    body: { matchId: 'm_1', quantity: 1 },
  },
  {
    name: 'secureTrades.list',
    call: (api) => api.secureTrades.list({ status: 'paid', createdFrom: '2026-01-01T00:00:00.000Z' }),
    route: 'GET /api/v1/trades',
    url: '/api/v1/trades?status=paid&createdFrom=2026-01-01T00%3A00%3A00.000Z',
    list: 'data',
  },
  { name: 'secureTrades.retrieve', call: (api) => api.secureTrades.retrieve(ID), route: 'GET /api/v1/trades/{id}', url: `/api/v1/trades/${ID_ENC}` },
  {
    name: 'secureTrades.transition',
    call: (api) => api.secureTrades.transition('trd_1', { to: 'shipped', carrier: 'UPS', trackingNumber: '1Z' }),
    route: 'POST /api/v1/trades/{id}/transitions',
    url: '/api/v1/trades/trd_1/transitions',
    body: { to: 'shipped', carrier: 'UPS', trackingNumber: '1Z' },
  },
  // offers
  {
    name: 'offers.create',
    call: (api) => api.offers.create({ inventoryItemId: 'inv_1', amount: 250, from: 'buyer' }),
    route: 'POST /api/v1/offers',
    url: '/api/v1/offers',
    body: { inventoryItemId: 'inv_1', amount: 250, from: 'buyer' },
  },
  {
    name: 'offers.list',
    call: (api) => api.offers.list({ threadId: 'thr_1', status: 'pending' }),
    route: 'GET /api/v1/offers',
    url: '/api/v1/offers?threadId=thr_1&status=pending',
    list: 'data',
  },
  { name: 'offers.retrieve', call: (api) => api.offers.retrieve('ofr_1'), route: 'GET /api/v1/offers/{id}', url: '/api/v1/offers/ofr_1' },
  {
    name: 'offers.accept',
    call: (api) => api.offers.accept('ofr_1', { party: 'seller' }),
    route: 'POST /api/v1/offers/{id}/accept',
    url: '/api/v1/offers/ofr_1/accept',
    body: { party: 'seller' },
  },
  {
    name: 'offers.counter',
    call: (api) => api.offers.counter('ofr_1', { amount: 280, message: 'meet me halfway' }),
    route: 'POST /api/v1/offers/{id}/counter',
    url: '/api/v1/offers/ofr_1/counter',
    body: { amount: 280, message: 'meet me halfway' },
  },
  { name: 'offers.reject', call: (api) => api.offers.reject('ofr_1'), route: 'POST /api/v1/offers/{id}/reject', url: '/api/v1/offers/ofr_1/reject' },
  // holds
  {
    name: 'holds.create',
    call: (api) => api.holds.create({ inventoryItemId: 'inv_1', depositAmount: 20, expiresAt: '2026-12-01T00:00:00.000Z' }),
    route: 'POST /api/v1/holds',
    url: '/api/v1/holds',
    body: { inventoryItemId: 'inv_1', depositAmount: 20, expiresAt: '2026-12-01T00:00:00.000Z' },
  },
  { name: 'holds.list', call: (api) => api.holds.list({ status: 'active' }), route: 'GET /api/v1/holds', url: '/api/v1/holds?status=active', list: 'data' },
  { name: 'holds.retrieve', call: (api) => api.holds.retrieve('hld_1'), route: 'GET /api/v1/holds/{id}', url: '/api/v1/holds/hld_1' },
  {
    name: 'holds.payDeposit',
    call: (api) => api.holds.payDeposit('hld_1', { reference: 'pi_123' }),
    route: 'POST /api/v1/holds/{id}/deposit',
    url: '/api/v1/holds/hld_1/deposit',
    body: { reference: 'pi_123' },
  },
  { name: 'holds.convert', call: (api) => api.holds.convert('hld_1'), route: 'POST /api/v1/holds/{id}/convert', url: '/api/v1/holds/hld_1/convert' },
  {
    name: 'holds.release',
    call: (api) => api.holds.release('hld_1', { reason: 'changed mind' }),
    route: 'POST /api/v1/holds/{id}/release',
    url: '/api/v1/holds/hld_1/release',
    body: { reason: 'changed mind' },
  },
  // liveSessions
  {
    name: 'liveSessions.create',
    call: (api) => api.liveSessions.create({ title: 'Friday break', settlement: 'hold' }),
    route: 'POST /api/v1/live-sessions',
    url: '/api/v1/live-sessions',
    body: { title: 'Friday break', settlement: 'hold' },
  },
  {
    name: 'liveSessions.list',
    call: (api) => api.liveSessions.list({ status: 'live' }),
    route: 'GET /api/v1/live-sessions',
    url: '/api/v1/live-sessions?status=live',
    list: 'data',
  },
  { name: 'liveSessions.retrieve', call: (api) => api.liveSessions.retrieve('ls_1'), route: 'GET /api/v1/live-sessions/{id}', url: '/api/v1/live-sessions/ls_1' },
  { name: 'liveSessions.start', call: (api) => api.liveSessions.start('ls_1'), route: 'POST /api/v1/live-sessions/{id}/start', url: '/api/v1/live-sessions/ls_1/start' },
  { name: 'liveSessions.end', call: (api) => api.liveSessions.end('ls_1'), route: 'POST /api/v1/live-sessions/{id}/end', url: '/api/v1/live-sessions/ls_1/end' },
  {
    name: 'liveSessions.addLot',
    call: (api) => api.liveSessions.addLot('ls_1', { inventoryItemId: 'inv_1', startingPrice: 10, increment: 1 }),
    route: 'POST /api/v1/live-sessions/{id}/lots',
    url: '/api/v1/live-sessions/ls_1/lots',
    body: { inventoryItemId: 'inv_1', startingPrice: 10, increment: 1 },
  },
  {
    name: 'liveSessions.listLots',
    call: (api) => api.liveSessions.listLots('ls_1', { status: 'open' }),
    route: 'GET /api/v1/live-sessions/{id}/lots',
    url: '/api/v1/live-sessions/ls_1/lots?status=open',
    list: 'data',
  },
  {
    name: 'liveSessions.retrieveLot',
    call: (api) => api.liveSessions.retrieveLot(ID, LOT),
    route: 'GET /api/v1/live-sessions/{id}/lots/{lotId}',
    url: `/api/v1/live-sessions/${ID_ENC}/lots/${LOT_ENC}`,
  },
  {
    name: 'liveSessions.openLot',
    call: (api) => api.liveSessions.openLot('ls_1', LOT),
    route: 'POST /api/v1/live-sessions/{id}/lots/{lotId}/open',
    url: `/api/v1/live-sessions/ls_1/lots/${LOT_ENC}/open`,
  },
  {
    name: 'liveSessions.closeLot',
    call: (api) => api.liveSessions.closeLot('ls_1', LOT),
    route: 'POST /api/v1/live-sessions/{id}/lots/{lotId}/close',
    url: `/api/v1/live-sessions/ls_1/lots/${LOT_ENC}/close`,
  },
  {
    name: 'liveSessions.placeReserve',
    call: (api) => api.liveSessions.placeReserve('ls_1', 'lot_1', { amount: 12, buyer: { externalId: 'viewer-7' } }),
    route: 'POST /api/v1/live-sessions/{id}/lots/{lotId}/reserves',
    url: '/api/v1/live-sessions/ls_1/lots/lot_1/reserves',
    body: { amount: 12, buyer: { externalId: 'viewer-7' } },
  },
  {
    name: 'liveSessions.listReserves',
    call: (api) => api.liveSessions.listReserves('ls_1', 'lot_1', { limit: 100 }),
    route: 'GET /api/v1/live-sessions/{id}/lots/{lotId}/reserves',
    url: '/api/v1/live-sessions/ls_1/lots/lot_1/reserves?limit=100',
    list: 'data',
  },
  // webhooks
  {
    name: 'webhooks.create',
    call: (api) => api.webhooks.create({ url: 'https://hooks.example.com/x', events: ['trade.completed'] }),
    route: 'POST /api/v1/webhooks',
    url: '/api/v1/webhooks',
    body: { url: 'https://hooks.example.com/x', events: ['trade.completed'] },
  },
  { name: 'webhooks.list', call: (api) => api.webhooks.list(), route: 'GET /api/v1/webhooks', url: '/api/v1/webhooks', list: 'data' },
  { name: 'webhooks.retrieve', call: (api) => api.webhooks.retrieve('wh_1'), route: 'GET /api/v1/webhooks/{id}', url: '/api/v1/webhooks/wh_1' },
  {
    name: 'webhooks.update',
    call: (api) => api.webhooks.update('wh_1', { enabled: true, description: null }),
    route: 'PATCH /api/v1/webhooks/{id}',
    url: '/api/v1/webhooks/wh_1',
    body: { enabled: true, description: null },
  },
  { name: 'webhooks.delete', call: (api) => api.webhooks.delete('wh_1'), route: 'DELETE /api/v1/webhooks/{id}', url: '/api/v1/webhooks/wh_1' },
  { name: 'webhooks.test', call: (api) => api.webhooks.test('wh_1'), route: 'POST /api/v1/webhooks/{id}/test', url: '/api/v1/webhooks/wh_1/test' },
  {
    name: 'webhooks.rotateSecret',
    call: (api) => api.webhooks.rotateSecret('wh_1'),
    route: 'POST /api/v1/webhooks/{id}/rotate-secret',
    url: '/api/v1/webhooks/wh_1/rotate-secret',
  },
  {
    name: 'webhooks.replay',
    call: (api) => api.webhooks.replay('wh_1', { types: ['trade.paid'], from: '2026-01-01T00:00:00.000Z' }),
    route: 'POST /api/v1/webhooks/{id}/replay',
    url: '/api/v1/webhooks/wh_1/replay',
    body: { types: ['trade.paid'], from: '2026-01-01T00:00:00.000Z' },
  },
  {
    name: 'webhooks.listDeliveries',
    call: (api) => api.webhooks.listDeliveries('wh_1', { status: 'failed', eventType: 'trade.paid' }),
    route: 'GET /api/v1/webhooks/{id}/deliveries',
    url: '/api/v1/webhooks/wh_1/deliveries?status=failed&eventType=trade.paid',
    list: 'data',
  },
  {
    name: 'webhooks.retrieveDelivery',
    call: (api) => api.webhooks.retrieveDelivery('wh_1', 'dlv 9'),
    route: 'GET /api/v1/webhooks/{id}/deliveries/{deliveryId}',
    url: '/api/v1/webhooks/wh_1/deliveries/dlv%209',
  },
  // automations
  {
    name: 'automations.create',
    call: (api) => api.automations.create({ name: 'auto-accept', trigger, action: { type: 'accept_offer', params: { minPercentOfList: 90 } } }),
    route: 'POST /api/v1/automations',
    url: '/api/v1/automations',
    body: { name: 'auto-accept', trigger, action: { type: 'accept_offer', params: { minPercentOfList: 90 } } },
  },
  { name: 'automations.list', call: (api) => api.automations.list({ limit: 10 }), route: 'GET /api/v1/automations', url: '/api/v1/automations?limit=10', list: 'data' },
  { name: 'automations.retrieve', call: (api) => api.automations.retrieve('au_1'), route: 'GET /api/v1/automations/{id}', url: '/api/v1/automations/au_1' },
  {
    name: 'automations.update',
    call: (api) => api.automations.update('au_1', { enabled: false }),
    route: 'PATCH /api/v1/automations/{id}',
    url: '/api/v1/automations/au_1',
    body: { enabled: false },
  },
  { name: 'automations.delete', call: (api) => api.automations.delete('au_1'), route: 'DELETE /api/v1/automations/{id}', url: '/api/v1/automations/au_1' },
  {
    name: 'automations.test',
    call: (api) => api.automations.test('au_1', { eventId: 'evt_1' }),
    route: 'POST /api/v1/automations/{id}/test',
    url: '/api/v1/automations/au_1/test',
    body: { eventId: 'evt_1' },
  },
  {
    name: 'automations.listRuns',
    call: (api) => api.automations.listRuns('au_1'),
    route: 'GET /api/v1/automations/{id}/runs',
    url: '/api/v1/automations/au_1/runs',
    list: 'data',
  },
  // tradeGraph
  {
    name: 'tradeGraph.summary',
    call: (api) => api.tradeGraph.summary({ windowDays: 30, groupBy: 'set' }),
    route: 'GET /api/v1/tradegraph/summary',
    url: '/api/v1/tradegraph/summary?windowDays=30&groupBy=set',
    list: 'clusters',
  },
  {
    name: 'tradeGraph.supply',
    call: (api) => api.tradeGraph.supply({ staleDays: 45 }),
    route: 'GET /api/v1/tradegraph/supply',
    url: '/api/v1/tradegraph/supply?staleDays=45',
    list: 'cards',
  },
  {
    name: 'tradeGraph.pricing',
    call: (api) => api.tradeGraph.pricing({ card: 'Charizard', condition: 'NM' }),
    route: 'GET /api/v1/tradegraph/pricing',
    url: '/api/v1/tradegraph/pricing?card=Charizard&condition=NM',
    list: 'cards',
  },
  {
    name: 'tradeGraph.routing',
    call: (api) => api.tradeGraph.routing({ inventoryItemId: 'inv_1' }),
    route: 'GET /api/v1/tradegraph/routing',
    url: '/api/v1/tradegraph/routing?inventoryItemId=inv_1',
    list: 'items',
  },
  // ingestion
  {
    name: 'ingestion.createSession',
    call: (api) => api.ingestion.createSession({ name: 'Spring show', defaultCurrency: 'USD' }),
    route: 'POST /api/v1/ingestion/sessions',
    url: '/api/v1/ingestion/sessions',
    body: { name: 'Spring show', defaultCurrency: 'USD' },
  },
  {
    name: 'ingestion.listSessions',
    call: (api) => api.ingestion.listSessions(),
    route: 'GET /api/v1/ingestion/sessions',
    url: '/api/v1/ingestion/sessions',
    list: 'data',
  },
  {
    name: 'ingestion.retrieveSession',
    call: (api) => api.ingestion.retrieveSession('ing_1'),
    route: 'GET /api/v1/ingestion/sessions/{id}',
    url: '/api/v1/ingestion/sessions/ing_1',
  },
  {
    name: 'ingestion.addItems',
    call: (api) => api.ingestion.addItems('ing_1', [{ card: 'Pikachu', set: 'Base Set', condition: 'NM', price: 12, qty: 2 }]),
    route: 'POST /api/v1/ingestion/sessions/{id}/items',
    url: '/api/v1/ingestion/sessions/ing_1/items',
    body: [{ card: 'Pikachu', set: 'Base Set', condition: 'NM', price: 12, qty: 2 }],
  },
  {
    name: 'ingestion.push',
    call: (api) => api.ingestion.push('ing_1'),
    route: 'POST /api/v1/ingestion/sessions/{id}/push',
    url: '/api/v1/ingestion/sessions/ing_1/push',
  },
  {
    name: 'ingestion.listRows',
    call: (api) => api.ingestion.listRows('ing_1', { status: 'error' }),
    route: 'GET /api/v1/ingestion/sessions/{id}/rows',
    url: '/api/v1/ingestion/sessions/ing_1/rows?status=error',
    list: 'data',
  },
  // trust
  {
    name: 'trust.credential',
    call: (api) => api.trust.credential('acme-cards', { proof: 'data-integrity' }),
    route: 'GET /api/v1/trust/credential/{slug}',
    url: '/api/v1/trust/credential/acme-cards?proof=data-integrity',
  },
  {
    name: 'trust.inputs',
    call: (api) => api.trust.inputs('acme cards'),
    route: 'GET /api/v1/trust/credential/{slug}/inputs',
    url: '/api/v1/trust/credential/acme%20cards/inputs',
  },
  { name: 'trust.publicKey', call: (api) => api.trust.publicKey(), route: 'GET /api/v1/trust/public-key', url: '/api/v1/trust/public-key' },
  { name: 'trust.statusList', call: (api) => api.trust.statusList('ws_1'), route: 'GET /api/v1/trust/status/{listId}', url: '/api/v1/trust/status/ws_1' },
  { name: 'trust.verify', call: (api) => api.trust.verify({ credential }), route: 'POST /api/v1/trust/verify', url: '/api/v1/trust/verify', body: { credential } },
  { name: 'trust.score', call: (api) => api.trust.score(), route: 'GET /api/v1/trust/score', url: '/api/v1/trust/score' },
  {
    name: 'trust.listScans',
    call: (api) => api.trust.listScans({ from: '2026-01-01', to: '2026-01-31' }),
    route: 'GET /api/v1/trust/scans',
    url: '/api/v1/trust/scans?from=2026-01-01&to=2026-01-31',
  },
  {
    name: 'trust.revoke',
    call: (api) => api.trust.revoke({ reason: 'key leaked' }),
    route: 'POST /api/v1/trust/credential/revoke',
    url: '/api/v1/trust/credential/revoke',
    body: { reason: 'key leaked' },
  },
  { name: 'trust.reinstate', call: (api) => api.trust.reinstate(), route: 'POST /api/v1/trust/credential/reinstate', url: '/api/v1/trust/credential/reinstate' },
  // events, apiKeys, eventTypes
  {
    name: 'events.list',
    call: (api) => api.events.list({ type: 'trade.paid', from: '2026-01-01T00:00:00Z' }),
    route: 'GET /api/v1/events',
    url: '/api/v1/events?type=trade.paid&from=2026-01-01T00%3A00%3A00Z',
    list: 'data',
  },
  {
    name: 'apiKeys.create',
    call: (api) => api.apiKeys.create({ name: 'ci', scopes: ['read:trades', 'write:trades'] }),
    route: 'POST /api/v1/api-keys',
    url: '/api/v1/api-keys',
    body: { name: 'ci', scopes: ['read:trades', 'write:trades'] },
  },
  { name: 'apiKeys.list', call: (api) => api.apiKeys.list(), route: 'GET /api/v1/api-keys', url: '/api/v1/api-keys', list: 'data' },
  { name: 'apiKeys.retrieve', call: (api) => api.apiKeys.retrieve('key_1'), route: 'GET /api/v1/api-keys/{id}', url: '/api/v1/api-keys/key_1' },
  { name: 'apiKeys.revoke', call: (api) => api.apiKeys.revoke('key_1'), route: 'DELETE /api/v1/api-keys/{id}', url: '/api/v1/api-keys/key_1' },
  { name: 'eventTypes.list', call: (api) => api.eventTypes.list(), route: 'GET /api/v1/event-types', url: '/api/v1/event-types' },
  // buyers, widget
  {
    name: 'buyers.erasePersonalData',
    call: (api) => api.buyers.erasePersonalData('buyer_abc'),
    route: 'DELETE /api/v1/buyers/{id}/personal-data',
    url: '/api/v1/buyers/buyer_abc/personal-data',
  },
  { name: 'widget.retrieveSettings', call: (api) => api.widget.retrieveSettings(), route: 'GET /api/v1/widget/settings', url: '/api/v1/widget/settings' },
  {
    name: 'widget.updateSettings',
    call: (api) => api.widget.updateSettings({ allowedOrigins: ['https://shop.example'] }),
    route: 'PUT /api/v1/widget/settings',
    url: '/api/v1/widget/settings',
    body: { allowedOrigins: ['https://shop.example'] },
  },
  {
    name: 'widget.availability',
    call: (api) => api.widget.availability('acme'),
    route: 'GET /api/v1/public/sellers/{slug}/widget',
    url: '/api/v1/public/sellers/acme/widget',
  },
  {
    name: 'widget.cardSuggestions',
    call: (api) => api.widget.cardSuggestions('acme', { q: 'chari zard' }),
    route: 'GET /api/v1/public/sellers/{slug}/card-suggestions',
    url: '/api/v1/public/sellers/acme/card-suggestions?q=chari+zard',
  },
  {
    name: 'widget.resolveWantList',
    call: (api) => api.widget.resolveWantList('acme', { text: '4 Charizard Base NM\nPikachu (Jungle) LP $12' }),
    route: 'POST /api/v1/public/sellers/{slug}/want-list/resolve',
    url: '/api/v1/public/sellers/acme/want-list/resolve',
    body: { text: '4 Charizard Base NM\nPikachu (Jungle) LP $12' },
  },
  {
    name: 'widget.submitWantList',
    call: (api) => api.widget.submitWantList('acme', { items: [{ cardName: 'Charizard', setName: 'Base', condition: 'NM', maxPrice: 450 }], email: 'sam@example.com' }),
    route: 'POST /api/v1/public/sellers/{slug}/want-list',
    url: '/api/v1/public/sellers/acme/want-list',
    body: { items: [{ cardName: 'Charizard', setName: 'Base', condition: 'NM', maxPrice: 450 }], email: 'sam@example.com' },
  },
  {
    name: 'widget.retrieveNotificationSettings',
    call: (api) => api.widget.retrieveNotificationSettings(),
    route: 'GET /api/v1/widget/settings/notifications',
    url: '/api/v1/widget/settings/notifications',
  },
  {
    name: 'widget.updateNotificationSettings',
    call: (api) => api.widget.updateNotificationSettings({ enabled: true, shopName: 'Acme', replyTo: null, shopUrl: 'https://shop.example' }),
    route: 'PUT /api/v1/widget/settings/notifications',
    url: '/api/v1/widget/settings/notifications',
    body: { enabled: true, shopName: 'Acme', replyTo: null, shopUrl: 'https://shop.example' },
  },
  // notifications
  {
    name: 'notifications.list',
    call: (api) => api.notifications.list({ buyerId: 'buyer_aaaaaaaaaaaaaaaaaaaaaaaaaa' }),
    route: 'GET /api/v1/notifications',
    url: '/api/v1/notifications?buyerId=buyer_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    list: 'data',
  },
  { name: 'notifications.preview', call: (api) => api.notifications.preview(), route: 'GET /api/v1/notifications/preview', url: '/api/v1/notifications/preview' },
  { name: 'notifications.outbox', call: (api) => api.notifications.outbox(), route: 'GET /api/v1/notifications/outbox', url: '/api/v1/notifications/outbox' },
  {
    name: 'notifications.outboxMessage',
    call: (api) => api.notifications.outboxMessage('ntf_1'),
    route: 'GET /api/v1/notifications/outbox/{id}',
    url: '/api/v1/notifications/outbox/ntf_1',
  },
  // the client itself
  { name: 'health', call: (api) => api.health(), route: 'GET /api/v1/health', url: '/api/v1/health' },
  { name: 'readiness', call: (api) => api.readiness(), route: 'GET /api/v1/health/ready', url: '/api/v1/health/ready' },
  { name: 'openApiDocument', call: (api) => api.openApiDocument(), route: 'GET /api/v1/openapi.json', url: '/api/v1/openapi.json' },
];

/** A CSV body goes to the same route as the JSON rows, as text/csv. */
const CSV = 'card,set,condition,price\nPikachu,Base Set,NM,12\n';

/** Every route of the generated OpenAPI types under /api/v1, as `METHOD /path`. */
function documentedRoutes(): string[] {
  const source = readFileSync(join(__dirname, 'generated/openapi.ts'), 'utf8');
  const paths = source.slice(source.indexOf('export interface paths {'), source.indexOf('export type webhooks'));
  const routes: string[] = [];
  let current = '';
  for (const line of paths.split('\n')) {
    const path = /^ {4}"([^"]+)": \{$/.exec(line);
    if (path) current = path[1];
    const method = /^ {8}(get|put|post|delete|patch): operations\[/.exec(line);
    if (method && current.startsWith('/api/v1/')) routes.push(`${method[1].toUpperCase()} ${current}`);
  }
  return routes;
}

/** The public methods of each group of a client: `group.method`. */
function groupMethods(api: CommerceClient): string[] {
  return Object.entries(api)
    .filter(([, value]) => value instanceof Resource)
    .flatMap(([group, value]) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(value) as object)
        .filter((name) => name !== 'constructor')
        .map((name) => `${group}.${name}`),
    );
}

/** Methods that make no request: the webhook receiver's checks and the trust URLs (tested below). */
const NOT_ROUTES = [
  'webhooks.verifySignature',
  'webhooks.verifyStandardSignature',
  'webhooks.parseEvent',
  'trust.badgeUrl',
  'trust.qrCodeUrl',
  'trust.scanUrl',
  'trust.verifyPageUrl',
  'widget.scriptUrl',
];

describe('CommerceClient: every route, one method', () => {
  it('maps every documented route of /api/v1 to exactly one method', () => {
    const routes = documentedRoutes();
    expect(routes.length).toBeGreaterThan(80);
    const mapped = ROWS.map((row) => row.route);
    expect(new Set(mapped).size).toBe(mapped.length);
    expect([...mapped].sort()).toEqual([...routes].sort());
  });

  it('has every method of every group in the table', () => {
    const { api } = fakeApi();
    const groups = Object.entries(api).filter(([, value]) => value instanceof Resource).map(([name]) => name);
    expect(groups.sort()).toEqual(
      [
        'buyerRequests',
        'inventory',
        'matchPacks',
        'secureTrades',
        'offers',
        'holds',
        'liveSessions',
        'webhooks',
        'automations',
        'tradeGraph',
        'ingestion',
        'trust',
        'events',
        'apiKeys',
        'eventTypes',
        'buyers',
        'widget',
        'notifications',
      ].sort(),
    );
    const tested = ROWS.map((row) => row.name).filter((name) => name.includes('.'));
    expect(groupMethods(api).filter((name) => !NOT_ROUTES.includes(name)).sort()).toEqual([...tested].sort());
  });

  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const { api, sent } = fakeApi((request) =>
      request.url.pathname.endsWith('/inputs') || request.url.pathname.includes('/outbox/') ? { text: '{"rows":[]}', contentType: 'application/json; charset=utf-8' } : { json: ANY_ANSWER },
    );
    await row.call(api);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    const [method, template] = row.route.split(' ');
    expect(request.method).toBe(method);
    expect(request.url.origin).toBe('https://api.example.test');
    expect(`${request.url.pathname}${request.url.search}`).toBe(row.url);
    // The path is the route's template, filled.
    expect(request.url.pathname).toMatch(new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`));
    expect(request.body === undefined ? undefined : JSON.parse(request.body)).toEqual(row.body);
    expect(request.headers.get('content-type')).toBe(row.body === undefined ? null : 'application/json');
    expect(request.headers.get('authorization')).toBe('Bearer sk_test_1');
    // Every write carries an Idempotency-Key; reads none.
    expect(request.headers.has('idempotency-key')).toBe(method !== 'GET');
  });

  it('sends CSV rows as text/csv to the same route', async () => {
    const { api, sent } = fakeApi();
    await api.ingestion.addItems('ing_1', CSV);
    expect(sent[0].method).toBe('POST');
    expect(sent[0].url.pathname).toBe('/api/v1/ingestion/sessions/ing_1/items');
    expect(sent[0].headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(sent[0].body).toBe(CSV);
  });

  it('passes the request options through: idempotency key, headers, retries, signal', async () => {
    const { api, sent } = fakeApi((_request, index) => (index === 0 ? { status: 503, json: { code: 'UNAVAILABLE', message: 'busy' } } : { json: ANY_ANSWER }), {
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    const controller = new AbortController();
    await api.secureTrades.transition('trd_1', { to: 'paid' }, { idempotencyKey: 'order-42-paid', headers: { 'X-Trace': 't1' }, maxRetries: 1, signal: controller.signal });
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.headers.get('idempotency-key')).toBe('order-42-paid');
      expect(request.headers.get('x-trace')).toBe('t1');
    }
    controller.abort();
    await expect(api.secureTrades.retrieve('trd_1', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers the JSON of the route, and throws its typed error', async () => {
    const trade = { id: 'trd_1', status: 'paid' };
    const { api } = fakeApi((request) =>
      request.url.pathname.endsWith('/trd_1') ? { json: trade } : { status: 404, json: { code: 'NOT_FOUND', message: 'No such trade' } },
    );
    await expect(api.secureTrades.retrieve('trd_1')).resolves.toEqual(trade);
    await expect(api.secureTrades.retrieve('trd_2')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a path parameter that would call another route', () => {
    const { api, sent } = fakeApi();
    expect(() => api.secureTrades.retrieve('..')).toThrow(TypeError);
    expect(() => api.secureTrades.retrieve('')).toThrow(TypeError);
    expect(() => api.liveSessions.retrieveLot('ls_1', undefined as unknown as string)).toThrow(/Missing the path parameter "lotId"/);
    expect(sent).toHaveLength(0);
  });

  it('reads trust inputs as text, byte for byte', async () => {
    const inputs = '{"issuer":"x","rows":[{"amount":1.50}]}';
    const { api } = fakeApi(() => ({ text: inputs, contentType: 'application/json; charset=utf-8' }));
    await expect(api.trust.inputs('acme')).resolves.toBe(inputs);
  });

  it('does not retry readiness unless asked', async () => {
    const notReady = { status: 503, json: { code: 'NOT_READY', message: 'not ready', details: { checks: { eventStore: 'unavailable', readStore: 'ok' } } } };
    const { api, sent } = fakeApi(() => notReady, { maxRetries: 2, retry: { baseDelayMs: 0, maxDelayMs: 0 } });
    await expect(api.readiness()).rejects.toMatchObject({ status: 503, code: 'NOT_READY' });
    expect(sent).toHaveLength(1);
    await expect(api.readiness({ maxRetries: 1 })).rejects.toMatchObject({ code: 'NOT_READY' });
    expect(sent).toHaveLength(3);
  });
});

describe('lists: a page awaited, every item iterated, pages fetched lazily', () => {
  const lists = ROWS.filter((row) => row.list !== undefined);

  it.each(lists.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const field = row.list as ListField;
    const { api, sent } = fakeApi((request) =>
      request.url.searchParams.get('cursor') === 'next/2'
        ? { json: { [field]: [{ n: 3 }], nextCursor: null } }
        : { json: { [field]: [{ n: 1 }, { n: 2 }], nextCursor: 'next/2' } },
    );
    const listed = row.call(api);
    expect(listed).toBeInstanceOf(field === 'data' ? PagePromise : ReportPromise);
    // Nothing is fetched until the list is used.
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(0);

    const seen: Array<{ n: number; requests: number }> = [];
    for await (const element of listed as unknown as AsyncIterable<{ n: number }>) seen.push({ n: element.n, requests: sent.length });
    expect(seen).toEqual([
      { n: 1, requests: 1 },
      { n: 2, requests: 1 },
      { n: 3, requests: 2 },
    ]);
    // The second page: the same route and filters, and the cursor.
    const [first, second] = sent.map((request) => request.url);
    expect(second.pathname).toBe(first.pathname);
    expect(second.searchParams.get('cursor')).toBe('next/2');
    second.searchParams.delete('cursor');
    expect(second.search).toBe(first.search);
  });

  it('a list awaited is its first page', async () => {
    const trades = [{ id: 'trd_1' }, { id: 'trd_2' }];
    const { api, sent } = fakeApi(() => ({ json: { data: trades, nextCursor: 'c2' } }));
    const page = await api.secureTrades.list({ status: 'paid' });
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual(trades);
    expect(page.hasMore).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it('a tradegraph report awaited is its answer; its pages carry the whole answers', async () => {
    const answers = [
      { windowDays: 30, clusters: [{ name: 'Charizard' }], nextCursor: 'c2', tookMs: 4 },
      { windowDays: 30, clusters: [{ name: 'Pikachu' }], nextCursor: null, tookMs: 3 },
    ];
    const { api, sent } = fakeApi((request) => ({ json: request.url.searchParams.has('cursor') ? answers[1] : answers[0] }));
    await expect(api.tradeGraph.summary({ windowDays: 30 })).resolves.toEqual(answers[0]);
    expect(sent).toHaveLength(1);
    const pages: unknown[] = [];
    for await (const page of api.tradeGraph.summary({ windowDays: 30 }).pages()) pages.push(page.raw);
    expect(pages).toEqual(answers);
    expect(sent.map((request) => request.url.search)).toEqual(['?windowDays=30', '?windowDays=30', '?windowDays=30&cursor=c2']);
  });

  it('a cursor in the query is where the listing starts', async () => {
    const { api, sent } = fakeApi(() => ({ json: { data: [], nextCursor: null } }));
    await api.events.list({ cursor: 'from-here', limit: 50 });
    expect(sent[0].url.search).toBe('?cursor=from-here&limit=50');
  });

  it('single-answer lists are one page: event types, trust scans', async () => {
    const types = [{ type: 'trade.paid', description: 'x', data: {} }];
    const scans = { from: '2026-01-01', to: '2026-01-02', total: 3, data: [{ date: '2026-01-01', count: 3, badge: 2, qr: 1 }] };
    const { api, sent } = fakeApi((request) => ({ json: request.url.pathname.endsWith('/scans') ? scans : { data: types } }));
    const catalogue: unknown[] = [];
    for await (const type of api.eventTypes.list()) catalogue.push(type);
    expect(catalogue).toEqual(types);
    const page = await api.trust.listScans();
    expect(page.items).toEqual(scans.data);
    expect(page.hasMore).toBe(false);
    expect(page.raw).toEqual(scans);
    expect(sent).toHaveLength(2);
  });

  it('an error of a later page is thrown by the loop', async () => {
    const { api } = fakeApi((request) =>
      request.url.searchParams.has('cursor')
        ? { status: 400, json: { code: 'VALIDATION_FAILED', message: 'bad cursor', details: { issues: [{ path: 'cursor', message: 'unknown' }] } } }
        : { json: { data: [{ id: 1 }], nextCursor: 'c2' } },
    );
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const hold of api.holds.list()) seen.push(hold);
      })(),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(seen).toEqual([{ id: 1 }]);
  });
});

describe('trust URLs (built, not fetched)', () => {
  it.each([
    ['https://api.example.test', 'https://api.example.test'],
    ['https://api.example.test/', 'https://api.example.test'],
    ['https://example.test/commerce/api/v1', 'https://example.test/commerce'],
    ['https://example.test/commerce/', 'https://example.test/commerce'],
  ])('from %s', (baseUrl, site) => {
    const { api, sent } = fakeApi(undefined, { baseUrl });
    expect(api.trust.badgeUrl('acme cards', { theme: 'dark' })).toBe(`${site}/api/embed/trust-badge/acme%20cards?theme=dark`);
    expect(api.trust.badgeUrl('acme')).toBe(`${site}/api/embed/trust-badge/acme`);
    expect(api.trust.qrCodeUrl('acme')).toBe(`${site}/api/embed/trust-qr/acme`);
    expect(api.trust.scanUrl('acme', { via: 'qr' })).toBe(`${site}/api/embed/trust-scan/acme?via=qr`);
    expect(api.trust.verifyPageUrl('acme/../x')).toBe(`${site}/verify/acme%2F..%2Fx`);
    expect(api.widget.scriptUrl()).toBe(`${site}/widget.js`);
    expect(sent).toHaveLength(0);
  });
});

describe('CommerceClient options', () => {
  const fetch: FetchLike = async () => new Response('{}');

  it.each<[string, unknown, RegExp]>([
    ['no options', undefined, /pass the options/],
    ['no baseUrl', { apiKey: 'k', fetch }, /baseUrl is required/],
    ['an empty baseUrl', { apiKey: 'k', baseUrl: '', fetch }, /baseUrl is required/],
    ['a relative baseUrl', { baseUrl: '/api', fetch }, /not an absolute URL/],
    ['a baseUrl of another scheme', { baseUrl: 'ftp://x.test', fetch }, /http or https/],
    ['a baseUrl with a query', { baseUrl: 'https://x.test/?a=1', fetch }, /no query or fragment/],
    ['a baseUrl with credentials', { baseUrl: 'https://u:p@x.test', fetch }, /no credentials/],
    ['an empty apiKey', { apiKey: ' ', baseUrl: 'https://x.test', fetch }, /apiKey must be a non-empty string/],
    ['a negative timeout', { baseUrl: 'https://x.test', timeoutMs: -1, fetch }, /timeoutMs must be a positive number/],
    ['a fractional maxRetries', { baseUrl: 'https://x.test', maxRetries: 1.5, fetch }, /maxRetries must be a whole number/],
    ['a fetch that is not a function', { baseUrl: 'https://x.test', fetch: 'fetch' }, /fetch must be a function/],
    ['a misspelt option', { baseUrl: 'https://x.test', timeout: 5, fetch }, /unknown option "timeout"/],
    ['a misspelt retry option', { baseUrl: 'https://x.test', retry: { base: 1 }, fetch }, /unknown retry option "base"/],
    ['a negative retry delay', { baseUrl: 'https://x.test', retry: { maxDelayMs: -5 }, fetch }, /retry.maxDelayMs/],
  ])('refuses %s', (_case, options, message) => {
    expect(() => new CommerceClient(options as CommerceClientOptions)).toThrow(message);
  });

  it('accepts the documented options, and no apiKey for the public routes', async () => {
    expect(() => new CommerceClient({ apiKey: 'k', baseUrl: 'http://localhost:3000', timeoutMs: 5000, maxRetries: 0, fetch, retry: { baseDelayMs: 100 } })).not.toThrow();
    const { api, sent } = fakeApi(() => ({ json: { status: 'ok' } }), { apiKey: undefined });
    await expect(api.health()).resolves.toEqual({ status: 'ok' });
    expect(sent[0].headers.has('authorization')).toBe(false);
  });

  it('uses the given timeout and retries', async () => {
    const sent: number[] = [];
    const api = new CommerceClient({
      baseUrl: 'https://x.test',
      maxRetries: 1,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      fetch: async () => {
        sent.push(Date.now());
        return new Response(JSON.stringify({ code: 'INTERNAL', message: 'boom' }), { status: 500 });
      },
    });
    await expect(api.health()).rejects.toMatchObject({ status: 500 });
    expect(sent).toHaveLength(2);
    const slow = new CommerceClient({ baseUrl: 'https://x.test', timeoutMs: 20, maxRetries: 0, fetch: () => new Promise<Response>(() => undefined) });
    await expect(slow.health()).rejects.toMatchObject({ name: 'TimeoutError', timeoutMs: 20 });
  });
});
