// Inventory over HTTP against the real app, what is allowed and what is refused: scopes, workspace
// isolation, the error model of creates and updates, and an idempotent create.
import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { type ErrorBody, inventoryCalls, type Item, type List, messy } from './support/inventory';

describe('inventory (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let otherKey: string;
  const { create, patch } = inventoryCalls(() => app, () => key);

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'acme')).apiKey;
    otherKey = (await createWorkspace(app.dataDir, 'globex')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('needs write:inventory to change and read:inventory to read (403 INSUFFICIENT_SCOPE)', async () => {
    const { body: item } = await create(messy);
    const made = await cli(app.dataDir, ['key', 'create', '--workspace', 'acme', '--name', 'inv-reader', '--scopes', 'read:inventory']);
    expect(made.code).toBe(0);
    const reader = made.json<{ secret: string }>().secret;

    const attempts = [
      http<ErrorBody>(app.url, 'POST', '/api/v1/inventory', { key: reader, body: messy }),
      http<ErrorBody>(app.url, 'PATCH', `/api/v1/inventory/${item.id}`, { key: reader, body: { price: 1 } }),
      http<ErrorBody>(app.url, 'DELETE', `/api/v1/inventory/${item.id}`, { key: reader }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: 'INSUFFICIENT_SCOPE',
        message: expect.stringContaining('write:inventory'),
        details: { requiredScope: 'write:inventory' },
      });
    }
    expect((await http(app.url, 'GET', `/api/v1/inventory/${item.id}`, { key: reader })).status).toBe(200);
    expect((await http(app.url, 'GET', '/api/v1/inventory', { key: reader })).status).toBe(200);

    const requestsOnly = await cli(app.dataDir, ['key', 'create', '--workspace', 'acme', '--name', 'req-only', '--scopes', 'read:requests']);
    const denied = await http<ErrorBody>(app.url, 'GET', '/api/v1/inventory', { key: requestsOnly.json<{ secret: string }>().secret });
    expect(denied.status).toBe(403);
    expect(denied.body.details?.requiredScope).toBe('read:inventory');
  });

  it("keeps workspaces apart: another workspace's item is 404 on every method and absent from its lists", async () => {
    const { body: item } = await create(messy);
    for (const [method, body] of [['GET', undefined], ['PATCH', { status: 'withdrawn' }], ['DELETE', undefined]] as const) {
      const res = await http<ErrorBody>(app.url, method, `/api/v1/inventory/${item.id}`, { key: otherKey, body });
      expect({ method, status: res.status, code: res.body.code }).toEqual({ method, status: 404, code: 'NOT_FOUND' });
    }
    const list = await http<List>(app.url, 'GET', '/api/v1/inventory?limit=100&cardName=charizard', { key: otherKey });
    expect(list.body.data.map((i) => i.id)).not.toContain(item.id);
    // Untouched for its owner.
    const mine = await http<Item>(app.url, 'GET', `/api/v1/inventory/${item.id}`, { key });
    expect(mine.body).toMatchObject({ status: 'available', updatedAt: item.updatedAt });
  });

  it.each([
    ['a missing card name', { setName: 'Base', condition: 'NM', price: 1 }, 'cardName'],
    ['a price as text', { ...messy, price: '$1,234.50' }, 'price'],
    ['a negative price', { ...messy, price: -1 }, 'price'],
    ['three decimals', { ...messy, price: 1.234 }, 'price'],
    ['quantity 0', { ...messy, quantity: 0 }, 'quantity'],
    ['a fractional quantity', { ...messy, quantity: 1.5 }, 'quantity'],
    ['a huge quantity', { ...messy, quantity: 100_001 }, 'quantity'],
    ['notes over 2000 characters', { ...messy, notes: 'x'.repeat(2001) }, 'notes'],
    ['an unknown status', { ...messy, status: 'lost' }, 'status'],
    ['a bad currency', { ...messy, currency: 'DOLLARS' }, 'currency'],
    ['an empty name', { ...messy, cardName: '   ' }, 'cardName'],
    ['an unknown field', { ...messy, colour: 'red' }, ''],
  ])('rejects a create with %s (400 VALIDATION_FAILED and the issue path)', async (_label, body, path) => {
    const res = await http<ErrorBody>(app.url, 'POST', '/api/v1/inventory', { key, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(typeof res.body.message).toBe('string');
    expect(res.body.details?.issues?.map((i) => i.path)).toContain(path);
  });

  it.each([
    ['no field', {}, ''],
    ['only unknown fields', { colour: 'red' }, ''],
    ['a null price', { price: null }, 'price'],
    ['a null card name', { cardName: null }, 'cardName'],
    ['quantity 0', { quantity: 0 }, 'quantity'],
  ])('rejects an update with %s (400 VALIDATION_FAILED)', async (_label, body, path) => {
    const { body: item } = await create(messy);
    const res = await patch(item.id, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details?.issues?.map((i) => i.path)).toContain(path);
  });

  it('replays a create sent twice with one Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'inv-create-once-1' };
    const first = await http<Item>(app.url, 'POST', '/api/v1/inventory', { key, body: messy, headers });
    const second = await http<Item>(app.url, 'POST', '/api/v1/inventory', { key, body: messy, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
  });
});
