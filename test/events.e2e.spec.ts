// The event catalogue and the workspace's public events, read from the log over HTTP.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

interface Envelope {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

describe('events (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let workspaceId = '';

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'events')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const list = (query = '') => http<{ data: Envelope[]; nextCursor: string | null }>(app.url, 'GET', `/api/v1/events${query}`, { key });

  it('serves the catalogue: every subscribable type with its data fields', async () => {
    const res = await http<{ data: Array<{ type: string; data: Record<string, { type: string }> }> }>(app.url, 'GET', '/api/v1/event-types', { key });
    expect(res.status).toBe(200);
    const types = res.body.data.map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(['buyer_request.created', 'trade.completed', 'match.created', 'trust.score_updated']));
    expect(types).toHaveLength(28);
    expect(Object.keys(res.body.data.find((t) => t.type === 'trade.completed')?.data ?? {}).sort()).toEqual(['amount', 'offer_id', 'status', 'trade_id']);
  });

  it('lists the public events of the workspace newest first, in the webhook envelope; internal ones never', async () => {
    await http(app.url, 'POST', '/api/v1/inventory', { key, body: { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: 400 } });
    const request = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { cardName: 'Charizard', setName: 'Base', condition: 'LP', maxPrice: 450 },
    });
    await http(app.url, 'PATCH', `/api/v1/buyer-requests/${request.body.id}`, { key, body: { maxPrice: 460 } }); // internal: buyer_request.updated
    const res = await list();
    expect(res.status).toBe(200);
    const types = res.body.data.map((e) => e.type);
    expect(types).toEqual(['match.created', 'buyer_request.matched', 'buyer_request.created', 'inventory.created']);
    const created = res.body.data.find((e) => e.type === 'buyer_request.created');
    workspaceId = created?.workspace_id ?? '';
    expect(created).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'buyer_request.created',
      created_at: expect.stringMatching(/Z$/),
      workspace_id: expect.stringMatching(/^ws_/),
      data: { buyer_request_id: request.body.id, card_name: 'Charizard', set_name: 'Base', condition: 'Lightly Played', max_price: 450, currency: 'USD', source: null },
    });
  });

  it('filters by type and by time, and refuses an unknown type', async () => {
    expect((await list('?type=inventory.created')).body.data.map((e) => e.type)).toEqual(['inventory.created']);
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await list(`?from=${future}`)).body.data).toEqual([]);
    expect((await list(`?to=${future}`)).body.data).toHaveLength(4);
    const bad = await list('?type=buyer_request.updated');
    expect(bad.status).toBe(400);
  });

  it('another workspace sees none of them', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'events-other');
    const res = await http<{ data: Envelope[] }>(app.url, 'GET', '/api/v1/events', { key: apiKey });
    expect(res.body.data).toEqual([]);
    expect(workspaceId).toMatch(/^ws_/);
  });
});
