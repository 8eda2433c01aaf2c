// Automation rules end to end, over HTTP on the real app: a seller's rule pair that counters buyer
// offers below 90 % of the list price (at 90 %) and accepts the others, driven by real offers; two
// rules that would counter each other forever stop at the chain bound with a recorded error; a
// rebuild of every projection and a restart (with the process manager's checkpoint lost) fire no
// rule again; scopes; the dry run; a disabled rule; another workspace's events.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, until } from './support/http';

interface Offer {
  id: string;
  status: string;
  from: string;
  amount: number;
  tradeId: string | null;
  counterOfferId: string | null;
  thread?: Offer[];
}
interface Run {
  id: string;
  automationId: string;
  trigger: { eventId: string; type: string; at: string };
  depth: number;
  outcome: string;
  effect: string | null;
  reason: string | null;
  caused: Array<{ id: string; type: string }>;
  error: { code: string; message: string; details?: Record<string, unknown> } | null;
  lagMs: number | null;
}
interface Rule {
  id: string;
  status: string;
  enabled: boolean;
  scopes: string[];
}
const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' };

describe('automations (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let otherKey: string;
  const call = <T>(method: string, path: string, body?: unknown, as = key) => http<T>(app.url, method, path, { key: as, body });
  const item = async (price: number, sku: string, as = key) =>
    (await call<{ id: string }>('POST', '/api/v1/inventory', { ...charizard, price, quantity: 5, sku }, as)).body.id;
  const rule = async (body: Record<string, unknown>, as = key) => {
    const res = await call<Rule>('POST', '/api/v1/automations', body, as);
    expect(res.status).toBe(201);
    return res.body;
  };
  const offer = async (inventoryItemId: string, amount: number, as = key) => {
    const res = await call<Offer>('POST', '/api/v1/offers', { inventoryItemId, amount, from: 'buyer' }, as);
    expect(res.status).toBe(201);
    return res.body;
  };
  const getOffer = async (id: string, as = key) => (await call<Offer>('GET', `/api/v1/offers/${id}`, undefined, as)).body;
  const runs = async (ruleId: string) => {
    const res = await call<{ data: Run[] }>('GET', `/api/v1/automations/${ruleId}/runs?limit=100`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const runOn = (ruleId: string, eventId: string) => until(`a finished run of ${ruleId} on ${eventId}`, async () => (await runs(ruleId)).find((r) => r.trigger.eventId === eventId && r.outcome !== 'running'));
  const createdEventOf = (offerId: string, as = key) =>
    until(`offer.created of ${offerId}`, async () => {
      const res = await call<{ data: Array<{ id: string; data: { offer_id: string } }> }>('GET', '/api/v1/events?type=offer.created&limit=100', undefined, as);
      return res.body.data.find((e) => e.data.offer_id === offerId)?.id;
    });
  const onItem = (id: string) => ({ field: 'inventory_item_id', op: 'eq', value: id });
  const fromBuyer = { field: 'from', op: 'eq', value: 'buyer' };

  let pairItem: string;
  let accept: Rule;
  let counter: Rule;
  let rejectLowball: Rule;

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'auto')).apiKey;
    otherKey = (await createWorkspace(app.dataDir, 'other')).apiKey;
    pairItem = await item(100, 'pair');
    accept = await rule({
      name: 'accept buyer offers at 90 % of list or more',
      trigger: { event: 'offer.created', conditions: [fromBuyer, onItem(pairItem)] },
      action: { type: 'accept_offer', params: { minPercentOfList: 90 } },
    });
    counter = await rule({
      name: 'counter buyer offers below 90 % of list, at 90 %',
      trigger: { event: 'offer.created', conditions: [fromBuyer, onItem(pairItem)] },
      action: { type: 'counter_offer', params: { belowPercentOfList: 90, percentOfList: 90, message: 'best I can do' } },
    });
    // Every buyer offer of this workspace, any item: only lowballs (under 50 %) are rejected.
    rejectLowball = await rule({
      name: 'reject lowballs',
      trigger: { event: 'offer.created', conditions: [fromBuyer] },
      action: { type: 'reject_offer', params: { belowPercentOfList: 50, reason: 'too low' } },
    });
  }, 60_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('counters an offer below 90 % of the list price at 90 %, and accepts one at 90 % or more', async () => {
    const low = await offer(pairItem, 80);
    const countered = await until('the low offer countered', async () => {
      const o = await getOffer(low.id);
      return o.status === 'countered' ? o : undefined;
    });
    const counterOffer = await getOffer(countered.counterOfferId!);
    expect(counterOffer).toMatchObject({ status: 'pending', from: 'seller', amount: 90 });

    const lowEvent = await createdEventOf(low.id);
    const counterRun = await runOn(counter.id, lowEvent);
    expect(counterRun).toMatchObject({ outcome: 'succeeded', depth: 0, trigger: { eventId: lowEvent, type: 'offer.created' }, error: null });
    expect(counterRun.effect).toContain('with 90 USD');
    expect(counterRun.caused.map((c) => c.type).sort()).toEqual(['offer.countered', 'offer.created']);
    expect(counterRun.lagMs).toBeGreaterThanOrEqual(0);
    // The counter-offer's own offer.created is one of the caused events: it names the same offer.
    const counterEvent = await createdEventOf(counterOffer.id);
    expect(counterRun.caused.map((c) => c.id)).toContain(counterEvent);
    expect(await runOn(accept.id, lowEvent)).toMatchObject({ outcome: 'skipped' });
    expect((await runOn(accept.id, lowEvent)).reason).toContain('below 90 %');
    expect((await runOn(rejectLowball.id, lowEvent)).outcome).toBe('skipped');
    // The seller's counter-offer meets no rule (from seller), and is no rule's trigger.
    for (const r of [accept, counter, rejectLowball]) expect((await runs(r.id)).some((run) => run.trigger.eventId === counterEvent)).toBe(false);

    const fair = await offer(pairItem, 90);
    const accepted = await until('the fair offer accepted', async () => {
      const o = await getOffer(fair.id);
      return o.status === 'accepted' ? o : undefined;
    });
    expect(accepted.tradeId).toMatch(/^trd_/);
    const fairEvent = await createdEventOf(fair.id);
    const acceptRun = await runOn(accept.id, fairEvent);
    expect(acceptRun.outcome).toBe('succeeded');
    expect(acceptRun.caused.map((c) => c.type)).toEqual(expect.arrayContaining(['offer.accepted', 'trade.initiated']));
    expect((await runOn(counter.id, fairEvent)).outcome).toBe('skipped');
  });

  it('creates an offer for a match, places a hold, archives a buyer request and reprices an item, each on its trigger', async () => {
    const post = async <T>(path: string, body: unknown) => {
      const res = await call<T & { id: string }>('POST', path, body);
      expect(res.status).toBe(201);
      return res.body;
    };
    // create_offer on match.created: a seller offer at 90 % of the list price, for the matched request.
    const dragonite = await post<{ id: string }>('/api/v1/inventory', { cardName: 'Dragonite', setName: 'Fossil', condition: 'NM', price: 100, sku: 'auto-offer' });
    const offering = await rule({
      name: 'offer matched buyers 90 % of list',
      trigger: { event: 'match.created', conditions: [onItem(dragonite.id), { field: 'kind', op: 'eq', value: 'full' }] },
      action: { type: 'create_offer', params: { percentOfList: 90, message: 'for you' } },
    });
    const wanted = await post<{ id: string; matchCount: number }>('/api/v1/buyer-requests', { cardName: 'Dragonite', setName: 'Fossil', condition: 'LP', maxPrice: 150 });
    expect(wanted.matchCount).toBe(1);
    const made = await until('the rule\'s offer', async () => (await call<{ data: Offer[] }>('GET', `/api/v1/offers?buyerRequestId=${wanted.id}`)).body.data[0]);
    expect(made).toMatchObject({ from: 'seller', amount: 90, status: 'pending' });
    const [offerRun] = await runs(offering.id);
    expect(offerRun).toMatchObject({ outcome: 'succeeded', trigger: { type: 'match.created' } });
    expect(offerRun.caused.map((c) => c.type)).toEqual(['offer.created']);

    // place_hold on inventory.created: the new item's unit held with a 10 % deposit.
    await rule({
      name: 'hold every new Mewtwo',
      trigger: { event: 'inventory.created', conditions: [{ field: 'card_name', op: 'eq', value: 'Mewtwo' }] },
      action: { type: 'place_hold', params: { quantity: 1, depositPercentOfList: 10, expiresInHours: 2 } },
    });
    const mewtwo = await post<{ id: string }>('/api/v1/inventory', { cardName: 'Mewtwo', setName: 'Base', condition: 'NM', price: 50, sku: 'auto-hold' });
    const hold = await until('the rule\'s hold', async () => (await call<{ data: Array<{ status: string; depositAmount: number; quantity: number }> }>('GET', `/api/v1/holds?inventoryItemId=${mewtwo.id}`)).body.data[0]);
    expect(hold).toMatchObject({ status: 'active', depositAmount: 5, quantity: 1 });
    expect((await call<{ availableQuantity: number }>('GET', `/api/v1/inventory/${mewtwo.id}`)).body.availableQuantity).toBe(0);

    // archive_buyer_request on buyer_request.created from a source the seller does not serve.
    await rule({
      name: 'archive spam requests',
      trigger: { event: 'buyer_request.created', conditions: [{ field: 'source', op: 'eq', value: 'spam-bot' }] },
      action: { type: 'archive_buyer_request', params: { reason: 'spam' } },
    });
    const spam = await post<{ id: string }>('/api/v1/buyer-requests', { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', maxPrice: 1, source: 'spam-bot' });
    const fine = await post<{ id: string }>('/api/v1/buyer-requests', { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', maxPrice: 1, source: 'shop' });
    await until('the spam request archived', async () => ((await call<{ status: string }>('GET', `/api/v1/buyer-requests/${spam.id}`)).body.status === 'archived' ? true : undefined));
    expect((await call<{ status: string }>('GET', `/api/v1/buyer-requests/${fine.id}`)).body.status).toBe('open');

    // reprice_item on inventory.created: 10 % off every new Gengar; its own inventory.updated fires nothing more.
    const reprice = await rule({
      name: '10 % off new Gengars',
      trigger: { event: 'inventory.created', conditions: [{ field: 'card_name', op: 'eq', value: 'Gengar' }] },
      action: { type: 'reprice_item', params: { percentOfPrice: 90 } },
    });
    const gengar = await post<{ id: string }>('/api/v1/inventory', { cardName: 'Gengar', setName: 'Fossil', condition: 'NM', price: 40, sku: 'auto-reprice' });
    await until('the Gengar repriced', async () => ((await call<{ price: number }>('GET', `/api/v1/inventory/${gengar.id}`)).body.price === 36 ? true : undefined));
    const repriceRuns = await until('the reprice run', async () => {
      const found = await runs(reprice.id);
      return found.length > 0 && found.every((r) => r.outcome !== 'running') ? found : undefined;
    });
    expect(repriceRuns.map((r) => [r.outcome, r.caused.map((c) => c.type)])).toEqual([['succeeded', ['inventory.updated']]]);
  });

  it('stops two rules that counter each other at the chain bound, with a failed run', async () => {
    const loopItem = await item(100, 'loop');
    const seller = await rule({
      name: 'seller counters buyer offers at 95 %',
      trigger: { event: 'offer.created', conditions: [fromBuyer, onItem(loopItem)] },
      action: { type: 'counter_offer', params: { percentOfList: 95 } },
    });
    const buyer = await rule({
      name: 'buyer counters seller offers at 85 %',
      trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'seller' }, onItem(loopItem)] },
      action: { type: 'counter_offer', params: { party: 'buyer', percentOfList: 85 } },
    });
    const first = await offer(loopItem, 80);
    const stopped = await until('the buyer rule stopped at the bound', async () => (await runs(buyer.id)).find((r) => r.outcome === 'failed'));
    expect(stopped.error).toMatchObject({ code: 'AUTOMATION_CHAIN_TOO_DEEP', details: { depth: 3, maxDepth: 3 } });
    expect(stopped.depth).toBe(3);
    expect(stopped.caused).toEqual([]);

    const sellerRuns = await runs(seller.id);
    const buyerRuns = await runs(buyer.id);
    expect(sellerRuns.map((r) => [r.outcome, r.depth]).sort()).toEqual([['succeeded', 0], ['succeeded', 2]]);
    expect(buyerRuns.map((r) => [r.outcome, r.depth]).sort()).toEqual([['failed', 3], ['succeeded', 1]]);
    // 80 (buyer) → 95 (seller) → 85 (buyer) → 95 (seller), which stays pending.
    const thread = (await getOffer(first.id)).thread!;
    expect(thread.map((o) => [o.from, o.amount, o.status])).toEqual([
      ['buyer', 80, 'countered'],
      ['seller', 95, 'countered'],
      ['buyer', 85, 'countered'],
      ['seller', 95, 'pending'],
    ]);
  });

  it('refuses a rule whose action the key could not do (403 INSUFFICIENT_SCOPE), and records the scopes of the key that set it', async () => {
    const limited = await cli(app.dataDir, ['key', 'create', '--workspace', 'auto', '--name', 'limited', '--scopes', 'read:trades,write:requests,write:inventory']);
    const tradesOnly = await cli(app.dataDir, ['key', 'create', '--workspace', 'auto', '--name', 'trades', '--scopes', 'write:trades']);
    const [limitedKey, tradesKey] = [limited, tradesOnly].map((r) => r.json<{ secret: string }>().secret);
    const body = { name: 'x', trigger: { event: 'offer.created', conditions: [] }, action: { type: 'accept_offer' } };
    const refused = await call<ErrorBody>('POST', '/api/v1/automations', body, limitedKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'write:trades' } });
    const reprice = await call<ErrorBody>('POST', '/api/v1/automations', { ...body, trigger: { event: 'inventory.updated', conditions: [] }, action: { type: 'reprice_item', params: { percentOfPrice: 95 } } }, tradesKey);
    expect(reprice.status).toBe(403);
    expect(reprice.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'write:inventory' } });
    const made = await call<Rule>('POST', '/api/v1/automations', body, tradesKey);
    expect(made.status).toBe(201);
    expect(made.body.scopes).toEqual(['write:trades']);
    expect((await call('DELETE', `/api/v1/automations/${made.body.id}`, undefined, tradesKey)).status).toBe(200);
    // Bad rules: 400 with the field named.
    const unknownType = await call<ErrorBody>('POST', '/api/v1/automations', { ...body, trigger: { event: 'automation_run.started', conditions: [] } });
    expect(unknownType).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    const noOffer = await call<ErrorBody>('POST', '/api/v1/automations', { ...body, trigger: { event: 'inventory.created', conditions: [] } });
    expect(noOffer.status).toBe(400);
    expect(noOffer.body.message).toContain('offer_id');
    const badField = await call<ErrorBody>('POST', '/api/v1/automations', { ...body, trigger: { event: 'offer.created', conditions: [{ field: 'price', op: 'gt', value: 1 }] } });
    expect(badField.status).toBe(400);
  });

  it('never fires a disabled rule; the dry run shows what it would do and does nothing', async () => {
    const quietItem = await item(100, 'quiet');
    const quiet = await rule({
      name: 'accept everything on the quiet item',
      trigger: { event: 'offer.created', conditions: [fromBuyer, onItem(quietItem)] },
      action: { type: 'accept_offer' },
      enabled: false,
    });
    const waiting = await offer(quietItem, 70);
    const event = await createdEventOf(waiting.id);
    // The process manager has handled the offer once a later offer's run is recorded (log order).
    const marker = await offer(pairItem, 95);
    await runOn(accept.id, await createdEventOf(marker.id));
    expect(await runs(quiet.id)).toEqual([]);
    expect((await getOffer(waiting.id)).status).toBe('pending');

    const off = await call<{ wouldFire: boolean; outcome: string; reason: string }>('POST', `/api/v1/automations/${quiet.id}/test`, { eventId: event });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ wouldFire: false, outcome: 'not_fired', reason: 'the rule is disabled' });
    expect((await call('PATCH', `/api/v1/automations/${quiet.id}`, { enabled: true })).status).toBe(200);
    const on = await call<{ wouldFire: boolean; outcome: string; effect: string; alreadyRan: boolean }>('POST', `/api/v1/automations/${quiet.id}/test`, { eventId: event });
    expect(on.body).toMatchObject({ wouldFire: true, outcome: 'succeeded', alreadyRan: false });
    expect(on.body.effect).toContain(`accept offer ${waiting.id}`);
    // Nothing was done or recorded.
    expect((await getOffer(waiting.id)).status).toBe('pending');
    expect(await runs(quiet.id)).toEqual([]);
    const unknown = await call<ErrorBody>('POST', `/api/v1/automations/${quiet.id}/test`, { eventId: 'evt_0196b2a4c1d27f0e8a1b2c3d4e5f6a7b' });
    expect(unknown.status).toBe(404);
    expect((await call('DELETE', `/api/v1/automations/${quiet.id}`)).body).toMatchObject({ status: 'archived' });
    expect((await call('DELETE', `/api/v1/automations/${quiet.id}`)).status).toBe(200);
    expect((await call<ErrorBody>('PATCH', `/api/v1/automations/${quiet.id}`, { enabled: false })).body.code).toBe('INVALID_TRANSITION');
  });

  it('never fires on another workspace\'s events, nor shows its rules', async () => {
    const theirs = await item(100, 'theirs', otherKey);
    const lowball = await offer(theirs, 10, otherKey);
    const marker = await offer(pairItem, 96);
    await runOn(accept.id, await createdEventOf(marker.id));
    expect((await getOffer(lowball.id, otherKey)).status).toBe('pending');
    const theirEvent = await createdEventOf(lowball.id, otherKey);
    expect((await runs(rejectLowball.id)).some((r) => r.trigger.eventId === theirEvent)).toBe(false);
    expect((await call('GET', `/api/v1/automations/${accept.id}`, undefined, otherKey)).status).toBe(404);
    expect((await call('GET', `/api/v1/automations/${accept.id}/runs`, undefined, otherKey)).status).toBe(404);
    expect((await call('POST', `/api/v1/automations/${accept.id}/test`, { eventId: theirEvent })).status).toBe(404);
  });

  it('fires no rule again after a rebuild of every projection and a restart that lost the process manager\'s checkpoint', async () => {
    const rules = (await call<{ data: Rule[] }>('GET', '/api/v1/automations?limit=100')).body.data;
    const before = new Map<string, string[]>();
    for (const r of rules) before.set(r.id, (await runs(r.id)).map((run) => `${run.id}:${run.outcome}`).sort());
    const offersBefore = (await call<{ data: Offer[] }>('GET', '/api/v1/offers?limit=100')).body.data.map((o) => `${o.id}:${o.status}`).sort();

    await app.stop();
    const rebuilt = await cli(app.dataDir, ['projections', 'rebuild', '--all']);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.json<{ rebuilt: string[] }>().rebuilt).toEqual(expect.arrayContaining(['automations', 'automation_runs']));
    // The process manager replays the whole log: only the claims stop it from firing again.
    const db = new DatabaseSync(join(app.dataDir, 'eventual.db')); // the process managers' checkpoints
    db.prepare('DELETE FROM "c_process_manager_checkpoints" WHERE id = ?').run('automations');
    db.close();
    app = await startApp({ dataDir: app.dataDir });

    const marker = await offer(pairItem, 97);
    const markerEvent = await createdEventOf(marker.id);
    await runOn(accept.id, markerEvent);
    for (const r of rules) {
      const after = await runs(r.id);
      const old = after.filter((run) => run.trigger.eventId !== markerEvent).map((run) => `${run.id}:${run.outcome}`).sort();
      expect(old).toEqual(before.get(r.id));
    }
    const offersAfter = (await call<{ data: Offer[] }>('GET', '/api/v1/offers?limit=100')).body.data.filter((o) => o.id !== marker.id).map((o) => `${o.id}:${o.status}`).sort();
    expect(offersAfter).toEqual(offersBefore);
  }, 60_000);
});
