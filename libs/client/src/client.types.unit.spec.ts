// Type-level tests, checked by the repo's type-check (`tsc -p tsconfig.json`): each
// `@ts-expect-error` line must fail to compile — a body field the route does not take, a missing
// required field, a wrong enum value, a path or method the API does not have, a missing path
// parameter — and the other lines must compile: the answers are the route's types. Jest only
// runs the last test, which makes sure the checks stay type-only (nothing here is called).
import { CommerceClient } from './client';
import type { Answer, Body, Item } from './endpoint-types';
import { callRoute } from './resources/resource';
import type { BuyerRequest, CreatedBuyerRequest, DemandCluster, Page, Trade, TradegraphSummary, TradeStatus } from './index';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(value: T): T => value;

export async function typeChecks(api: CommerceClient): Promise<void> {
  const transport = { request: async () => ({ data: undefined as never, status: 200, headers: new Headers(), requestId: null, idempotencyKey: undefined, attempts: 1 }) };

  // Answers are the route's types.
  const created: CreatedBuyerRequest = await api.buyerRequests.create({ cardName: 'Charizard', setName: 'Base Set', condition: 'NM', maxPrice: 350 });
  const trade: Trade = await api.secureTrades.retrieve(created.id);
  const status: TradeStatus = trade.status;
  assertType<Equal<Awaited<ReturnType<CommerceClient['secureTrades']['retrieve']>>, Answer<'/api/v1/trades/{id}', 'get'>>>(true);
  assertType<Equal<Parameters<CommerceClient['buyerRequests']['create']>[0], Body<'/api/v1/buyer-requests', 'post'>>>(true);
  assertType<Equal<Item<'/api/v1/buyer-requests'>, BuyerRequest>>(true);
  for await (const paid of api.secureTrades.list({ status: 'paid' })) {
    const paidStatus: TradeStatus = paid.status;
    void paidStatus;
  }
  const page: Page<Trade> = await api.secureTrades.list();
  const summary: TradegraphSummary = await api.tradeGraph.summary({ windowDays: 30 });
  for await (const cluster of api.tradeGraph.summary()) {
    const same: DemandCluster = cluster;
    void same;
  }
  void [status, page, summary];

  // A body field the route does not take.
  // @ts-expect-error — `colour` is not a field of CreateBuyerRequest
  await api.buyerRequests.create({ cardName: 'Charizard', setName: 'Base Set', condition: 'NM', maxPrice: 350, colour: 'red' });
  // Only `cardName` is required: any printing, any condition, no price limit; `null` says the same.
  await api.buyerRequests.create({ cardName: 'Charizard' });
  await api.buyerRequests.update('br_1', { setName: null, condition: null, maxPrice: null });
  // @ts-expect-error — `cardName` is required
  await api.buyerRequests.create({ setName: 'Base Set', condition: 'NM', maxPrice: 350 });
  // @ts-expect-error — `maxPrice` is a number
  await api.buyerRequests.update('br_1', { maxPrice: '350' });
  // @ts-expect-error — not a trade status
  await api.secureTrades.transition('trd_1', { to: 'teleported' });
  // @ts-expect-error — not a status a trade is listed by
  api.secureTrades.list({ status: 'lost' });
  // @ts-expect-error — the answer is a Trade, not a BuyerRequest
  const wrongAnswer: BuyerRequest = await api.secureTrades.retrieve('trd_1');
  void wrongAnswer;

  // The typed call layer: a path or method the API does not have, a missing parameter, a body where none is taken.
  await callRoute(transport, '/api/v1/buyer-requests/{id}', 'get', { path: { id: 'br_1' } });
  // @ts-expect-error — no such route (the server's is /buyer-requests)
  await callRoute(transport, '/api/v1/buyer-request/{id}', 'get', { path: { id: 'br_1' } });
  // @ts-expect-error — match packs cannot be deleted
  await callRoute(transport, '/api/v1/match-packs/{id}', 'delete', { path: { id: 'mp_1' } });
  // @ts-expect-error — the path parameter is missing
  await callRoute(transport, '/api/v1/trades/{id}', 'get', {});
  // @ts-expect-error — the parameter is `id`, not `tradeId`
  await callRoute(transport, '/api/v1/trades/{id}', 'get', { path: { tradeId: 'trd_1' } });
  // @ts-expect-error — converting a hold takes no body
  await callRoute(transport, '/api/v1/holds/{id}/convert', 'post', { path: { id: 'hld_1' }, body: { quantity: 1 } });
  // @ts-expect-error — the embed routes are not JSON API routes
  await callRoute(transport, '/api/embed/trust-badge/{slug}', 'get', { path: { slug: 'acme' } });
}

describe('client types', () => {
  it('are checked by tsc, not run', () => {
    expect(typeof typeChecks).toBe('function');
  });
});
