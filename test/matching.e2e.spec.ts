// Demand meets supply over HTTP on the real app: instant match counts, reverse matching when
// stock arrives (one item, a reprice, an intake push), match runs with near misses, archiving.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http, until } from './support/http';

interface Created {
  id: string;
  matchCount: number;
}
interface BuyerRequest extends Created {
  status: string;
  cardName: string;
  setName: string;
  condition: string;
}
interface PackedMatch {
  id: string;
  inventoryItemId: string;
  kind: 'full' | 'near_miss';
  score: number;
  factors: Array<{ name: string; contribution: number }>;
  reasons: string[];
}
interface MatchPack {
  id: string;
  buyerRequestId: string;
  matches: PackedMatch[];
  fullCount: number;
  nearMissCount: number;
}

describe('matching (e2e)', () => {
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

  async function stock(key: string, item: Record<string, unknown>): Promise<string> {
    const res = await post<{ id: string }>(key, '/api/v1/inventory', item);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function want(key: string, body: Record<string, unknown>): Promise<Created> {
    const res = await post<Created>(key, '/api/v1/buyer-requests', body);
    expect(res.status).toBe(201);
    return res.body;
  }

  it('a request created after matching stock exists gets matchCount > 0 at once', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'instant');
    await stock(key, { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 400 });
    await stock(key, { cardName: 'charizard', setName: 'BS', condition: 'Mint', price: 450 });
    // Not matches: too dear, too worn, another set, another currency.
    await stock(key, { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 451 });
    await stock(key, { cardName: 'Charizard', setName: 'Base', condition: 'Lightly Played', price: 100 });
    await stock(key, { cardName: 'Charizard', setName: 'Jungle', condition: 'Near Mint', price: 100 });
    await stock(key, { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 100, currency: 'EUR' });

    const created = await want(key, { cardName: 'CHARIZARD', setName: 'Base Set', condition: 'NM', maxPrice: 450 });
    expect(created.matchCount).toBe(2);
    const read = await get<BuyerRequest>(key, `/api/v1/buyer-requests/${created.id}`);
    expect(read.body).toMatchObject({ status: 'matched', matchCount: 2, cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' });
    const matches = await get<{ data: PackedMatch[] }>(key, `/api/v1/buyer-requests/${created.id}/matches`);
    expect(matches.body.data).toHaveLength(2);
    expect(matches.body.data.every((m) => m.kind === 'full')).toBe(true);
  });

  it('a request that matches 3 items at once appends 2 events: the request, and one carrying its matches', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'events-per-write');
    for (const price of [300, 350, 400]) await stock(key, { cardName: 'Venusaur', setName: 'Base', condition: 'Near Mint', price });
    const created = await want(key, { cardName: 'Venusaur', setName: 'Base', condition: 'NM', maxPrice: 450 });
    expect(created.matchCount).toBe(3);
    const db = new DatabaseSync(join(app.dataDir, 'events.db'), { readOnly: true });
    let stored: Array<{ type: string; data: string }>;
    try {
      stored = db.prepare('SELECT type, data FROM events WHERE stream_id = ? ORDER BY position').all(`buyer_request-${created.id}`) as typeof stored;
    } finally {
      db.close();
    }
    expect(stored.map((e) => e.type)).toEqual(['buyer_request.created', 'buyer_request.matches_recorded']);
    const recorded = JSON.parse(stored[1].data) as { created: unknown[]; full: unknown[]; matchCount: number };
    expect({ created: recorded.created.length, full: recorded.full.length, matchCount: recorded.matchCount }).toEqual({ created: 3, full: 3, matchCount: 3 });
    // The answers are as before: the request, and its three matches.
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${created.id}`)).body).toMatchObject({ status: 'matched', matchCount: 3 });
    expect((await get<{ data: PackedMatch[] }>(key, `/api/v1/buyer-requests/${created.id}/matches`)).body.data).toHaveLength(3);
  });

  it('a request created before the stock is matched when the stock is pushed through intake', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'intake-push');
    const early = await want(key, { cardName: 'Blastoise', setName: 'Base', condition: 'LP', maxPrice: 120 });
    const other = await want(key, { cardName: 'Venusaur', setName: 'Base', condition: 'NM', maxPrice: 80 });
    expect(early.matchCount).toBe(0);

    const session = await post<{ id: string }>(key, '/api/v1/ingestion/sessions', {});
    expect(session.status).toBe(201);
    const rows = [
      { cardName: 'blastoise', setName: 'BS', condition: 'NM', price: '$99.00' },
      { cardName: 'Pikachu', setName: 'Base', condition: 'NM', price: '$5.00' },
      { cardName: '', setName: 'Base', condition: 'NM', price: '$5.00' },
    ];
    const added = await post(key, `/api/v1/ingestion/sessions/${session.body.id}/items`, rows);
    expect(added.status).toBeLessThan(300);
    const pushed = await post<{ pushed: number; skipped: number; matchedBuyerRequests: number }>(
      key,
      `/api/v1/ingestion/sessions/${session.body.id}/push`,
      {},
    );
    expect(pushed.status).toBeLessThan(300);
    expect(pushed.body).toMatchObject({ pushed: 2, skipped: 1, matchedBuyerRequests: 1 });

    const read = await get<BuyerRequest>(key, `/api/v1/buyer-requests/${early.id}`);
    expect(read.body).toMatchObject({ status: 'matched', matchCount: 1 });
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${other.id}`)).body).toMatchObject({ status: 'open', matchCount: 0 });

    // Its match pack lists the pushed item, and the pack is listed for the request.
    const items = await get<{ data: Array<{ id: string; cardName: string }> }>(key, '/api/v1/inventory?cardName=Blastoise');
    expect(items.body.data).toHaveLength(1);
    const run = await post<MatchPack>(key, '/api/v1/match-runs', { buyerRequestId: early.id });
    expect(run.status).toBe(201);
    expect(run.body.id).toMatch(/^mp_/);
    expect(run.body.matches.filter((m) => m.kind === 'full').map((m) => m.inventoryItemId)).toEqual([items.body.data[0].id]);
    const recorded = await get<{ data: PackedMatch[] }>(key, `/api/v1/buyer-requests/${early.id}/matches`);
    expect(run.body.matches[0].id).toBe(recorded.body.data[0].id);
    const packs = await get<{ data: MatchPack[] }>(key, `/api/v1/match-packs?buyerRequestId=${early.id}`);
    expect(packs.body.data.map((p) => p.id)).toEqual([run.body.id]);
    expect((await get<MatchPack>(key, `/api/v1/match-packs/${run.body.id}`)).body).toEqual(run.body);
  });

  it('a new item and a repriced item are matched against open requests (reverse matching)', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'reverse');
    const request = await want(key, { cardName: 'Mewtwo', setName: 'Base', condition: 'LP', maxPrice: 50 });
    const dear = await stock(key, { cardName: 'Mewtwo', setName: 'Base', condition: 'NM', price: 80 });
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${request.id}`)).body.matchCount).toBe(0);

    const repriced = await http(app.url, 'PATCH', `/api/v1/inventory/${dear}`, { key, body: { price: 45 } });
    expect(repriced.status).toBe(200);
    await until('the first match', async () => (await get<BuyerRequest>(key, `/api/v1/buyer-requests/${request.id}`)).body.matchCount === 1 || undefined, 60_000);

    await stock(key, { cardName: 'mewtwo', setName: 'base1', condition: 'Mint', price: 50 });
    await until('the second match', async () => (await get<BuyerRequest>(key, `/api/v1/buyer-requests/${request.id}`)).body.matchCount === 2 || undefined, 60_000);
  });

  it('a match run lists near misses with lower scores and reasons; full matches first', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'near-misses');
    const full = await stock(key, { cardName: 'Nidorino', setName: 'Base', condition: 'NM', price: 60 });
    // One letter from Nidorino and from Nidoking, both printed in Base: not corrected, a typo near miss.
    const typo = await stock(key, { cardName: 'Nidoring', setName: 'Base', condition: 'NM', price: 60 });
    const worn = await stock(key, { cardName: 'Nidorino', setName: 'Base', condition: 'LP', price: 60 });
    const dear = await stock(key, { cardName: 'Nidorino', setName: 'Base', condition: 'NM', price: 65 });
    await stock(key, { cardName: 'Nidorino', setName: 'Base', condition: 'NM', price: 70 }); // 17 % over: nothing
    const request = await want(key, { cardName: 'Nidorino', setName: 'Base', condition: 'Near Mint', maxPrice: 60 });
    expect(request.matchCount).toBe(1);

    const run = await post<MatchPack>(key, '/api/v1/match-runs', { buyerRequestId: request.id });
    expect(run.status).toBe(201);
    expect(run.body.fullCount).toBe(1);
    expect(run.body.matches[0]).toMatchObject({ inventoryItemId: full, kind: 'full' });
    const near = run.body.matches.filter((m) => m.kind === 'near_miss');
    expect(near.map((m) => m.inventoryItemId).sort()).toEqual([typo, worn, dear].sort());
    for (const m of near) {
      expect(m.score).toBeLessThan(run.body.matches[0].score);
      expect(m.reasons.some((r) => r.startsWith('near miss'))).toBe(true);
      const total = m.factors.reduce((s, f) => s + f.contribution, 0);
      expect(Math.abs(total - m.score)).toBeLessThan(0.001);
    }
    // A second run keeps the ids of the pairs it already knows.
    const again = await post<MatchPack>(key, '/api/v1/match-runs', { buyerRequestId: request.id });
    expect(again.body.matches.map((m) => m.id).sort()).toEqual(run.body.matches.map((m) => m.id).sort());
  });

  it('a name one letter or a space off the one card its set prints is that card: corrected, said so, fully matched', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'corrections');
    const listed = await post<{ id: string; cardName: string; normalization: Record<string, { changes: string[]; confidence: number }> }>(
      key,
      '/api/v1/inventory',
      { cardName: 'Ninetals', setName: 'Base', condition: 'NM', price: 60 },
    );
    expect(listed.status).toBe(201);
    expect(listed.body.cardName).toBe('Ninetales');
    expect(listed.body.normalization.cardName).toMatchObject({ changes: ['corrected "Ninetals" to "Ninetales" (one letter off)'], confidence: 0.8 });
    await stock(key, { cardName: 'ZekromGX', setName: 'SM Black Star Promos', condition: 'NM', price: 30 });

    const typo = await want(key, { cardName: 'Nientales', setName: 'BS', condition: 'NM', maxPrice: 60 });
    expect(typo.matchCount).toBe(1);
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${typo.id}`)).body.cardName).toBe('Ninetales');
    expect((await want(key, { cardName: 'Zekrom GX', setName: 'smp', condition: 'NM', maxPrice: 30 })).matchCount).toBe(1);

    // Two cards of the set as close (Nidorino, Nidoking): nothing corrected, no full match; a near miss.
    const nidorino = await stock(key, { cardName: 'Nidorino', setName: 'Base', condition: 'NM', price: 20 });
    const unsure = await want(key, { cardName: 'Nidoring', setName: 'Base', condition: 'NM', maxPrice: 20 });
    expect(unsure.matchCount).toBe(0);
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${unsure.id}`)).body.cardName).toBe('Nidoring');
    const run = await post<MatchPack>(key, '/api/v1/match-runs', { buyerRequestId: unsure.id });
    expect(run.body).toMatchObject({ fullCount: 0, nearMissCount: 1, matches: [{ inventoryItemId: nidorino, kind: 'near_miss' }] });
    expect(run.body.matches[0].reasons[0]).toMatch(/^near miss: card name "Nidorino" differs from "Nidoring" by a typo/);
  });

  it('archived requests stop matching', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'archive');
    const request = await want(key, { cardName: 'Gyarados', setName: 'Base', condition: 'HP', maxPrice: 30 });
    const archived = await post<BuyerRequest>(key, `/api/v1/buyer-requests/${request.id}/archive`, { reason: 'bought elsewhere' });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String) });

    await stock(key, { cardName: 'Gyarados', setName: 'Base', condition: 'NM', price: 10 });
    const session = await post<{ id: string }>(key, '/api/v1/ingestion/sessions', {});
    await post(key, `/api/v1/ingestion/sessions/${session.body.id}/items`, [{ cardName: 'Gyarados', setName: 'Base', condition: 'NM', price: 12 }]);
    const pushed = await post<{ matchedBuyerRequests: number }>(key, `/api/v1/ingestion/sessions/${session.body.id}/push`, {});
    expect(pushed.body.matchedBuyerRequests).toBe(0);
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${request.id}`)).body).toMatchObject({ status: 'archived', matchCount: 0 });

    const run = await post<{ code: string }>(key, '/api/v1/match-runs', { buyerRequestId: request.id });
    expect(run.status).toBe(409);
    expect(run.body.code).toBe('INVALID_TRANSITION');
    const change = await http<{ code: string }>(app.url, 'PATCH', `/api/v1/buyer-requests/${request.id}`, { key, body: { maxPrice: 40 } });
    expect(change.status).toBe(409);
  });

  it('changing a request checks the new criteria at once', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'patch');
    await stock(key, { cardName: 'Zapdos', setName: 'Fossil', condition: 'NM', price: 40 });
    const request = await want(key, { cardName: 'Zapdos', setName: 'Fossil', condition: 'NM', maxPrice: 30 });
    expect(request.matchCount).toBe(0);
    const changed = await http<BuyerRequest>(app.url, 'PATCH', `/api/v1/buyer-requests/${request.id}`, { key, body: { maxPrice: 40 } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ matchCount: 1, status: 'matched' });
    const empty = await http<{ code: string }>(app.url, 'PATCH', `/api/v1/buyer-requests/${request.id}`, { key, body: {} });
    expect(empty.status).toBe(400);
  });

  it('lists requests by status, card, set and creation time', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'filters');
    const before = new Date().toISOString();
    const a = await want(key, { cardName: 'Pokémon Center', setName: 'Base', condition: 'NM', maxPrice: 5 });
    const b = await want(key, { cardName: 'Dragonite', setName: 'Fossil', condition: 'NM', maxPrice: 5 });
    await post(key, `/api/v1/buyer-requests/${b.id}/archive`, {});
    const ids = async (query: string) =>
      (await get<{ data: Array<{ id: string }> }>(key, `/api/v1/buyer-requests?${query}`)).body.data.map((r) => r.id);
    expect(await ids('status=archived')).toEqual([b.id]);
    expect(await ids('status=open')).toEqual([a.id]);
    expect(await ids('cardName=pokemon%20center')).toEqual([a.id]);
    expect(await ids('setName=FO')).toEqual([b.id]);
    expect(await ids(`createdFrom=${encodeURIComponent(before)}`)).toEqual([b.id, a.id]);
    expect(await ids(`createdTo=${encodeURIComponent(before)}`)).toEqual([]);
    const bad = await get<{ code: string }>(key, '/api/v1/buyer-requests?status=lost');
    expect(bad.status).toBe(400);
  });

  it('reverse matching replayed from the start of the log records nothing twice', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'replay');
    const request = await want(key, { cardName: 'Machamp', setName: 'Base', condition: 'MP', maxPrice: 20 });
    await stock(key, { cardName: 'Machamp', setName: 'Base', condition: 'LP', price: 15 });
    await stock(key, { cardName: 'Machamp', setName: 'Base', condition: 'NM', price: 18 });
    await until('the second match', async () => (await get<BuyerRequest>(key, `/api/v1/buyer-requests/${request.id}`)).body.matchCount === 2 || undefined, 60_000);
    const countEvents = (): number => {
      const db = new DatabaseSync(join(app.dataDir, 'events.db'), { readOnly: true });
      try {
        const row = db.prepare("SELECT count(*) AS n FROM events WHERE type IN ('buyer_request.matches_recorded', 'match.created', 'buyer_request.matched')").get() as { n: number };
        return row.n;
      } finally {
        db.close();
      }
    };
    const before = countEvents();

    // Forget where reverse matching stood: on restart it handles the whole log again.
    await app.stop();
    const reads = new DatabaseSync(join(app.dataDir, 'eventual.db')); // the process managers' checkpoints
    reads.prepare('DELETE FROM "c_process_manager_checkpoints"').run();
    reads.close();
    app = await startApp({ dataDir: app.dataDir });
    const head = (): number => {
      const db = new DatabaseSync(join(app.dataDir, 'eventual.db'), { readOnly: true });
      try {
        const row = db.prepare('SELECT doc FROM "c_process_manager_checkpoints" WHERE id = ?').get('reverse-matching') as { doc: string } | undefined;
        return row ? (JSON.parse(row.doc) as { position: number }).position : 0;
      } finally {
        db.close();
      }
    };
    const events = new DatabaseSync(join(app.dataDir, 'events.db'), { readOnly: true });
    const last = (events.prepare("SELECT max(position) AS p FROM events WHERE type IN ('inventory.created', 'inventory.updated', 'buyer_request.created', 'buyer_request.updated')").get() as { p: number }).p;
    events.close();
    await until('the log head', async () => head() >= last || undefined, 60_000);
    expect(countEvents()).toBe(before);
    expect((await get<BuyerRequest>(key, `/api/v1/buyer-requests/${request.id}`)).body.matchCount).toBe(2);
  });

  it('another workspace sees none of it', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'owner');
    const { apiKey: stranger } = await createWorkspace(app.dataDir, 'stranger');
    const request = await want(key, { cardName: 'Onix', setName: 'Base', condition: 'NM', maxPrice: 5 });
    const run = await post<MatchPack>(key, '/api/v1/match-runs', { buyerRequestId: request.id });
    expect((await post(stranger, '/api/v1/match-runs', { buyerRequestId: request.id })).status).toBe(404);
    expect((await get(stranger, `/api/v1/match-packs/${run.body.id}`)).status).toBe(404);
    expect((await get<{ data: unknown[] }>(stranger, `/api/v1/match-packs?buyerRequestId=${request.id}`)).body.data).toEqual([]);
    expect((await post(stranger, `/api/v1/buyer-requests/${request.id}/archive`, {})).status).toBe(404);
    expect((await get(stranger, `/api/v1/buyer-requests/${request.id}/matches`)).status).toBe(404);
  });
});
