// Buyer requests over HTTP against the real app: auth, scopes, read-your-writes, pagination,
// workspace isolation, the error model, and the buyer a request names (personal data: answered on
// reads, never in clear in the log, the read model or the process's own log output).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http, until } from './support/http';

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
      buyer: null,
      buyerId: null,
      contact: null,
      contactErased: false,
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

interface BuyerRequestBody {
  id: string;
  cardName: string;
  maxPrice: number;
  status: string;
  matchCount: number;
  updatedAt: string;
  buyer: { externalId: string | null; displayName: string | null } | null;
}

describe('the buyer of a buyer request (e2e)', () => {
  const EXTERNAL_ID = 'crm-QX-55107';
  const DISPLAY_NAME = 'Marguerite Oyelaran-Hext';
  const NEW_NAME = 'Marguerite O. Hext';
  const SECRETS = [EXTERNAL_ID, DISPLAY_NAME, NEW_NAME, 'Oyelaran', 'crm-QX'];

  let app: RunningApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    // The most verbose logging there is: every request is logged, and still never its buyer.
    app = await startApp({ env: { LOG_LEVEL: 'trace' } });
    key = (await createWorkspace(app.dataDir, 'buyers')).apiKey;
    otherKey = (await createWorkspace(app.dataDir, 'strangers')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const read = (id: string, as = key) => http<BuyerRequestBody>(app.url, 'GET', `/api/v1/buyer-requests/${id}`, { key: as });
  const patch = (id: string, body: unknown) => http<BuyerRequestBody & ErrorBody>(app.url, 'PATCH', `/api/v1/buyer-requests/${id}`, { key, body });

  it('creates a request naming its buyer: the answer stays {id, matchCount}, reads show the buyer', async () => {
    const created = await http<{ id: string; matchCount: number }>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { ...charizard, buyer: { externalId: `  ${EXTERNAL_ID} `, displayName: DISPLAY_NAME } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^br_/), matchCount: 0 });

    const got = await read(created.body.id);
    expect(got.status).toBe(200);
    expect(got.body.buyer).toEqual({ externalId: EXTERNAL_ID, displayName: DISPLAY_NAME });
    const list = await http<{ data: BuyerRequestBody[] }>(app.url, 'GET', '/api/v1/buyer-requests?limit=100', { key });
    expect(list.body.data.find((r) => r.id === created.body.id)?.buyer).toEqual({ externalId: EXTERNAL_ID, displayName: DISPLAY_NAME });
    expect((await read(created.body.id, otherKey)).status).toBe(404);

    const onlyName = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { ...charizard, buyer: { displayName: DISPLAY_NAME } },
    });
    expect((await read(onlyName.body.id)).body.buyer).toEqual({ externalId: null, displayName: DISPLAY_NAME });
    const none = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key, body: { ...charizard, buyer: null } });
    expect((await read(none.body.id)).body.buyer).toBeNull();
  });

  it('PATCH replaces the buyer as a whole and removes it with null, touching nothing else', async () => {
    const created = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { ...charizard, buyer: { externalId: EXTERNAL_ID, displayName: DISPLAY_NAME } },
    });
    const before = (await read(created.body.id)).body;

    const renamed = await patch(created.body.id, { buyer: { displayName: NEW_NAME } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...before, buyer: { externalId: null, displayName: NEW_NAME }, updatedAt: expect.any(String) });
    expect((await read(created.body.id)).body.buyer).toEqual({ externalId: null, displayName: NEW_NAME });

    const both = await patch(created.body.id, { maxPrice: 300, buyer: { externalId: EXTERNAL_ID, displayName: NEW_NAME } });
    expect(both.body).toMatchObject({ maxPrice: 300, buyer: { externalId: EXTERNAL_ID, displayName: NEW_NAME } });

    const removed = await patch(created.body.id, { buyer: null });
    expect(removed.status).toBe(200);
    expect(removed.body.buyer).toBeNull();
    expect((await read(created.body.id)).body).toMatchObject({ maxPrice: 300, buyer: null });

    const again = await patch(created.body.id, { buyer: null });
    expect(again.status).toBe(200);
    expect(again.body.updatedAt).toBe(removed.body.updatedAt); // nothing to change: nothing written
  });

  it.each([
    ['an empty buyer', { buyer: {} }, 'buyer'],
    ['a blank displayName', { buyer: { displayName: '   ' } }, 'buyer.displayName'],
    ['a displayName over 200 characters', { buyer: { displayName: 'x'.repeat(201) } }, 'buyer.displayName'],
    ['an externalId over 200 characters', { buyer: { externalId: 'x'.repeat(201), displayName: 'Sam' } }, 'buyer.externalId'],
    ['an unknown buyer field', { buyer: { displayName: 'Sam', email: 'sam@example.com' } }, 'buyer'],
    ['a buyer that is a string', { buyer: 'Sam' }, 'buyer'],
    ['a numeric externalId', { buyer: { externalId: 42 } }, 'buyer.externalId'],
  ])('refuses %s with 400 VALIDATION_FAILED, on POST and PATCH', async (_label, buyer, path) => {
    const created = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key, body: charizard });
    for (const res of [
      await http<ErrorBody>(app.url, 'POST', '/api/v1/buyer-requests', { key, body: { ...charizard, ...buyer } }),
      await patch(created.body.id, buyer),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details?.issues?.map((i) => i.path)).toContain(path);
    }
    expect((await read(created.body.id)).body.buyer).toBeNull();
  });

  it('keeps the buyer out of webhook event data', async () => {
    const created = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { ...charizard, buyer: { externalId: EXTERNAL_ID, displayName: DISPLAY_NAME } },
    });
    // The event log's list follows the log (it is not the request's own read model): wait for it.
    const events = await until('the request in the event list', async () => {
      const res = await http<{ data: Array<{ type: string; data: Record<string, unknown> }> }>(app.url, 'GET', '/api/v1/events?limit=100', { key });
      expect(res.status).toBe(200);
      return res.body.data.some((e) => e.data.buyer_request_id === created.body.id && e.type === 'buyer_request.created') ? res : undefined;
    });
    const mine = events.body.data.filter((e) => e.data.buyer_request_id === created.body.id);
    expect(mine.map((e) => e.type)).toContain('buyer_request.created');
    for (const e of mine) expect(Object.keys(e.data).some((k) => k.includes('buyer') && k !== 'buyer_request_id')).toBe(false);
    for (const secret of SECRETS) expect(events.text).not.toContain(secret);
  });

  it('never has the buyer in clear in the log, the read model or the log output', async () => {
    const files = (name: string): string =>
      [name, `${name}-wal`]
        .map((file) => join(app.dataDir, file))
        .filter((path) => existsSync(path))
        .map((path) => readFileSync(path).toString('latin1'))
        .join('');
    await new Promise((r) => setTimeout(r, 100)); // the last request's log lines
    const output = app.output();
    expect(output).toContain('/api/v1/buyer-requests'); // requests are logged
    expect(files('events.db')).toContain('buyer_request.created'); // the files are read as stored
    for (const secret of SECRETS) {
      expect(output).not.toContain(secret);
      expect(files('events.db')).not.toContain(secret);
      expect(files('read.db')).not.toContain(secret);
    }
  });
});
