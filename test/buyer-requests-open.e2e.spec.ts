// Buyer requests with open fields over HTTP on the real app (issue 34 item 1): only `cardName` is
// required — no set is any printing, no condition any condition, no maxPrice any price. Instant
// matching at POST, reverse matching of new stock, match runs saying "any set requested", PATCH
// opening and closing fields with null, the list filters, webhook-facing public event data, and
// validation errors still `{code, message, details}`.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http, until } from './support/http';

interface Created {
  id: string;
  matchCount: number;
}
interface BuyerRequest extends Created {
  status: string;
  cardName: string;
  setName: string | null;
  condition: string | null;
  maxPrice: number | null;
}
interface PackedMatch {
  inventoryItemId: string;
  kind: 'full' | 'near_miss';
  reasons: string[];
}
interface ErrorBody {
  code: string;
  message: string;
  details?: { issues?: Array<{ path: string; message: string }> };
}

describe('buyer requests with open fields (e2e)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp();
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const post = <T>(key: string, path: string, body: unknown) => http<T>(app.url, 'POST', path, { key, body });
  const get = <T>(key: string, path: string) => http<T>(app.url, 'GET', path, { key });
  const patch = <T>(key: string, path: string, body: unknown) => http<T>(app.url, 'PATCH', path, { key, body });

  async function stock(key: string, item: Record<string, unknown>): Promise<string> {
    const res = await post<{ id: string }>(key, '/api/v1/inventory', item);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  it('POST with only cardName is 201 and matches the card in any set, condition and price', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'anyprint');
    const base = await stock(key, { cardName: 'Charizard', setName: 'Base', condition: 'Heavily Played', price: 900 });
    const base2 = await stock(key, { cardName: 'Charizard', setName: 'Base Set 2', condition: 'PSA 9', price: 4200 });
    const typed = await stock(key, { cardName: 'Charizard', setName: 'My Binder', condition: 'Shiny', price: 5 });
    await stock(key, { cardName: 'Blastoise', setName: 'Base', condition: 'Near Mint', price: 100 });
    await stock(key, { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 100, currency: 'EUR' });

    const created = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'charizard' });
    expect(created.status).toBe(201);
    expect(created.body.matchCount).toBe(3);

    const read = await get<BuyerRequest & { currency: string }>(key, `/api/v1/buyer-requests/${created.body.id}`);
    expect(read.body).toMatchObject({ cardName: 'Charizard', setName: null, condition: null, maxPrice: null, currency: 'USD', status: 'matched', matchCount: 3 });
    const matches = await get<{ data: PackedMatch[] }>(key, `/api/v1/buyer-requests/${created.body.id}/matches`);
    expect(matches.body.data.map((m) => m.inventoryItemId).sort()).toEqual([base, base2, typed].sort());
    const reasons = matches.body.data.find((m) => m.inventoryItemId === base2)?.reasons;
    expect(reasons).toEqual(['same card', 'any set requested (Base Set 2)', 'any condition requested (offered PSA 9)', 'any price requested (offered at 4200.00 USD)']);

    // A match run says the same, and finds no near miss on an open field.
    const run = await post<{ matches: PackedMatch[]; fullCount: number }>(key, '/api/v1/match-runs', { buyerRequestId: created.body.id });
    expect(run.status).toBe(201);
    expect(run.body.fullCount).toBe(3);
    expect(run.body.matches.every((m) => m.reasons.includes('same card') && m.reasons.some((r) => r.startsWith('any set requested')))).toBe(true);

    // null says the same as absent.
    const nulls = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Charizard', setName: null, condition: null, maxPrice: null });
    expect(nulls.body.matchCount).toBe(3);
    // Some fields open, others given: any set, at least Heavily Played… up to 1000.
    const some = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Charizard', condition: 'HP', maxPrice: 1000 });
    expect(some.body.matchCount).toBe(1);
  });

  it('an unknown set given explicitly is kept as typed and matches only stock typed so (not any set)', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'typedset');
    const mine = await stock(key, { cardName: 'Charizard', setName: 'My Binder', condition: 'NM', price: 5 });
    await stock(key, { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: 5 });
    const created = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Charizard', setName: 'my binder' });
    expect(created.body.matchCount).toBe(1);
    const read = await get<BuyerRequest>(key, `/api/v1/buyer-requests/${created.body.id}`);
    expect(read.body.setName).toBe('my binder');
    const matches = await get<{ data: PackedMatch[] }>(key, `/api/v1/buyer-requests/${created.body.id}/matches`);
    expect(matches.body.data.map((m) => m.inventoryItemId)).toEqual([mine]);
  });

  it('new stock is matched against open requests (reverse matching by card, any condition, any price)', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'reverseopen');
    const open = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Pikachu' });
    const anyCondition = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Pikachu', setName: 'Jungle', maxPrice: 20 });
    const tooCheap = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Pikachu', maxPrice: 1 });
    expect(open.body.matchCount).toBe(0);

    await stock(key, { cardName: 'Pikachu', setName: 'Jungle', condition: 'Damaged', price: 12 });
    await eventually(async () => (await get<BuyerRequest>(key, `/api/v1/buyer-requests/${open.body.id}`)).body.matchCount === 1);
    await eventually(async () => (await get<BuyerRequest>(key, `/api/v1/buyer-requests/${anyCondition.body.id}`)).body.matchCount === 1);
    // Another printing: only the any-set request takes it.
    await stock(key, { cardName: 'Pikachu', setName: 'Base', condition: 'Near Mint', price: 15 });
    await eventually(async () => (await get<BuyerRequest>(key, `/api/v1/buyer-requests/${open.body.id}`)).body.matchCount === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${anyCondition.body.id}`)).body.matchCount).toBe(1);
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${tooCheap.body.id}`)).body.matchCount).toBe(0);
  });

  it('PATCH opens a field with null and closes it again; the list filters tell open from given', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'patchopen');
    await stock(key, { cardName: 'Mewtwo', setName: 'Base Set 2', condition: 'LP', price: 60 });
    const created = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Mewtwo', setName: 'Base', condition: 'NM', maxPrice: 50 });
    expect(created.body.matchCount).toBe(0);
    const path = `/api/v1/buyer-requests/${created.body.id}`;

    const opened = await patch<BuyerRequest>(key, path, { setName: null, condition: null, maxPrice: null });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ setName: null, condition: null, maxPrice: null, status: 'matched', matchCount: 1 });
    expect((await get<{ data: Array<{ id: string }> }>(key, '/api/v1/buyer-requests?anySet=true')).body.data.map((r) => r.id)).toEqual([created.body.id]);
    expect((await get<{ data: unknown[] }>(key, '/api/v1/buyer-requests?anyPrice=true')).body.data).toHaveLength(1);

    const closed = await patch<BuyerRequest>(key, path, { setName: 'Base', condition: 'Near Mint', maxPrice: 45 });
    expect(closed.body).toMatchObject({ setName: 'Base', condition: 'Near Mint', maxPrice: 45 });
    expect((await get<{ data: unknown[] }>(key, '/api/v1/buyer-requests?anySet=true')).body.data).toEqual([]);
    expect((await get<{ data: unknown[] }>(key, '/api/v1/buyer-requests?anySet=false&anyCondition=false&anyPrice=false')).body.data).toHaveLength(1);
    // Absent leaves a field as it is.
    const price = await patch<BuyerRequest>(key, path, { maxPrice: null });
    expect(price.body).toMatchObject({ setName: 'Base', condition: 'Near Mint', maxPrice: null });
  });

  it('validation errors stay {code, message, details}', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'openerrors');
    const none = await post<ErrorBody>(key, '/api/v1/buyer-requests', { setName: 'Base' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    expect(none.body.details?.issues).toEqual([expect.objectContaining({ path: 'cardName' })]);
    const blank = await post<ErrorBody>(key, '/api/v1/buyer-requests', { cardName: 'Charizard', setName: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.details?.issues).toEqual([expect.objectContaining({ path: 'setName' })]);
    const both = await get<ErrorBody>(key, '/api/v1/buyer-requests?setName=Base&anySet=true');
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('VALIDATION_FAILED');
    const flag = await get<ErrorBody>(key, '/api/v1/buyer-requests?anySet=yes');
    expect(flag.status).toBe(400);
    expect(flag.body.details?.issues).toEqual([expect.objectContaining({ path: 'anySet' })]);
  });

  it('the buyer_request.created event data carries null for open fields', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'openevents');
    const created = await post<Created>(key, '/api/v1/buyer-requests', { cardName: 'Onix' });
    let data: Record<string, unknown> | undefined;
    await eventually(async () => {
      const events = await get<{ data: Array<{ type: string; data: Record<string, unknown> }> }>(key, '/api/v1/events?type=buyer_request.created');
      data = events.body.data?.find((e) => e.data.buyer_request_id === created.body.id)?.data;
      return data !== undefined;
    });
    expect(data).toEqual({ buyer_request_id: created.body.id, card_name: 'Onix', set_name: null, condition: null, max_price: null, currency: 'USD', source: null });
  });
});

/** The shared poller (support/http `until`), for a yes/no probe. */
function eventually(probe: () => Promise<boolean>): Promise<true> {
  return until('the condition', async () => ((await probe()) ? true : undefined));
}
