// ETag and If-Match on the resources of demand, supply, webhooks, access, automations and the
// widget (trades, offers, holds, live selling and match packs: answer-from-write*.e2e.spec.ts).
// For each: the create and the GET say the same version; a write with it moves on and says the new
// one, which the GET then says; the old version again is 412 naming both, and nothing changed; the
// current version is taken.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, type HttpResult } from './support/http';
import { ENV as WEBHOOK_ENV } from './support/webhooks';

type Answer<T = Record<string, unknown>> = HttpResult<T & Partial<ErrorBody>>;

interface Write {
  method: string;
  path: string;
  body?: unknown;
}

const VERSION = /^W\/"\d+"$/;

describe('ETag and If-Match (e2e)', () => {
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    app = await startApp({ env: WEBHOOK_ENV });
    key = (await createWorkspace(app.dataDir, 'etag')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const send = <T = Record<string, unknown>>(write: Write, ifMatch?: string): Promise<Answer<T>> =>
    http<T & Partial<ErrorBody>>(app.url, write.method, write.path, { key, body: write.body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
  const get = <T = Record<string, unknown>>(path: string) => send<T>({ method: 'GET', path });
  const etag = (answer: HttpResult<unknown>) => answer.headers.get('etag') ?? '';

  /**
   * `created` and the GET of `path` say one version; `write` with it is taken and says the next,
   * which the GET says too; `stale` with the first is 412 naming both, the GET unchanged (`same`
   * compares the bodies). Answers the current version.
   */
  async function versioned(created: HttpResult<unknown>, path: string, write: Write, stale: Write, same: (before: unknown, after: unknown) => void): Promise<string> {
    const first = etag(created);
    expect(first).toMatch(VERSION);
    expect(etag(await get(path))).toBe(first);
    const moved = await send(write, first);
    expect(moved.status).toBeLessThan(300);
    const now = etag(moved);
    expect(now).toMatch(VERSION);
    expect(now).not.toBe(first);
    const before = await get(path);
    expect(etag(before)).toBe(now);
    const refused = await send(stale, first);
    expect(refused).toMatchObject({ status: 412, body: { code: 'PRECONDITION_FAILED', details: { expectedETag: first, currentETag: now } } });
    const after = await get(path);
    expect(etag(after)).toBe(now);
    same(before.body, after.body);
    return now;
  }

  const sameField = (field: string) => (before: unknown, after: unknown) => expect((after as Record<string, unknown>)[field]).toEqual((before as Record<string, unknown>)[field]);

  it('buyer requests: create, GET, PATCH and archive; a repeated archive on the current version answers it', async () => {
    const created = await send<{ id: string }>({ method: 'POST', path: '/api/v1/buyer-requests', body: { cardName: 'Blastoise', setName: 'Base', condition: 'NM', maxPrice: 300 } });
    expect(created.status).toBe(201);
    const path = `/api/v1/buyer-requests/${created.body.id}`;
    const now = await versioned(created, path, { method: 'PATCH', path, body: { maxPrice: 320 } }, { method: 'PATCH', path, body: { maxPrice: 999 } }, sameField('maxPrice'));
    expect((await get<{ maxPrice: number }>(path)).body.maxPrice).toBe(320);
    const archive = { method: 'POST', path: `${path}/archive`, body: { reason: 'found one' } };
    expect((await send(archive, 'W/"0"')).status).toBe(412);
    const archived = await send<{ status: string }>(archive, now);
    expect({ status: archived.status, state: archived.body.status }).toEqual({ status: 200, state: 'archived' });
    const again = await send<{ status: string }>(archive, etag(archived));
    expect({ status: again.status, etag: etag(again) }).toEqual({ status: 200, etag: etag(archived) });
  });

  it('inventory items: create, GET, PATCH and DELETE', async () => {
    const created = await send<{ id: string }>({ method: 'POST', path: '/api/v1/inventory', body: { cardName: 'Venusaur', setName: 'Base', condition: 'NM', price: 200, sku: 'etag-1' } });
    expect(created.status).toBe(201);
    const path = `/api/v1/inventory/${created.body.id}`;
    const now = await versioned(created, path, { method: 'PATCH', path, body: { price: 210 } }, { method: 'DELETE', path }, sameField('price'));
    const current = await send<{ price: number }>({ method: 'PATCH', path, body: { price: 220 } }, now);
    expect({ status: current.status, price: current.body.price }).toEqual({ status: 200, price: 220 });
    const deleted = await send({ method: 'DELETE', path }, etag(current));
    expect(deleted.status).toBe(200);
    expect(etag(deleted)).toMatch(VERSION);
    expect((await get(path)).status).toBe(404);
  });

  it('intake sessions: create, GET, add items and push; a stale push creates no item', async () => {
    const created = await send<{ id: string }>({ method: 'POST', path: '/api/v1/ingestion/sessions', body: { name: 'etag' } });
    expect(created.status).toBe(201);
    const path = `/api/v1/ingestion/sessions/${created.body.id}`;
    const row = { cardName: 'Pikachu', setName: 'Base', condition: 'NM', price: 12, sku: 'etag-intake' };
    const items = { method: 'POST', path: `${path}/items`, body: [row] };
    const now = await versioned(created, path, items, { method: 'POST', path: `${path}/push` }, sameField('status'));
    expect((await get<{ status: string }>(path)).body.status).toBe('open');
    expect((await get<{ data: unknown[] }>('/api/v1/inventory?cardName=Pikachu')).body.data).toHaveLength(0);
    const pushed = await send({ method: 'POST', path: `${path}/push` }, now);
    expect(pushed.status).toBe(200);
    expect(etag(await get(path))).toBe(etag(pushed));
  });

  it('webhooks: create, GET, PATCH, rotate-secret and DELETE', async () => {
    const created = await send<{ id: string }>({ method: 'POST', path: '/api/v1/webhooks', body: { url: 'http://127.0.0.1:9/etag', events: ['trade.completed'], description: 'first' } });
    expect(created.status).toBe(201);
    const path = `/api/v1/webhooks/${created.body.id}`;
    const now = await versioned(created, path, { method: 'PATCH', path, body: { description: 'second' } }, { method: 'POST', path: `${path}/rotate-secret` }, sameField('secretCreatedAt'));
    expect((await send({ method: 'DELETE', path }, 'W/"0"')).status).toBe(412);
    const rotated = await send({ method: 'POST', path: `${path}/rotate-secret` }, now);
    expect(rotated.status).toBe(200);
    const deleted = await send({ method: 'DELETE', path }, etag(rotated));
    expect(deleted.status).toBe(200);
    expect(etag(deleted)).toMatch(VERSION);
  });

  it('API keys: create, GET and revoke', async () => {
    const created = await send<{ id: string }>({ method: 'POST', path: '/api/v1/api-keys', body: { name: 'etag', scopes: ['read:requests'] } });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('revision');
    const path = `/api/v1/api-keys/${created.body.id}`;
    const first = etag(created);
    expect(etag(await get(path))).toBe(first);
    const refused = await send({ method: 'DELETE', path }, 'W/"7"');
    expect(refused).toMatchObject({ status: 412, body: { details: { expectedETag: 'W/"7"', currentETag: first } } });
    expect((await get<{ status: string }>(path)).body.status).toBe('active');
    const revoked = await send<{ status: string }>({ method: 'DELETE', path }, first);
    expect({ status: revoked.status, state: revoked.body.status }).toEqual({ status: 200, state: 'revoked' });
    expect(etag(await get(path))).toBe(etag(revoked));
    expect(etag(revoked)).not.toBe(first);
  });

  it('automations: create, GET, PATCH and DELETE (archive)', async () => {
    const rule = { name: 'etag', enabled: false, trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] }, action: { type: 'accept_offer', params: { minPercentOfList: 90 } } };
    const created = await send<{ id: string }>({ method: 'POST', path: '/api/v1/automations', body: rule });
    expect(created.status).toBe(201);
    const path = `/api/v1/automations/${created.body.id}`;
    const now = await versioned(created, path, { method: 'PATCH', path, body: { name: 'etag, renamed' } }, { method: 'DELETE', path }, sameField('status'));
    const archived = await send<{ status: string }>({ method: 'DELETE', path }, now);
    expect({ status: archived.status, state: archived.body.status }).toEqual({ status: 200, state: 'archived' });
  });

  it('widget settings: no version until first set; then GET and PUT carry it', async () => {
    const path = '/api/v1/widget/settings';
    const never = await get(path);
    expect({ status: never.status, etag: never.headers.get('etag') }).toEqual({ status: 200, etag: null });
    const set = await send({ method: 'PUT', path, body: { allowedOrigins: ['https://one.example'] } });
    expect(set.status).toBe(200);
    const now = await versioned(
      set,
      path,
      { method: 'PUT', path, body: { allowedOrigins: ['https://two.example'] } },
      { method: 'PUT', path, body: { allowedOrigins: [] } },
      sameField('allowedOrigins'),
    );
    const current = await send<{ allowedOrigins: string[] }>({ method: 'PUT', path, body: { allowedOrigins: [] } }, now);
    expect({ status: current.status, origins: current.body.allowedOrigins }).toEqual({ status: 200, origins: [] });
  });

  it('a resource that does not exist is 404 with or without If-Match (RFC 9110 §13.2.1), never 412', async () => {
    const writes: Write[] = [
      { method: 'PATCH', path: '/api/v1/buyer-requests/br_01JZZZZZZZZZZZZZZZZZZZZZZZ', body: { maxPrice: 1 } },
      { method: 'DELETE', path: '/api/v1/inventory/inv_01JZZZZZZZZZZZZZZZZZZZZZZZ' },
      { method: 'POST', path: '/api/v1/trades/trd_01JZZZZZZZZZZZZZZZZZZZZZZZ/transitions', body: { to: 'paid', reference: 'x' } },
      { method: 'POST', path: '/api/v1/holds/hld_01JZZZZZZZZZZZZZZZZZZZZZZZ/release', body: {} },
    ];
    for (const write of writes) {
      const plain = await send(write);
      const conditional = await send(write, 'W/"0"');
      expect({ path: write.path, status: conditional.status, code: conditional.body.code }).toEqual({ path: write.path, status: plain.status, code: plain.body.code });
      expect(conditional.status).toBe(404);
    }
  });
});
