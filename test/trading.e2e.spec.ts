// Trading end to end, over HTTP on the real app: a match becomes a trade and goes to settled (a
// local receiver sees the webhooks), a negotiation countered twice then accepted, a hold that
// expires and frees its unit for another buyer, the dispute window's timer, and the races: 50
// trades for the last unit, 20 moves of one trade.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, until } from './support/http';
import { WebhookReceiver } from './support/webhook-receiver';
import { ENV, envelopeOf } from './support/webhooks';

interface Trade {
  id: string;
  status: string;
  allowedTransitions: string[];
  offerId: string | null;
  amount: number;
  timeline?: Array<{ status: string; by: string }>;
  buyer: { externalId: string | null; displayName: string | null } | null;
}
interface Item {
  id: string;
  status: string;
  availableQuantity: number;
  reservedQuantity: number;
  soldQuantity: number;
}
const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' };

describe('trading (e2e)', () => {
  const receiver = new WebhookReceiver();
  let app: RunningApp;
  let key: string;
  const call = <T>(method: string, path: string, body?: unknown) => http<T>(app.url, method, path, { key, body });
  const item = async (fields: Record<string, unknown> = {}) =>
    (await call<Item>('POST', '/api/v1/inventory', { ...charizard, price: 425, ...fields })).body;

  beforeAll(async () => {
    await receiver.start();
    app = await startApp({ env: { ...ENV, TIMER_POLL_MS: '50', TRADE_DISPUTE_WINDOW_SECONDS: '2' } });
    key = (await createWorkspace(app.dataDir, 'trading')).apiKey;
    const hook = await call('POST', '/api/v1/webhooks', {
      url: receiver.url('/trades'),
      events: ['trade.initiated', 'trade.completed', 'trade.status_changed', 'hold.expired', 'offer.accepted'],
    });
    expect(hook.status).toBe(201);
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
    await receiver.stop();
  });

  it('takes a match to a trade and through paid, shipped, delivered, completed, settled; the receiver sees each move', async () => {
    const stock = await item({ sku: 'lifecycle' });
    const request = await call<{ id: string; matchCount: number }>('POST', '/api/v1/buyer-requests', {
      ...charizard,
      maxPrice: 450,
      buyer: { externalId: 'cust-1', displayName: 'Ash' },
    });
    expect(request.body.matchCount).toBe(1);
    const pack = await call<{ matches: Array<{ id: string; inventoryItemId: string; kind: string }> }>('POST', '/api/v1/match-runs', { buyerRequestId: request.body.id });
    const match = pack.body.matches.find((m) => m.inventoryItemId === stock.id && m.kind === 'full');
    expect(match).toBeDefined();

    const opened = await call<Trade>('POST', '/api/v1/trades', { matchId: match?.id });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'initiated', allowedTransitions: ['paid', 'cancelled'], amount: 425, offerId: null, buyer: { externalId: 'cust-1', displayName: 'Ash' } });
    const tradeId = opened.body.id;
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 0, reservedQuantity: 1, status: 'reserved' });

    const illegal = await call<ErrorBody>('POST', `/api/v1/trades/${tradeId}/transitions`, { to: 'shipped' });
    expect(illegal.status).toBe(409);
    expect(illegal.body).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'initiated', to: 'shipped', allowed: ['paid', 'cancelled'] } });

    const moves = [{ to: 'paid', reference: 'pi_1' }, { to: 'shipped', carrier: 'USPS', trackingNumber: '9400' }, { to: 'delivered' }, { to: 'completed' }, { to: 'settled' }];
    for (const move of moves) {
      const res = await call<Trade>('POST', `/api/v1/trades/${tradeId}/transitions`, move);
      expect({ to: move.to, status: res.status, now: res.body.status }).toEqual({ to: move.to, status: 200, now: move.to });
    }
    const read = await call<Trade>('GET', `/api/v1/trades/${tradeId}`);
    expect(read.body.timeline?.map((t) => t.status)).toEqual(['initiated', 'paid', 'shipped', 'delivered', 'completed', 'settled']);
    expect(read.body.allowedTransitions).toEqual([]);
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ soldQuantity: 1, reservedQuantity: 0, status: 'sold' });

    const ofTrade = (type: string) =>
      receiver.at('/trades').map(envelopeOf).filter((e) => e.type === type && e.data.trade_id === tradeId);
    await until('trade.completed and five status changes', async () => (ofTrade('trade.completed').length === 1 && ofTrade('trade.status_changed').length === 5 ? true : undefined));
    expect(ofTrade('trade.completed')[0].data).toEqual({ trade_id: tradeId, offer_id: null, amount: 425, status: 'completed' });
    // Each move once; deliveries run concurrently (per endpoint), so their arrival order is not the log's.
    expect(ofTrade('trade.status_changed').map((e) => String(e.data.status)).sort()).toEqual(['completed', 'delivered', 'paid', 'settled', 'shipped']);
    // The log lists them too, as the same envelopes.
    const listed = await call<{ data: Array<{ id: string; data: Record<string, unknown> }> }>('GET', '/api/v1/events?type=trade.completed&limit=100');
    expect(listed.body.data.find((e) => e.data.trade_id === tradeId)).toMatchObject({ id: ofTrade('trade.completed')[0].id, data: ofTrade('trade.completed')[0].data });
  });

  it('turns an offer countered twice then accepted into a trade whose trade.completed names the offer', async () => {
    const stock = await item({ sku: 'haggle' });
    const first = await call<{ id: string; threadId: string }>('POST', '/api/v1/offers', { inventoryItemId: stock.id, amount: 380, from: 'buyer' });
    expect(first.status).toBe(201);
    const wrongParty = await call<ErrorBody>('POST', `/api/v1/offers/${first.body.id}/accept`, { party: 'buyer' });
    expect(wrongParty.body.code).toBe('INVALID_TRANSITION');
    const second = await call<{ counterOfferId: string; status: string }>('POST', `/api/v1/offers/${first.body.id}/counter`, { amount: 420 });
    expect(second.body.status).toBe('countered');
    const third = await call<{ counterOfferId: string }>('POST', `/api/v1/offers/${second.body.counterOfferId}/counter`, { party: 'buyer', amount: 400 });
    const last = third.body.counterOfferId;
    // No body: the seller accepts the buyer's last counter.
    const accepted = await http<{ status: string; tradeId: string }>(app.url, 'POST', `/api/v1/offers/${last}/accept`, { key });
    expect(accepted.body.status).toBe('accepted');
    const thread = await call<{ thread: Array<{ status: string; amount: number }> }>('GET', `/api/v1/offers/${last}`);
    expect(thread.body.thread.map((o) => [o.status, o.amount])).toEqual([['countered', 380], ['countered', 420], ['accepted', 400]]);
    const again = await call<{ status: string; tradeId: string }>('POST', `/api/v1/offers/${last}/accept`);
    expect(again.body).toMatchObject({ status: 'accepted', tradeId: accepted.body.tradeId });

    const fromOffer = await call<Trade>('POST', '/api/v1/trades', { offerId: last });
    expect(fromOffer.status).toBe(200);
    expect(fromOffer.body).toMatchObject({ id: accepted.body.tradeId, offerId: last, amount: 400 });
    for (const to of ['paid', 'shipped', 'delivered', 'completed']) await call('POST', `/api/v1/trades/${fromOffer.body.id}/transitions`, { to });
    const completed = await until('trade.completed for the offer', async () =>
      receiver.at('/trades').map(envelopeOf).find((e) => e.type === 'trade.completed' && e.data.trade_id === fromOffer.body.id),
    );
    expect(completed.data).toEqual({ trade_id: fromOffer.body.id, offer_id: last, amount: 400, status: 'completed' });
  });

  it('expires a hold at expiresAt, releasing its unit, which a second buyer can then trade', async () => {
    const stock = await item({ sku: 'hold' });
    const hold = await call<{ id: string; status: string }>('POST', '/api/v1/holds', {
      inventoryItemId: stock.id,
      depositAmount: 50,
      // Far enough off that the refused trade below is asked before it, however busy the machine.
      expiresAt: new Date(Date.now() + 5000).toISOString(),
    });
    expect(hold.status).toBe(201);
    const blocked = await call<ErrorBody>('POST', '/api/v1/trades', { inventoryItemId: stock.id });
    expect(blocked.status).toBe(409);
    expect(blocked.body).toMatchObject({ code: 'INSUFFICIENT_QUANTITY', details: { requested: 1, available: 0 } });
    await until('the hold to expire', async () => ((await call<{ status: string }>('GET', `/api/v1/holds/${hold.body.id}`)).body.status === 'expired' ? true : undefined), 30_000);
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 1, reservedQuantity: 0, status: 'available' });
    const second = await call<Trade>('POST', '/api/v1/trades', { inventoryItemId: stock.id });
    expect(second.status).toBe(201);
    const converted = await call<ErrorBody>('POST', `/api/v1/holds/${hold.body.id}/convert`);
    expect(converted.body.code).toBe('INVALID_TRANSITION');
  });

  it('converts a hold into a trade with its paid deposit counted', async () => {
    const stock = await item({ sku: 'convert' });
    const hold = await call<{ id: string }>('POST', '/api/v1/holds', { inventoryItemId: stock.id, depositAmount: 50, expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await http<{ depositStatus: string }>(app.url, 'POST', `/api/v1/holds/${hold.body.id}/deposit`, { key })).body.depositStatus).toBe('paid');
    const converted = await call<{ status: string; tradeId: string }>('POST', `/api/v1/holds/${hold.body.id}/convert`);
    expect(converted.body.status).toBe('converted');
    const trade = await call<{ depositAmount: number; amountDue: number; amount: number }>('GET', `/api/v1/trades/${converted.body.tradeId}`);
    expect(trade.body).toMatchObject({ amount: 425, depositAmount: 50, amountDue: 375 });
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ reservedQuantity: 1, availableQuantity: 0 });
    expect((await call<{ tradeId: string }>('POST', `/api/v1/holds/${hold.body.id}/convert`)).body.tradeId).toBe(converted.body.tradeId);
  });

  it('completes a delivered trade by the timer once the dispute window passes', async () => {
    const stock = await item({ sku: 'window' });
    const trade = (await call<Trade>('POST', '/api/v1/trades', { inventoryItemId: stock.id })).body;
    for (const to of ['paid', 'shipped', 'delivered']) await call('POST', `/api/v1/trades/${trade.id}/transitions`, { to });
    const done = await until('the timer to complete the trade', async () => {
      const read = (await call<Trade>('GET', `/api/v1/trades/${trade.id}`)).body;
      return read.status === 'completed' ? read : undefined;
    });
    expect(done.timeline?.at(-1)).toMatchObject({ status: 'completed', by: 'timer' });
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ soldQuantity: 1 });
  });

  it('lets exactly one of 50 concurrent trades have the last unit; the others get 409, never a 5xx', async () => {
    const stock = await item({ sku: 'race' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => call<ErrorBody>('POST', '/api/v1/trades', { inventoryItemId: stock.id })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    expect(answers.filter((a) => a.status === 409).every((a) => ['INSUFFICIENT_QUANTITY', 'CONFLICT'].includes(a.body.code))).toBe(true);
    const trades = await call<{ data: Trade[] }>('GET', `/api/v1/trades?inventoryItemId=${stock.id}`);
    expect(trades.body.data).toHaveLength(1);
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 0, reservedQuantity: 1, soldQuantity: 0 });
  });

  it('lets exactly one of 20 concurrent moves of one trade take effect, without a 5xx', async () => {
    const stock = await item({ sku: 'moves' });
    const trade = (await call<Trade>('POST', '/api/v1/trades', { inventoryItemId: stock.id })).body;
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', `/api/v1/trades/${trade.id}/transitions`, { to: 'paid', reference: 'pi_race' })));
    // One move took effect; the others found it done and answered the trade as it is (a no-op).
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const read = await call<Trade>('GET', `/api/v1/trades/${trade.id}`);
    expect(read.body.timeline?.map((t) => t.status)).toEqual(['initiated', 'paid']);
    const cancelRace = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', `/api/v1/trades/${trade.id}/transitions`, { to: i % 2 ? 'shipped' : 'cancelled' })));
    expect(cancelRace.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const after = (await call<Trade>('GET', `/api/v1/trades/${trade.id}`)).body;
    // Exactly one of shipped / cancelled won: both are legal from paid, and neither leads to the other.
    expect(after.timeline?.map((t) => t.status)).toHaveLength(3);
    expect(['shipped', 'cancelled']).toContain(after.status);
  });
});
