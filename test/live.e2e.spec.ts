// Live selling end to end, over HTTP on the real app: a show where three bidders bid on an auction
// lot, the lot closes, the winner gets a hold with a deposit due on the lot's unit; a claim sale
// settled as trades with its waitlist; 100 concurrent reserves on one lot in one consistent order
// with exactly one winner and no 5xx; the rules a show keeps (no reserve before the lot opens or
// after the show ends; a retried reserve places nothing twice); webhooks with snake_case data.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, until } from './support/http';
import { WebhookReceiver } from './support/webhook-receiver';
import { ENV, envelopeOf } from './support/webhooks';

interface Lot {
  id: string;
  status: string;
  reserveCount: number;
  best: { reserveId: string; amount: number } | null;
  minimumAmount: number | null;
  winners: Array<{ reserveId: string; amount: number; quantity: number; holdId: string | null; tradeId: string | null }>;
  unsold: number | null;
  settled: boolean;
}
interface Reserve {
  id: string;
  sequence: number;
  amount: number;
  standing: string;
  buyer: { externalId: string | null; displayName: string | null } | null;
  holdId: string | null;
  tradeId: string | null;
}
interface Item {
  id: string;
  availableQuantity: number;
  reservedQuantity: number;
}
describe('live selling (e2e)', () => {
  const receiver = new WebhookReceiver();
  let app: RunningApp;
  let key: string;
  const call = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => http<T>(app.url, method, path, { key, body, headers });
  const item = async (fields: Record<string, unknown> = {}) =>
    (await call<Item>('POST', '/api/v1/inventory', { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 300, ...fields })).body;
  const show = async (fields: Record<string, unknown> = {}) => {
    const session = await call<{ id: string; status: string }>('POST', '/api/v1/live-sessions', { title: 'Friday night breaks', ...fields });
    expect(session.status).toBe(201);
    return session.body.id;
  };
  const settledLot = (sessionId: string, lotId: string) =>
    until('the lot to be settled', async () => {
      const lot = (await call<Lot>('GET', `/api/v1/live-sessions/${sessionId}/lots/${lotId}`)).body;
      return lot.settled ? lot : undefined;
    });

  beforeAll(async () => {
    await receiver.start();
    app = await startApp({ env: ENV });
    key = (await createWorkspace(app.dataDir, 'live')).apiKey;
    const hook = await call('POST', '/api/v1/webhooks', { url: receiver.url('/live'), events: ['live_session.started', 'live_session.ended', 'reserve.placed'] });
    expect(hook.status).toBe(201);
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
    await receiver.stop();
  });

  it('runs a show: three bidders on an auction lot, the lot closes, the winner gets a hold with a deposit on the reserved unit', async () => {
    const stock = await item({ sku: 'show-1' });
    const sessionId = await show({ depositPercent: 25, paymentWindowHours: 24 });
    const added = await call<Lot>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: stock.id, startingPrice: 300, increment: 10 });
    expect(added.status).toBe(201);
    const lotId = added.body.id;
    const lotPath = `/api/v1/live-sessions/${sessionId}/lots/${lotId}`;

    // Not live yet: the lot cannot open, nothing can be reserved.
    expect((await call<ErrorBody>('POST', `${lotPath}/open`)).body.code).toBe('INVALID_TRANSITION');
    expect((await call<{ status: string }>('POST', `/api/v1/live-sessions/${sessionId}/start`)).body.status).toBe('live');
    expect((await call<ErrorBody>('POST', `${lotPath}/reserves`, { buyer: { externalId: 'early' }, amount: 300 })).body.code).toBe('INVALID_TRANSITION');
    const opened = await call<Lot>('POST', `${lotPath}/open`);
    expect(opened.body).toMatchObject({ status: 'open', minimumAmount: 300 });
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 0, reservedQuantity: 1 });

    const bid = (externalId: string, amount: number) => call<Reserve & ErrorBody>('POST', `${lotPath}/reserves`, { buyer: { externalId, displayName: externalId.toUpperCase() }, amount });
    const a = await bid('ash', 300);
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ sequence: 1, standing: 'leading', buyer: { externalId: 'ash', displayName: 'ASH' } });
    const low = await bid('brock', 305);
    expect(low.status).toBe(409);
    expect(low.body).toMatchObject({ code: 'RESERVE_TOO_LOW', details: { best: { reserveId: a.body.id, amount: 300 }, minimumAmount: 310 } });
    const b = await bid('brock', 320);
    const c = await bid('misty', 350);
    expect([b.body.sequence, c.body.standing]).toEqual([2, 'leading']);

    const closed = await call<Lot>('POST', `${lotPath}/close`);
    expect(closed.body).toMatchObject({ status: 'closed', unsold: 0, winners: [{ reserveId: c.body.id, amount: 350, quantity: 1 }] });
    const lot = await settledLot(sessionId, lotId);
    const holdId = lot.winners[0].holdId;
    expect(holdId).toMatch(/^hld_/);

    const hold = await call<{ status: string; amount: number; depositAmount: number; depositStatus: string; quantity: number; expiresAt: string; buyer: unknown }>('GET', `/api/v1/holds/${holdId}`);
    expect(hold.body).toMatchObject({ status: 'active', amount: 350, depositAmount: 87.5, depositStatus: 'due', quantity: 1, buyer: { externalId: 'misty', displayName: 'MISTY' } });
    expect(Date.parse(hold.body.expiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    // The unit passed from the lot to the hold: still reserved, never available in between.
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 0, reservedQuantity: 1 });

    const reserves = (await call<{ data: Reserve[] }>('GET', `${lotPath}/reserves`)).body.data;
    expect(reserves.map((r) => [r.sequence, r.standing, r.holdId])).toEqual([
      [1, 'outbid', null],
      [2, 'outbid', null],
      [3, 'won', holdId],
    ]);

    // The show ends; reserves after that are refused; the webhooks carry snake_case data and no bidder.
    expect((await call<{ status: string }>('POST', `/api/v1/live-sessions/${sessionId}/end`)).body.status).toBe('ended');
    expect((await call<{ status: string }>('POST', `/api/v1/live-sessions/${sessionId}/end`)).status).toBe(200);
    const placed = await until('the reserve webhooks', async () => {
      const found = receiver.received.map(envelopeOf).filter((e) => e.type === 'reserve.placed' && (e.data as { lot_id: string }).lot_id === lotId);
      return found.length === 3 ? found : undefined;
    });
    expect(placed[2].data).toEqual({
      reserve_id: c.body.id,
      live_session_id: sessionId,
      lot_id: lotId,
      amount: 350,
      currency: 'USD',
      sequence: 3,
      standing: 'leading',
      quantity: 1,
      buyer_request_id: null,
    });
    expect(JSON.stringify(placed)).not.toContain('misty');
    const ended = await until('live_session.ended', async () => receiver.received.map(envelopeOf).find((e) => e.type === 'live_session.ended' && (e.data as { live_session_id: string }).live_session_id === sessionId));
    expect(ended.data).toMatchObject({ live_session_id: sessionId, status: 'ended', lot_ids: [lotId] });
  });

  it('a claim sale settled as trades: a unit per claim while units last, then a waitlist in order; ending the show closes the open lot', async () => {
    const stock = await item({ sku: 'claims', quantity: 3, price: 40 });
    const sessionId = await show({ settlement: 'trade' });
    await call('POST', `/api/v1/live-sessions/${sessionId}/start`);
    const lotId = (await call<Lot>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: stock.id, quantity: 2, startingPrice: 40 })).body.id;
    const lotPath = `/api/v1/live-sessions/${sessionId}/lots/${lotId}`;
    await call('POST', `${lotPath}/open`);
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 1, reservedQuantity: 2 });
    const claims: Reserve[] = [];
    for (const who of ['a', 'b', 'c']) claims.push((await call<Reserve>('POST', `${lotPath}/reserves`, { buyer: { externalId: who }, amount: 40 })).body);
    expect(claims.map((r) => r.standing)).toEqual(['won', 'won', 'waitlisted']);

    await call('POST', `/api/v1/live-sessions/${sessionId}/end`);
    const lot = await settledLot(sessionId, lotId);
    expect(lot).toMatchObject({ status: 'closed', unsold: 0 });
    expect(lot.winners.map((w) => [w.reserveId, w.holdId, Boolean(w.tradeId)])).toEqual([
      [claims[0].id, null, true],
      [claims[1].id, null, true],
    ]);
    const trade = await call<{ status: string; amount: number; quantity: number; buyer: unknown }>('GET', `/api/v1/trades/${lot.winners[0].tradeId}`);
    expect(trade.body).toMatchObject({ status: 'initiated', amount: 40, quantity: 1, buyer: { externalId: 'a', displayName: null } });
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 1, reservedQuantity: 2 });
  });

  it('unsold units go back to available when a lot closes without reserves', async () => {
    const stock = await item({ sku: 'unsold', quantity: 2 });
    const sessionId = await show();
    await call('POST', `/api/v1/live-sessions/${sessionId}/start`);
    const lotId = (await call<Lot>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: stock.id, quantity: 2, startingPrice: 300, increment: 5 })).body.id;
    await call('POST', `/api/v1/live-sessions/${sessionId}/lots/${lotId}/open`);
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body.availableQuantity).toBe(0);
    await call('POST', `/api/v1/live-sessions/${sessionId}/lots/${lotId}/close`);
    expect(await settledLot(sessionId, lotId)).toMatchObject({ winners: [], unsold: 2 });
    expect((await call<Item>('GET', `/api/v1/inventory/${stock.id}`)).body).toMatchObject({ availableQuantity: 2, reservedQuantity: 0 });
  });

  it('100 concurrent reserves on one auction lot: one consistent order, exactly one winner, no 5xx, none lost; a retried reserve places nothing twice', async () => {
    const stock = await item({ sku: 'hot-lot' });
    const sessionId = await show();
    await call('POST', `/api/v1/live-sessions/${sessionId}/start`);
    const lotId = (await call<Lot>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: stock.id, startingPrice: 100, increment: 1 })).body.id;
    const lotPath = `/api/v1/live-sessions/${sessionId}/lots/${lotId}`;
    await call('POST', `${lotPath}/open`);

    // Every bidder offers a distinct amount: which ones are accepted depends on the order they land in.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call<Reserve & ErrorBody>('POST', `${lotPath}/reserves`, { buyer: { externalId: `bidder-${i}` }, amount: 100 + ((i * 37) % 100) })),
    );
    expect(answers.filter((r) => r.status >= 500)).toEqual([]);
    const accepted = answers.filter((r) => r.status === 201).map((r) => r.body);
    const refused = answers.filter((r) => r.status !== 201);
    for (const r of refused) expect([r.status, r.body.code]).toEqual([409, 'RESERVE_TOO_LOW']);
    expect(accepted.length + refused.length).toBe(100);

    // The lot's order is the log's: sequences 1..n, each accepted amount beating the one before by the increment.
    const listed = (await call<{ data: Reserve[] }>('GET', `${lotPath}/reserves?limit=100`)).body.data;
    expect(listed.map((r) => r.sequence)).toEqual(Array.from({ length: accepted.length }, (_, i) => i + 1));
    expect(listed.map((r) => r.id).sort()).toEqual(accepted.map((r) => r.id).sort());
    for (let i = 1; i < listed.length; i += 1) expect(listed[i].amount).toBeGreaterThanOrEqual(listed[i - 1].amount + 1);
    expect(listed.filter((r) => r.standing === 'leading')).toHaveLength(1);
    const best = listed[listed.length - 1];

    // A retry with the same Idempotency-Key answers the first reserve again and places nothing.
    const retry = { 'idempotency-key': 'reserve-retry-1' };
    const first = await call<Reserve>('POST', `${lotPath}/reserves`, { buyer: { externalId: 'late' }, amount: best.amount + 5 }, retry);
    const again = await call<Reserve>('POST', `${lotPath}/reserves`, { buyer: { externalId: 'late' }, amount: best.amount + 5 }, retry);
    expect([first.status, again.status, again.body.id]).toEqual([201, 201, first.body.id]);
    const lot = (await call<Lot>('POST', `${lotPath}/close`)).body;
    expect(lot.reserveCount).toBe(accepted.length + 1);
    expect(lot.winners).toEqual([expect.objectContaining({ reserveId: first.body.id, amount: best.amount + 5 })]);
  });

  it('refuses bad input with a clear error and keeps lots to their own session and workspace', async () => {
    const sessionId = await show();
    const bad = await call<ErrorBody>('POST', '/api/v1/live-sessions', { title: '', depositPercent: 120 });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const ghost = await call<ErrorBody>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: 'inv_nope', startingPrice: 1 });
    expect([ghost.status, ghost.body.code]).toEqual([404, 'NOT_FOUND']);
    const eur = await item({ sku: 'eur', currency: 'EUR' });
    const wrongCurrency = await call<ErrorBody>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: eur.id, startingPrice: 1 });
    expect([wrongCurrency.status, wrongCurrency.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const stock = await item({ sku: 'other-show' });
    const lotId = (await call<Lot>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: stock.id, startingPrice: 1 })).body.id;
    const otherSession = await show();
    expect((await call<ErrorBody>('GET', `/api/v1/live-sessions/${otherSession}/lots/${lotId}`)).status).toBe(404);
    const other = (await createWorkspace(app.dataDir, 'live-other')).apiKey;
    expect((await http(app.url, 'GET', `/api/v1/live-sessions/${sessionId}`, { key: other })).status).toBe(404);
    expect((await http(app.url, 'POST', `/api/v1/live-sessions/${sessionId}/lots/${lotId}/reserves`, { key: other, body: { buyer: { externalId: 'x' }, amount: 5 } })).status).toBe(404);
    const ended = await call<ErrorBody>('POST', `/api/v1/live-sessions/${sessionId}/end`);
    expect([ended.status, ended.body.code]).toEqual([409, 'INVALID_TRANSITION']);
  });
});
