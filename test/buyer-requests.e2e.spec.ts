// Buyer requests over HTTP against the real app: auth, scopes, read-your-writes, pagination,
// workspace isolation and the error model.
import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

interface ErrorBody {
  code: string;
  message: string;
  details?: { issues?: Array<{ path: string; message: string }>; requiredScope?: string };
}

const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450.5 };

describe('buyer requests (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'acme')).apiKey;
    otherKey = (await createWorkspace(app.dataDir, 'globex')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('serves a public health check', async () => {
    const res = await http(app.url, 'GET', '/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('creates a request and reads it back at once (read-your-writes)', async () => {
    const created = await http<{ id: string; matchCount: number }>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { ...charizard, source: 'card-show' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^br_[0-9A-Z]{26}$/), matchCount: 0 });

    const read = await http(app.url, 'GET', `/api/v1/buyer-requests/${created.body.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: created.body.id,
      cardName: 'Charizard',
      setName: 'Base',
      condition: 'Near Mint',
      maxPrice: 450.5,
      currency: 'USD',
      source: 'card-show',
      status: 'open',
      matchCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      archivedAt: null,
    });
  });

  it('lists newest first with cursor pagination and no gaps or duplicates', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'paging');
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
        key: apiKey,
        body: { ...charizard, cardName: `Card ${i}` },
      });
      ids.push(res.body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await http<{ data: Array<{ id: string }>; nextCursor: string | null }>(
        app.url,
        'GET',
        `/api/v1/buyer-requests${query}`,
        { key: apiKey },
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((d) => d.id));
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('answers 401 UNAUTHORIZED without a key or with a bad one', async () => {
    for (const options of [{}, { key: 'sk_nope' }, { headers: { authorization: 'Basic abc' } }]) {
      const res = await http<ErrorBody>(app.url, 'GET', '/api/v1/buyer-requests', options);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
    // A well-formed secret whose key does not exist, and a real key id with a wrong secret part.
    const forged = key.replace(/_[^_]+$/, `_${'A'.repeat(43)}`);
    const res = await http<ErrorBody>(app.url, 'GET', '/api/v1/buyer-requests', { key: forged });
    expect(res.status).toBe(401);
  });

  it('answers 403 INSUFFICIENT_SCOPE naming the missing scope', async () => {
    const created = await cli(app.dataDir, ['key', 'create', '--workspace', 'acme', '--name', 'reader', '--scopes', 'read:requests']);
    expect(created.code).toBe(0);
    const reader = created.json<{ secret: string; scopes: string[] }>();
    expect(reader.scopes).toEqual(['read:requests']);

    const denied = await http<ErrorBody>(app.url, 'POST', '/api/v1/buyer-requests', { key: reader.secret, body: charizard });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(denied.body.message).toContain('write:requests');
    expect(denied.body.details).toEqual({ requiredScope: 'write:requests' });

    const allowed = await http(app.url, 'GET', '/api/v1/buyer-requests', { key: reader.secret });
    expect(allowed.status).toBe(200);
  });

  it('keeps workspaces apart: another workspace gets 404, and its list is its own', async () => {
    const created = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key, body: charizard });
    const foreign = await http<ErrorBody>(app.url, 'GET', `/api/v1/buyer-requests/${created.body.id}`, { key: otherKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    const list = await http<{ data: Array<{ id: string }> }>(app.url, 'GET', '/api/v1/buyer-requests?limit=100', { key: otherKey });
    expect(list.body.data.map((d) => d.id)).not.toContain(created.body.id);
  });

  it.each([
    ['a missing field', { setName: 'Base', condition: 'NM', maxPrice: 1 }, 'cardName'],
    ['a negative price', { ...charizard, maxPrice: -1 }, 'maxPrice'],
    ['three decimals', { ...charizard, maxPrice: 1.234 }, 'maxPrice'],
    ['a string price', { ...charizard, maxPrice: '12' }, 'maxPrice'],
    ['an empty name', { ...charizard, cardName: '   ' }, 'cardName'],
    ['an unknown field', { ...charizard, colour: 'red' }, ''],
    ['a bad currency', { ...charizard, currency: 'DOLLARS' }, 'currency'],
  ])('rejects %s with 400 VALIDATION_FAILED and the issue path', async (_label, body, path) => {
    const res = await http<ErrorBody>(app.url, 'POST', '/api/v1/buyer-requests', { key, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details?.issues?.map((i) => i.path)).toContain(path);
    expect(res.body.details?.issues?.every((i) => typeof i.message === 'string')).toBe(true);
  });

  it('answers malformed JSON, an oversized body and unknown routes in the error shape', async () => {
    const malformed = await http<ErrorBody>(app.url, 'POST', '/api/v1/buyer-requests', { key, rawBody: '{"cardName":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('INVALID_JSON');

    const huge = await http<ErrorBody>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      rawBody: JSON.stringify({ ...charizard, source: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');

    const unknown = await http<ErrorBody>(app.url, 'GET', '/api/v1/no-such-thing', { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');

    for (const res of [malformed, huge, unknown]) {
      expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(['code', 'message']));
      expect(res.text).not.toMatch(/at .+\.(js|ts):\d+/); // never a stack trace
    }
  });

  it('echoes or assigns a request id', async () => {
    const given = await http(app.url, 'GET', '/api/v1/health', { headers: { 'x-request-id': 'req-abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('req-abc-123');
    const assigned = await http(app.url, 'GET', '/api/v1/health');
    expect(assigned.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
