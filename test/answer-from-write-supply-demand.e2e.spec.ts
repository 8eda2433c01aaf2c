// Buyer requests, inventory items and intake sessions answer with what their write decided, and
// concurrent repeats cannot make them lie: of 20 identical writes sent at once, every answer shows
// the resulting state and the log holds exactly one event; of 20 that say different things, an
// archive takes one and refuses the others (409 naming the field), and each change answers its own
// value, never an older one. The next GET or list sees every write at once: the request with its
// instant matches, the item with the units a trade just reserved, the session with its rows.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http } from './support/http';

interface BuyerRequest {
  id: string;
  status: string;
  maxPrice: number;
  matchCount: number;
  archivedAt: string | null;
}
interface Match {
  id: string;
  buyerRequestId: string;
  inventoryItemId: string;
  kind: string;
}
interface Item {
  id: string;
  price: number;
  quantity: number;
  availableQuantity: number;
  reservedQuantity: number;
  status: string;
  normalization?: unknown;
}
interface Session {
  id: string;
  status: string;
  counts: { total: number; valid: number; error: number; pushed: number };
}
interface Pushed {
  pushed: number;
  inventoryItemIds?: string[];
}
type Answer<T> = T & Partial<ErrorBody>;

/** The event types of one stream, as the log holds them. */
function streamEvents(dataDir: string, streamId: string): string[] {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT type FROM events WHERE stream_id = ? ORDER BY revision').all(streamId) as Array<{ type: string }>).map((r) => r.type);
  } finally {
    db.close();
  }
}

const times = <T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

describe('answer from the write: demand and supply (e2e)', () => {
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'answers-supply-demand')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const call = <T>(method: string, path: string, body?: unknown) => http<Answer<T>>(app.url, method, path, { key, body });

  async function newItem(cardName = 'Charizard', quantity = 1, price = 400): Promise<Item> {
    const item = await call<Item>('POST', '/api/v1/inventory', { cardName, setName: 'Base', condition: 'NM', price, quantity });
    expect(item.status).toBe(201);
    return item.body;
  }

  async function newRequest(cardName = 'Blastoise'): Promise<{ id: string; matchCount: number }> {
    const created = await call<{ id: string; matchCount: number }>('POST', '/api/v1/buyer-requests', { cardName, setName: 'Base', condition: 'LP', maxPrice: 500 });
    expect(created.status).toBe(201);
    return created.body;
  }

  describe('buyer requests', () => {
    it('a new request answers its instant matches, and its GET, its matches and the list see them at once', async () => {
      const items = [await newItem('Venusaur', 1, 300), await newItem('Venusaur', 1, 350)];
      const created = await newRequest('Venusaur');
      expect(created.matchCount).toBe(2);
      expect((await call<BuyerRequest>('GET', `/api/v1/buyer-requests/${created.id}`)).body).toMatchObject({ status: 'matched', matchCount: 2 });
      const matches = (await call<{ data: Match[] }>('GET', `/api/v1/buyer-requests/${created.id}/matches`)).body.data;
      expect(matches.map((m) => m.inventoryItemId).sort()).toEqual(items.map((i) => i.id).sort());
      expect((await call<{ data: BuyerRequest[] }>('GET', '/api/v1/buyer-requests')).body.data.map((r) => r.id)).toContain(created.id);
      // A match is known by its id alone at once: a trade made from it.
      const trade = await call<{ inventoryItemId: string }>('POST', '/api/v1/trades', { matchId: matches[0].id });
      expect(trade).toMatchObject({ status: 201, body: { inventoryItemId: matches[0].inventoryItemId } });
    });

    it('20 identical archives at once: every answer shows it archived, and the log holds one archive', async () => {
      const { id } = await newRequest();
      const answers = await times(20, () => call<BuyerRequest>('POST', `/api/v1/buyer-requests/${id}/archive`, { reason: 'bought elsewhere' }));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      for (const answer of answers) expect(answer.body).toMatchObject({ id, status: 'archived' });
      expect(new Set(answers.map((a) => a.body.archivedAt)).size).toBe(1);
      expect(streamEvents(app.dataDir, `buyer_request-${id}`)).toEqual(['buyer_request.created', 'buyer_request.archived']);
      expect((await call<BuyerRequest>('GET', `/api/v1/buyer-requests/${id}`)).body.status).toBe('archived');
    });

    it('20 archives naming different reasons at once: one is taken, the others are 409 naming the field', async () => {
      const { id } = await newRequest();
      const answers = await times(20, (i) => call<BuyerRequest>('POST', `/api/v1/buyer-requests/${id}/archive`, { reason: `reason ${i}` }));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const recorded = answers.findIndex((a) => a.status === 200);
      answers.forEach((answer, i) => {
        if (i === recorded) return;
        expect(answer).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { field: 'reason', recorded: `reason ${recorded}`, given: `reason ${i}` } } });
      });
      expect(streamEvents(app.dataDir, `buyer_request-${id}`)).toEqual(['buyer_request.created', 'buyer_request.archived']);
    });

    it('20 changes at once: each answers the price it set, never an older state; 20 identical ones record one change', async () => {
      const { id } = await newRequest();
      const prices = Array.from({ length: 20 }, (_, i) => 600 + i);
      const answers = await times(20, (i) => call<BuyerRequest>('PATCH', `/api/v1/buyer-requests/${id}`, { maxPrice: prices[i] }));
      answers.forEach((answer, i) => expect(answer).toMatchObject({ status: 200, body: { maxPrice: prices[i] } }));

      const same = await times(20, () => call<BuyerRequest>('PATCH', `/api/v1/buyer-requests/${id}`, { maxPrice: 999 }));
      for (const answer of same) expect(answer).toMatchObject({ status: 200, body: { maxPrice: 999 } });
      expect(streamEvents(app.dataDir, `buyer_request-${id}`).filter((t) => t === 'buyer_request.updated')).toHaveLength(21);
      expect((await call<BuyerRequest>('GET', `/api/v1/buyer-requests/${id}`)).body.maxPrice).toBe(999);
    });
  });

  describe('inventory items', () => {
    it('a new item answers itself, and its GET and the list see it at once; a delete is seen at once', async () => {
      const item = await newItem('Mewtwo', 2);
      expect(item).toMatchObject({ quantity: 2, availableQuantity: 2, status: 'available' });
      const { normalization: _normalization, ...shown } = item;
      expect((await call<Item>('GET', `/api/v1/inventory/${item.id}`)).body).toEqual(shown);
      expect((await call<{ data: Item[] }>('GET', '/api/v1/inventory')).body.data.map((i) => i.id)).toContain(item.id);
      expect(await call('DELETE', `/api/v1/inventory/${item.id}`)).toMatchObject({ status: 200, body: { id: item.id, deleted: true } });
      expect((await call('GET', `/api/v1/inventory/${item.id}`)).status).toBe(404);
      expect((await call<{ data: Item[] }>('GET', '/api/v1/inventory')).body.data.map((i) => i.id)).not.toContain(item.id);
    });

    it('shows the units a trade or a hold reserved as soon as it answers', async () => {
      const item = await newItem('Gengar', 3);
      const trade = await call('POST', '/api/v1/trades', { inventoryItemId: item.id });
      expect(trade.status).toBe(201);
      expect((await call<Item>('GET', `/api/v1/inventory/${item.id}`)).body).toMatchObject({ quantity: 3, availableQuantity: 2, reservedQuantity: 1 });
      expect((await call<{ data: Item[] }>('GET', '/api/v1/inventory')).body.data.find((i) => i.id === item.id)).toMatchObject({ availableQuantity: 2 });
      const hold = await call('POST', '/api/v1/holds', { inventoryItemId: item.id, depositAmount: 10, expiresAt: new Date(Date.now() + 3600_000).toISOString() });
      expect(hold.status).toBe(201);
      expect((await call<Item>('GET', `/api/v1/inventory/${item.id}`)).body).toMatchObject({ availableQuantity: 1, reservedQuantity: 2 });
    });

    it('20 changes at once: each answers the price it set; 20 identical ones record one change', async () => {
      const item = await newItem('Alakazam');
      const prices = Array.from({ length: 20 }, (_, i) => 100 + i);
      const answers = await times(20, (i) => call<Item>('PATCH', `/api/v1/inventory/${item.id}`, { price: prices[i] }));
      answers.forEach((answer, i) => expect(answer).toMatchObject({ status: 200, body: { price: prices[i] } }));

      const same = await times(20, () => call<Item>('PATCH', `/api/v1/inventory/${item.id}`, { price: 250 }));
      for (const answer of same) expect(answer).toMatchObject({ status: 200, body: { price: 250 } });
      expect(streamEvents(app.dataDir, `inventory-${item.id}`).filter((t) => t === 'inventory.updated')).toHaveLength(21);
      expect((await call<Item>('GET', `/api/v1/inventory/${item.id}`)).body.price).toBe(250);
    });
  });

  describe('intake sessions', () => {
    it('a new session answers itself; its GET and the list see it, and its rows, at once', async () => {
      const created = await call<Session>('POST', '/api/v1/ingestion/sessions', { name: 'show' });
      expect(created).toMatchObject({ status: 201, body: { status: 'open', counts: { total: 0 } } });
      const id = created.body.id;
      expect((await call<Session>('GET', `/api/v1/ingestion/sessions/${id}`)).body).toEqual(created.body);
      expect((await call<{ data: Session[] }>('GET', '/api/v1/ingestion/sessions')).body.data.map((s) => s.id)).toContain(id);

      const rows = [
        { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: 400 },
        { cardName: 'Charizard', setName: 'Base', condition: 'NM' },
      ];
      expect(await call('POST', `/api/v1/ingestion/sessions/${id}/items`, rows)).toMatchObject({ status: 200, body: { added: 2, counts: { total: 2, valid: 1, error: 1 } } });
      expect((await call<Session>('GET', `/api/v1/ingestion/sessions/${id}`)).body.counts).toMatchObject({ total: 2, valid: 1, error: 1 });
      expect((await call<{ data: Array<{ row: number; status: string }> }>('GET', `/api/v1/ingestion/sessions/${id}/rows`)).body.data.map((r) => [r.row, r.status])).toEqual([
        [1, 'valid'],
        [2, 'error'],
      ]);
    });

    it('20 pushes at once: every answer shows the same push, the log holds one, and the items are listed at once', async () => {
      const id = (await call<Session>('POST', '/api/v1/ingestion/sessions', {})).body.id;
      const rows = Array.from({ length: 5 }, (_, i) => ({ cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', price: 10 + i }));
      expect((await call('POST', `/api/v1/ingestion/sessions/${id}/items`, rows)).status).toBe(200);

      const answers = await times(20, () => call<Pushed>('POST', `/api/v1/ingestion/sessions/${id}/push`));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      for (const answer of answers) expect(answer.body).toEqual(answers[0].body);
      expect(answers[0].body.pushed).toBe(5);
      expect(streamEvents(app.dataDir, `ingestion-${id}`).filter((t) => t === 'ingestion.pushed')).toHaveLength(1);

      expect((await call<Session>('GET', `/api/v1/ingestion/sessions/${id}`)).body).toMatchObject({ status: 'pushed', counts: { pushed: 5 } });
      const pushedRows = (await call<{ data: Array<{ inventoryItemId: string | null }> }>('GET', `/api/v1/ingestion/sessions/${id}/rows`)).body.data;
      const itemIds = pushedRows.map((r) => r.inventoryItemId);
      expect(itemIds.every((i) => i !== null)).toBe(true);
      const listed = (await call<{ data: Item[] }>('GET', '/api/v1/inventory?cardName=Pikachu&limit=100')).body.data.map((i) => i.id);
      expect(listed).toEqual(expect.arrayContaining(itemIds));
    });
  });
});
