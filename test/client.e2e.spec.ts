// The TypeScript client (libs/client) end to end against the real compiled app, over HTTP: a
// seller's journey through `new CommerceClient({ apiKey, baseUrl })` — buyer requests, inventory,
// an intake session pushed, a match run, an offer thread, a trade through paid, shipped,
// delivered, completed and settled — and its webhooks received on 127.0.0.1, their signatures
// checked with both the node:crypto helpers of `@app/client/webhooks` and the WebCrypto ones of
// `api.webhooks`, their deliveries listed through the client. Then every other resource group
// once, the errors the real server answers mapped to their classes, the server's 429 retried, and
// an Idempotency-Key replayed. The README's Client section quotes this file (checked by
// test/client-readme.unit.spec.ts): the snippets it takes are marked `README:` below.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  ApiError,
  CommerceClient,
  IdempotencyError,
  InsufficientScopeError,
  InvalidTransitionError,
  NotFoundError,
  RateLimitedError,
  type Trade,
  UnauthorizedError,
  ValidationError,
} from '@app/client';
import { parseWebhookEvent, verifyStandardWebhook, verifyWebhookSignature, type WebhookEvent } from '@app/client/webhooks';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http, until } from './support/http';
import { WebhookReceiver } from './support/webhook-receiver';
import { ENV } from './support/webhooks';

// README: a webhook receiver (Node). The raw body, before any JSON parsing, is what is signed.
function webhookHandler(secret: string, onEvent: (event: WebhookEvent) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      if (!verifyWebhookSignature(rawBody, req.headers['x-service-signature']?.toString(), secret)) {
        res.writeHead(401).end();
        return;
      }
      onEvent(parseWebhookEvent(rawBody)); // deduplicate on event.id: a delivery may come twice
      res.writeHead(204).end();
    });
  };
}

const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' };

describe('the TypeScript client (e2e)', () => {
  const raw = new WebhookReceiver();
  let app: RunningApp;
  let apiKey: string;
  let api: CommerceClient;
  let hookServer: Server;

  beforeAll(async () => {
    await raw.start();
    app = await startApp({ env: { ...ENV, TIMER_POLL_MS: '50' } });
    apiKey = (await createWorkspace(app.dataDir, 'client')).apiKey;
    api = new CommerceClient({ apiKey, baseUrl: app.url });
    hookServer = createServer();
    await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
    await raw.stop();
    hookServer.closeAllConnections();
    await new Promise<void>((resolve) => hookServer.close(() => resolve()));
  });

  it('runs a seller journey: demand, supply, intake, a match, an offer, a trade through settled, its webhooks verified', async () => {
    // Webhooks first, so they see the whole journey: one to a receiver that checks the spec's
    // signature with node:crypto (the README's), one recording raw bodies for the other checks.
    const events: WebhookEvent[] = [];
    const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hooks`;
    const types = ['buyer_request.created', 'trade.initiated', 'trade.status_changed', 'trade.completed', 'offer.accepted'];
    const webhook = await api.webhooks.create({ url: hookUrl, events: types, description: 'client e2e' });
    expect(webhook.secret).toMatch(/^whsec_/);
    hookServer.on('request', webhookHandler(webhook.secret, (event) => events.push(event)));
    const recorder = await api.webhooks.create({ url: raw.url('/raw'), events: types });
    expect((await api.webhooks.retrieve(webhook.id)).url).toBe(hookUrl);
    expect(await api.webhooks.update(recorder.id, { description: 'raw bodies' })).toMatchObject({ id: recorder.id, description: 'raw bodies' });

    // Demand: a buyer request, read back and listed.
    const request = await api.buyerRequests.create({ ...charizard, maxPrice: 450, buyer: { externalId: 'cust-1', displayName: 'Ash' } });
    expect(request).toMatchObject({ id: expect.stringMatching(/^br_/), matchCount: 0 });
    expect(await api.buyerRequests.retrieve(request.id)).toMatchObject({ id: request.id, cardName: 'Charizard', maxPrice: 450 });
    expect(await api.buyerRequests.update(request.id, { maxPrice: 460 })).toMatchObject({ maxPrice: 460 });
    const open = [];
    for await (const r of api.buyerRequests.list({ status: 'open' })) open.push(r.id);
    expect(open).toContain(request.id);

    // Supply: one item by hand, then an intake session of two rows pushed to inventory.
    const blastoise = await api.inventory.create({ cardName: 'Blastoise', setName: 'Base', condition: 'NM', price: 300, sku: 'client-blastoise' });
    expect(await api.inventory.update(blastoise.id, { price: 320 })).toMatchObject({ id: blastoise.id });
    expect(await api.inventory.retrieve(blastoise.id)).toMatchObject({ price: 320, status: 'available' });
    const session = await api.ingestion.createSession({ name: 'client e2e' });
    const added = await api.ingestion.addItems(session.id, [
      { card: 'Charizard', set: 'Base', condition: 'NM', price: 425, sku: 'client-charizard' },
      { card: 'Venusaur', set: 'Base', condition: 'NM', price: 200, sku: 'client-venusaur' },
    ]);
    expect(added.rows.map((r) => r.status)).toEqual(['valid', 'valid']);
    const csv = await api.ingestion.addItems(session.id, 'card,set,condition,price\r\nMewtwo,Base,NM,50\r\n');
    expect(csv.counts).toMatchObject({ total: 3, valid: 3 });
    expect(await api.ingestion.push(session.id)).toMatchObject({ sessionId: session.id, status: 'pushed', pushed: 3, skipped: 0 });
    expect(await api.ingestion.retrieveSession(session.id)).toMatchObject({ status: 'pushed', counts: { pushed: 3 } });
    const pushedRows = [];
    for await (const row of api.ingestion.listRows(session.id)) pushedRows.push(row);
    const charizardItemId = pushedRows[0].inventoryItemId;
    expect(charizardItemId).toMatch(/^inv_/);
    expect((await api.ingestion.listSessions()).data.map((s) => s.id)).toContain(session.id);
    const skus = [];
    for await (const item of api.inventory.list({ limit: 2 })) skus.push(item.sku);
    expect(skus.sort()).toEqual(['client-blastoise', 'client-charizard', 'client-venusaur', null].sort());

    // Matching: a match run for the request finds the pushed Charizard; the request lists it.
    const pack = await api.matchPacks.run({ buyerRequestId: request.id });
    const match = pack.matches.find((m) => m.inventoryItemId === charizardItemId && m.kind === 'full');
    expect(match).toBeDefined();
    expect((await api.matchPacks.retrieve(pack.id)).id).toBe(pack.id);
    expect((await api.matchPacks.list()).data.map((p) => p.id)).toContain(pack.id);
    const matches = await until('the request to list its match', async () => {
      const page = await api.buyerRequests.listMatches(request.id);
      return page.data.some((m) => m.inventoryItemId === charizardItemId) ? page.data : undefined;
    });
    expect(matches.length).toBeGreaterThan(0);

    // A trade from the match, and the move the server refuses.
    const trade = await api.secureTrades.create({ matchId: match?.id as string });
    expect(trade).toMatchObject({ status: 'initiated', amount: 425, allowedTransitions: ['paid', 'cancelled'], buyer: { externalId: 'cust-1' } });
    // README: error handling
    let refused: string | undefined;
    try {
      await api.secureTrades.transition(trade.id, { to: 'shipped' });
    } catch (error) {
      if (!(error instanceof InvalidTransitionError)) throw error;
      refused = `${error.code}: ${error.from} → ${error.to}; allowed: ${error.allowed?.join(', ')}`;
    }
    expect(refused).toBe('INVALID_TRANSITION: initiated → shipped; allowed: paid, cancelled');
    const moved: Trade[] = [];
    moved.push(await api.secureTrades.transition(trade.id, { to: 'paid', reference: 'pi_client' }));
    moved.push(await api.secureTrades.transition(trade.id, { to: 'shipped', carrier: 'USPS', trackingNumber: '9400' }));
    for (const to of ['delivered', 'completed', 'settled'] as const) moved.push(await api.secureTrades.transition(trade.id, { to }));
    expect(moved.map((t) => t.status)).toEqual(['paid', 'shipped', 'delivered', 'completed', 'settled']);
    const settled = await api.secureTrades.retrieve(trade.id);
    expect(settled.timeline?.map((t) => t.status)).toEqual(['initiated', 'paid', 'shipped', 'delivered', 'completed', 'settled']);
    expect(await api.inventory.retrieve(charizardItemId as string)).toMatchObject({ soldQuantity: 1, status: 'sold' });
    // README: pagination
    const settledIds: string[] = [];
    for await (const t of api.secureTrades.list({ status: 'settled' })) settledIds.push(t.id);
    expect(settledIds).toEqual([trade.id]);

    // An offer on the Venusaur, countered by the seller, accepted by the buyer: a trade.
    const venusaurId = pushedRows[1].inventoryItemId as string;
    const offer = await api.offers.create({ inventoryItemId: venusaurId, amount: 170, from: 'buyer' });
    const countered = await api.offers.counter(offer.id, { amount: 190 });
    expect(countered).toMatchObject({ status: 'countered', counterOfferId: expect.stringMatching(/^ofr_/) });
    const accepted = await api.offers.accept(countered.counterOfferId as string, { party: 'buyer' });
    expect(accepted).toMatchObject({ status: 'accepted', tradeId: expect.stringMatching(/^trd_/) });
    expect((await api.offers.retrieve(accepted.id)).thread?.map((o) => [o.status, o.amount])).toEqual([
      ['countered', 170],
      ['accepted', 190],
    ]);
    expect((await api.offers.list()).data.length).toBeGreaterThanOrEqual(2);
    const rejected = await api.offers.reject((await api.offers.create({ inventoryItemId: blastoise.id, amount: 100, from: 'buyer' })).id);
    expect(rejected.status).toBe('rejected');

    // The webhooks: each delivery verified (spec and Standard Webhooks signatures, node:crypto and
    // WebCrypto), the journey's events received, the deliveries listed through the client.
    const ofTrade = (type: string) => events.filter((e) => e.type === type && e.data.trade_id === trade.id);
    await until('trade.completed and five status changes', async () => (ofTrade('trade.completed').length === 1 && ofTrade('trade.status_changed').length === 5 ? true : undefined));
    expect(events.some((e) => e.type === 'buyer_request.created' && e.data.buyer_request_id === request.id)).toBe(true);
    expect(events.some((e) => e.type === 'offer.accepted')).toBe(true);
    const recorded = await raw.waitFor('/raw', events.length);
    for (const delivery of recorded) {
      expect(verifyWebhookSignature(delivery.body, String(delivery.headers['x-service-signature']), recorder.secret)).toBe(true);
      expect(verifyStandardWebhook(delivery.body, delivery.headers as Record<string, string>, recorder.secret)).toBe(true);
      expect(await api.webhooks.verifySignature(delivery.body, String(delivery.headers['x-service-signature']), recorder.secret)).toBe(true);
      expect(await api.webhooks.verifyStandardSignature(delivery.body, delivery.headers as Record<string, string>, recorder.secret)).toBe(true);
      expect(await api.webhooks.verifySignature(delivery.body, String(delivery.headers['x-service-signature']), webhook.secret)).toBe(false);
      expect(api.webhooks.parseEvent(delivery.body).id).toBe(delivery.headers['webhook-id']);
    }
    const eventIds = new Set(events.map((e) => e.id));
    const delivered = await until('every delivery recorded as succeeded', async () => {
      const list = [];
      for await (const d of api.webhooks.listDeliveries(webhook.id, { limit: 5 })) list.push(d);
      return list.length === eventIds.size && list.every((d) => d.status === 'succeeded') ? list : undefined;
    });
    expect(new Set(delivered.map((d) => d.eventId))).toEqual(eventIds);
    expect(delivered[0].attempts[0]).toMatchObject({ attempt: 1, statusCode: 204 });
    expect((await api.webhooks.retrieveDelivery(webhook.id, delivered[0].id)).eventId).toBe(delivered[0].eventId);
    expect((await api.webhooks.list()).data.map((w) => w.id).sort()).toEqual([webhook.id, recorder.id].sort());
    expect(await api.webhooks.test(recorder.id)).toMatchObject({ status: 200 });
    expect((await api.webhooks.rotateSecret(recorder.id)).secret).toMatch(/^whsec_/);
    expect((await api.webhooks.replay(recorder.id, { eventIds: [delivered[0].eventId] })).scheduled).toBe(1);
    expect(await api.webhooks.delete(recorder.id)).toEqual({ id: recorder.id, deleted: true });
  }, 40_000);

  it('calls every other group: holds, live sessions, automations, tradegraph, trust, events, event types, API keys', async () => {
    const item = (sku: string, quantity = 1) => api.inventory.create({ ...charizard, price: 400, quantity, sku });

    // Holds: placed, deposit paid, converted into a trade; another released.
    const held = await item('client-hold');
    const hold = await api.holds.create({ inventoryItemId: held.id, depositAmount: 50, expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(hold.status).toBe('active');
    expect((await api.holds.payDeposit(hold.id)).depositStatus).toBe('paid');
    const converted = await api.holds.convert(hold.id);
    expect(converted).toMatchObject({ status: 'converted', tradeId: expect.stringMatching(/^trd_/) });
    expect(await api.secureTrades.retrieve(converted.tradeId as string)).toMatchObject({ depositAmount: 50, amountDue: 350 });
    const released = await api.holds.release((await api.holds.create({ inventoryItemId: (await item('client-release')).id, depositAmount: 10, expiresAt: new Date(Date.now() + 3600_000).toISOString() })).id);
    expect(released.status).toBe('released');
    expect((await api.holds.retrieve(hold.id)).id).toBe(hold.id);
    expect((await api.holds.list()).data.length).toBe(2);

    // Live sessions: a show, a lot, a reserve, the lot closed into a hold for the winner.
    const show = await api.liveSessions.create({ title: 'Client night', depositPercent: 25 });
    const lotItem = await item('client-lot');
    const lot = await api.liveSessions.addLot(show.id, { inventoryItemId: lotItem.id, startingPrice: 300, increment: 10 });
    expect((await api.liveSessions.start(show.id)).status).toBe('live');
    expect((await api.liveSessions.openLot(show.id, lot.id)).status).toBe('open');
    const reserve = await api.liveSessions.placeReserve(show.id, lot.id, { buyer: { externalId: 'misty', displayName: 'Misty' }, amount: 300 });
    expect(reserve).toMatchObject({ sequence: 1, standing: 'leading', amount: 300 });
    expect((await api.liveSessions.listReserves(show.id, lot.id)).data.map((r) => r.id)).toEqual([reserve.id]);
    await api.liveSessions.closeLot(show.id, lot.id);
    const settledLot = await until('the lot to be settled', async () => {
      const read = await api.liveSessions.retrieveLot(show.id, lot.id);
      return read.settled ? read : undefined;
    });
    expect(settledLot.winners).toEqual([expect.objectContaining({ reserveId: reserve.id, amount: 300, holdId: expect.stringMatching(/^hld_/) })]);
    expect((await api.liveSessions.listLots(show.id)).data.map((l) => l.id)).toEqual([lot.id]);
    expect((await api.liveSessions.end(show.id)).status).toBe('ended');
    expect((await api.liveSessions.retrieve(show.id)).id).toBe(show.id);
    expect((await api.liveSessions.list()).data.map((s) => s.id)).toEqual([show.id]);

    // Automations: a rule, changed, dry-run on a stored event, its runs, deleted.
    const rule = await api.automations.create({
      name: 'reject lowballs',
      trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] },
      action: { type: 'reject_offer', params: { belowPercentOfList: 50, reason: 'too low' } },
    });
    expect(rule).toMatchObject({ status: 'active', enabled: true });
    expect((await api.automations.update(rule.id, { name: 'reject lowballs (under 50 %)' })).name).toBe('reject lowballs (under 50 %)');
    expect((await api.automations.retrieve(rule.id)).id).toBe(rule.id);
    expect((await api.automations.list()).data.map((a) => a.id)).toEqual([rule.id]);
    const lowball = await api.offers.create({ inventoryItemId: (await item('client-lowball')).id, amount: 100, from: 'buyer' });
    const offerEvent = await until('offer.created in the log', async () => {
      for await (const e of api.events.list({ type: 'offer.created' })) if (e.data.offer_id === lowball.id) return e;
      return undefined;
    });
    expect(await api.automations.test(rule.id, { eventId: offerEvent.id })).toMatchObject({ eventId: offerEvent.id, wouldFire: true });
    const runs = await until('the rule to run on the lowball', async () => {
      const page = await api.automations.listRuns(rule.id);
      return page.data.some((r) => r.trigger.eventId === offerEvent.id && r.outcome !== 'running') ? page.data : undefined;
    });
    expect(runs[0].outcome).toBe('succeeded');
    expect((await api.offers.retrieve(lowball.id)).status).toBe('rejected');
    expect((await api.automations.delete(rule.id)).id).toBe(rule.id);

    // Tradegraph: each report awaited (the whole answer) and iterated (its list, every page).
    // README: pagination
    const summary = await api.tradeGraph.summary({ windowDays: 30 }); // awaited: the whole answer (window, computedAt, the first page of clusters)
    const clusters = [];
    for await (const cluster of api.tradeGraph.summary({ windowDays: 30, limit: 1 })) clusters.push(cluster.name); // iterated: every cluster of every page
    expect(summary.clusters.length).toBeGreaterThan(0);
    expect(clusters).toEqual(summary.clusters.map((c) => c.name));
    expect((await api.tradeGraph.supply()).cards.length).toBeGreaterThan(0);
    expect((await api.tradeGraph.pricing({ windowDays: 30 })).anomalies).toEqual(expect.any(Array));
    const routed = [];
    for await (const routedItem of api.tradeGraph.routing({ limit: 2 })) routed.push(routedItem.inventoryItemId);
    expect(routed.length).toBeGreaterThan(2);

    // Trust: the public key; the workspace's score; no credential for an unknown seller.
    expect((await api.trust.publicKey()).keys.length).toBeGreaterThan(0);
    expect(await api.trust.score()).toMatchObject({ slug: 'client' });
    await expect(api.trust.credential('no-such-seller')).rejects.toBeInstanceOf(NotFoundError);

    // Events across pages; the event catalogue.
    // README: pagination
    const firstPage = await api.events.list({ limit: 5 }); // awaited: the first page
    const seen = new Set<string>();
    for await (const event of api.events.list({ limit: 5 })) seen.add(event.id); // iterated: every page, each fetched when needed
    expect(firstPage.data).toHaveLength(5);
    expect(firstPage.hasMore).toBe(true);
    expect(seen.size).toBeGreaterThan(10);
    const catalogue = [];
    for await (const type of api.eventTypes.list()) catalogue.push(type.type);
    expect(catalogue).toEqual(expect.arrayContaining(['buyer_request.created', 'trade.completed', 'offer.accepted']));

    // API keys: created (secret once), listed, read, revoked; a revoked key is refused.
    const created = await api.apiKeys.create({ name: 'reporting', scopes: ['read:requests'] });
    expect(created.secret).toEqual(expect.any(String));
    expect((await api.apiKeys.list()).data.map((k) => k.id)).toContain(created.id);
    expect((await api.apiKeys.retrieve(created.id)).scopes).toEqual(['read:requests']);
    expect((await api.apiKeys.revoke(created.id)).status).toBe('revoked');
    await expect(new CommerceClient({ apiKey: created.secret, baseUrl: app.url }).buyerRequests.list()).rejects.toBeInstanceOf(UnauthorizedError);

    // The server's own routes.
    expect(await api.health()).toMatchObject({ status: 'ok' });
    expect((await api.openApiDocument()).openapi).toMatch(/^3\.1/);
  }, 40_000);

  it('maps the real server\'s errors to their classes', async () => {
    const invalid = await api.buyerRequests.create({ ...charizard, maxPrice: -5 }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', requestId: expect.any(String) });
    expect((invalid as ValidationError).issues).toEqual([expect.objectContaining({ path: 'maxPrice' })]);

    const missing = await api.secureTrades.retrieve('trd_01J0000000000000000000000').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const reader = await api.apiKeys.create({ name: 'reader', scopes: ['read:inventory'] });
    const narrow = new CommerceClient({ apiKey: reader.secret, baseUrl: app.url });
    expect((await narrow.inventory.list()).data).toEqual(expect.any(Array));
    const scope = await narrow.inventory.create({ ...charizard, price: 1 }).catch((error: unknown) => error);
    expect(scope).toBeInstanceOf(InsufficientScopeError);
    expect(scope).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'write:inventory' });

    const anonymous = await new CommerceClient({ baseUrl: app.url }).inventory.list().catch((error: unknown) => error);
    expect(anonymous).toBeInstanceOf(UnauthorizedError);
    expect(anonymous).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    // Every error is an ApiError, with its request id: the server's X-Request-Id.
    for (const error of [invalid, missing, scope, anonymous]) expect(error).toBeInstanceOf(ApiError);
  });

  it('sends an Idempotency-Key: the same key twice gives the same answer and one resource; with another body, an IdempotencyError', async () => {
    const body = { cardName: 'Mew', setName: 'Base', condition: 'NM', maxPrice: 90 };
    const idempotencyKey = 'client-e2e-mew-1';
    const first = await api.buyerRequests.create(body, { idempotencyKey });
    const again = await api.buyerRequests.create(body, { idempotencyKey });
    expect(again).toEqual(first);
    const mews = [];
    for await (const r of api.buyerRequests.list({ cardName: 'Mew' })) mews.push(r.id);
    expect(mews).toEqual([first.id]);

    const reused = await api.buyerRequests.create({ ...body, maxPrice: 95 }, { idempotencyKey }).catch((error: unknown) => error);
    expect(reused).toBeInstanceOf(IdempotencyError);
    expect(reused).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('retries a 429 after the server\'s Retry-After, and throws RateLimitedError with retryAfter when told not to retry', async () => {
    // A workspace of its own, limited to 2 requests a second (the CLI's override, seen by the
    // running server within a second).
    const limited = await createWorkspace(app.dataDir, 'client-limited');
    const set = await cli(app.dataDir, ['workspace', 'limits', '--workspace', 'client-limited', '--per-second', '2']);
    expect(set.code).toBe(0);
    await until('the server to apply the limit', async () => {
      const res = await http(app.url, 'GET', '/api/v1/buyer-requests', { key: limited.apiKey });
      return res.headers.get('ratelimit-policy')?.startsWith('"burst";q=2;') ? true : undefined;
    });

    const noRetry = new CommerceClient({ apiKey: limited.apiKey, baseUrl: app.url, maxRetries: 0 });
    // Eight at once: even across a window's end at most 2 + 2 get through.
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => noRetry.buyerRequests.list().then(() => 'ok', (error: unknown) => error)));
    const limitedErrors = outcomes.filter((o): o is RateLimitedError => o instanceof RateLimitedError);
    expect(limitedErrors.length).toBeGreaterThanOrEqual(4);
    expect(limitedErrors.length + outcomes.filter((o) => o === 'ok').length).toBe(8);
    expect(limitedErrors[0]).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 1 });

    // Five calls with retries: every one succeeds, the refused ones after waiting.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const statuses: number[] = [];
    const counting = (url: string, init: RequestInit) => fetch(url, init).then((res) => (statuses.push(res.status), res));
    const retrying = new CommerceClient({ apiKey: limited.apiKey, baseUrl: app.url, maxRetries: 4, fetch: counting });
    const started = Date.now();
    const pages = await Promise.all(Array.from({ length: 5 }, () => retrying.buyerRequests.list()));
    expect(pages.every((page) => Array.isArray(page.data))).toBe(true);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    // A refused call waited the server's second (retry_after: 1) before trying again.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  }, 20_000);
});
