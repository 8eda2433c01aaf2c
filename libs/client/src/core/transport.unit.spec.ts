// The transport against a fake API (node:http on 127.0.0.1, a random port): the URL and headers it
// sends, its retries (timed with an injected sleep that records delays instead of waiting), the
// Idempotency-Key of writes, timeouts, the caller's abort, and the error class of each answer.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  ApiError,
  CommerceError,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  InsufficientScopeError,
  InvalidTransitionError,
  NotFoundError,
  RateLimitedError,
  RequestAbortedError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from './errors';
import { DEFAULT_RETRY_POLICY, encodePath, queryString, Transport, type TransportOptions } from './transport';
import { CLIENT_VERSION } from './version';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Reply = (res: ServerResponse, req: IncomingMessage) => void;

/** A server that answers each request with the next queued reply (the last one repeats). */
class FakeApi {
  readonly seen: Seen[] = [];
  private replies: Reply[] = [];
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = this.replies.length > 1 ? this.replies.shift() : this.replies[0];
      (reply ?? json(200, {}))(res, req);
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reply(...replies: Reply[]): void {
    this.replies = replies;
    this.seen.length = 0;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let requestIds = 0;
function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (res) => {
    requestIds += 1;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': `req_${requestIds}`, ...headers });
    res.end(JSON.stringify(body));
  };
}
function text(status: number, body: string, contentType = 'text/html'): Reply {
  return (res) => {
    res.writeHead(status, { 'content-type': contentType, 'x-request-id': 'req_text' });
    res.end(body);
  };
}
/** The connection dies without an answer. */
const destroy: Reply = (_res, req) => req.socket.destroy();
/** Never answers (the test's teardown closes the connection). */
const hang: Reply = () => undefined;
const error = (status: number, code: string, details?: Record<string, unknown>, headers?: Record<string, string>) =>
  json(status, details ? { code, message: `${code} happened`, details } : { code, message: `${code} happened` }, headers);

const api = new FakeApi();
beforeAll(() => api.start());
afterAll(() => api.stop());

/** A transport on the fake API whose sleeps are recorded, not waited. */
function client(options: Partial<TransportOptions> = {}) {
  const delays: number[] = [];
  const transport = new Transport({
    apiKey: 'sk_test_123',
    baseUrl: api.url,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { transport, delays };
}

async function failure(promise: Promise<unknown>): Promise<CommerceError> {
  try {
    await promise;
  } catch (caught) {
    if (caught instanceof CommerceError) return caught;
    throw caught;
  }
  throw new Error('expected the call to fail');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Transport: the request', () => {
  it('GETs under /api/v1 with the query, auth and client headers, and no Idempotency-Key', async () => {
    api.reply(json(200, { data: [{ id: 'trd_1' }], nextCursor: null }, { 'x-request-id': 'req_list' }));
    const { transport } = client();
    const response = await transport.request<{ data: unknown[] }>({
      method: 'GET',
      path: '/secure-trades',
      query: {
        status: 'paid',
        limit: 10,
        archived: false,
        skipped: undefined,
        nothing: null,
        ids: ['a', 'b c'],
        from: new Date('2026-01-02T03:04:05.000Z'),
      },
      idempotencyKey: 'ignored-on-get',
    });
    expect(response).toMatchObject({ status: 200, requestId: 'req_list', data: { data: [{ id: 'trd_1' }] }, idempotencyKey: undefined, attempts: 1 });
    const [seen] = api.seen;
    expect(seen.method).toBe('GET');
    expect(seen.url).toBe('/api/v1/secure-trades?status=paid&limit=10&archived=false&ids=a&ids=b+c&from=2026-01-02T03%3A04%3A05.000Z');
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer sk_test_123',
      accept: 'application/json',
      'user-agent': `commerce-client/${CLIENT_VERSION}`,
      'x-client-user-agent': `commerce-client/${CLIENT_VERSION}`,
    });
    expect(seen.headers['idempotency-key']).toBeUndefined();
    expect(seen.headers['content-type']).toBeUndefined();
    expect(seen.body).toBe('');
  });

  it.each([
    ['an origin', '', '/api/v1/health'],
    ['a trailing slash', '/', '/api/v1/health'],
    ['/api/v1 already', '/api/v1/', '/api/v1/health'],
    ['a proxy prefix', '/commerce', '/commerce/api/v1/health'],
  ])('joins a base URL with %s', async (_case, suffix, path) => {
    api.reply(json(200, { status: 'ok' }));
    await client({ baseUrl: `${api.url}${suffix}` }).transport.request({ method: 'GET', path: '/health' });
    expect(api.seen[0].url).toBe(path);
  });

  it('sends no Authorization without an API key (public routes)', async () => {
    api.reply(json(200, {}));
    await client({ apiKey: undefined }).transport.request({ method: 'GET', path: '/health' });
    expect(api.seen[0].headers.authorization).toBeUndefined();
  });

  it('POSTs JSON with a generated Idempotency-Key, a new one per call', async () => {
    api.reply(json(201, { id: 'br_1' }));
    const { transport } = client();
    const first = await transport.request({ method: 'POST', path: '/buyer-requests', body: { cardName: 'Charizard', maxPrice: 450.5 } });
    const second = await transport.request({ method: 'POST', path: '/buyer-requests', body: { cardName: 'Charizard', maxPrice: 450.5 } });
    expect(first).toMatchObject({ status: 201, data: { id: 'br_1' } });
    const [a, b] = api.seen;
    expect(a.headers['content-type']).toBe('application/json');
    expect(JSON.parse(a.body)).toEqual({ cardName: 'Charizard', maxPrice: 450.5 });
    expect(a.headers['idempotency-key']).toMatch(UUID);
    expect(first.idempotencyKey).toBe(a.headers['idempotency-key']);
    expect(b.headers['idempotency-key']).toMatch(UUID);
    expect(b.headers['idempotency-key']).not.toBe(a.headers['idempotency-key']);
    expect(second.idempotencyKey).toBe(b.headers['idempotency-key']);
  });

  it('uses the caller\'s Idempotency-Key verbatim', async () => {
    api.reply(json(201, {}));
    await client().transport.request({ method: 'POST', path: '/offers', body: {}, idempotencyKey: 'order-42 attempt/1' });
    expect(api.seen[0].headers['idempotency-key']).toBe('order-42 attempt/1');
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('gives a %s an Idempotency-Key too', async (method) => {
    api.reply(json(200, {}));
    await client().transport.request({ method, path: '/webhooks/wh_1' });
    expect(api.seen[0].headers['idempotency-key']).toMatch(UUID);
  });

  it('sends a raw body with its content type, and the caller\'s headers over its own', async () => {
    api.reply(json(202, {}));
    await client().transport.request({
      method: 'POST',
      path: '/ingestion/sessions/ses_1/items',
      rawBody: { contentType: 'text/csv', content: 'card,set\nCharizard,Base\n' },
      headers: { Accept: 'application/json, text/plain', 'X-Trace': 't1' },
    });
    expect(api.seen[0]).toMatchObject({ body: 'card,set\nCharizard,Base\n', headers: { 'content-type': 'text/csv', accept: 'application/json, text/plain', 'x-trace': 't1' } });
  });

  it('reads an empty answer as undefined, and text or bytes when asked', async () => {
    api.reply((res) => res.writeHead(204).end(), text(200, '<svg/>', 'image/svg+xml'), text(200, 'PNG'));
    const { transport } = client();
    expect((await transport.request({ method: 'DELETE', path: '/webhooks/wh_1' })).data).toBeUndefined();
    expect((await transport.request({ method: 'GET', path: '/trust/badge.svg', responseType: 'text' })).data).toBe('<svg/>');
    const bytes = (await transport.request<ArrayBuffer>({ method: 'GET', path: '/trust/badge.png', responseType: 'arrayBuffer' })).data;
    expect(new TextDecoder().decode(bytes)).toBe('PNG');
  });

  it('refuses a success whose body is not JSON, without retrying', async () => {
    api.reply(text(200, '<html>portal</html>'));
    const { transport, delays } = client();
    const failed = await failure(transport.request({ method: 'GET', path: '/trades' }));
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ status: 200, code: 'INVALID_RESPONSE', requestId: 'req_text' });
    expect(delays).toEqual([]);
  });
});

describe('Transport: retries', () => {
  it('retries 5xx with the same Idempotency-Key, then succeeds', async () => {
    api.reply(error(500, 'INTERNAL'), json(502, {}), json(201, { id: 'trd_1' }));
    const { transport, delays } = client({ random: () => 0.5 });
    const response = await transport.request({ method: 'POST', path: '/trades', body: { offerId: 'ofr_1' } });
    expect(response).toMatchObject({ status: 201, data: { id: 'trd_1' }, attempts: 3 });
    expect(api.seen).toHaveLength(3);
    const keys = api.seen.map((seen) => seen.headers['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(response.idempotencyKey).toBe(keys[0]);
    expect(new Set(api.seen.map((seen) => seen.body)).size).toBe(1);
    // Half of each range: 0.5 × 500, 0.5 × 1000.
    expect(delays).toEqual([250, 500]);
  });

  it('keeps the caller\'s key on every retry', async () => {
    api.reply(json(503, {}), json(201, {}));
    await client().transport.request({ method: 'POST', path: '/trades', body: {}, idempotencyKey: 'mine-1' });
    expect(api.seen.map((seen) => seen.headers['idempotency-key'])).toEqual(['mine-1', 'mine-1']);
  });

  it.each([500, 502, 503, 504])('retries a %i', async (status) => {
    api.reply(json(status, {}), json(200, { ok: true }));
    const { transport, delays } = client();
    expect((await transport.request({ method: 'GET', path: '/trades' })).data).toEqual({ ok: true });
    expect(api.seen).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('gives up after maxRetries (2 by default) and throws the last answer, with the key it sent', async () => {
    api.reply(error(500, 'INTERNAL'));
    const { transport, delays } = client();
    const failed = await failure(transport.request({ method: 'POST', path: '/trades', body: {} }));
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(api.seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(failed.idempotencyKey).toBe(api.seen[0].headers['idempotency-key']);
  });

  it('takes maxRetries from the call over the transport', async () => {
    api.reply(json(500, {}));
    const { transport } = client({ maxRetries: 5 });
    await failure(transport.request({ method: 'GET', path: '/trades', maxRetries: 0 }));
    expect(api.seen).toHaveLength(1);
  });

  it.each([
    [400, 'VALIDATION_FAILED'],
    [400, 'INVALID_JSON'],
    [401, 'UNAUTHORIZED'],
    [403, 'INSUFFICIENT_SCOPE'],
    [404, 'NOT_FOUND'],
    [408, 'REQUEST_TIMEOUT'],
    [409, 'CONFLICT'],
    [409, 'INVALID_TRANSITION'],
    [409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [422, 'IDEMPOTENCY_KEY_REUSED'],
  ])('never retries a %i %s', async (status, code) => {
    api.reply(error(status, code), json(200, {}));
    const { transport, delays } = client();
    const failed = await failure(transport.request({ method: 'POST', path: '/trades', body: {} }));
    expect(failed).toMatchObject({ status, code });
    expect(api.seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries 409 IDEMPOTENCY_KEY_IN_USE after its Retry-After', async () => {
    api.reply(error(409, 'IDEMPOTENCY_KEY_IN_USE', undefined, { 'retry-after': '1' }), json(201, { id: 'trd_1' }));
    const { transport, delays } = client();
    await transport.request({ method: 'POST', path: '/trades', body: {}, idempotencyKey: 'k1' });
    expect(api.seen.map((seen) => seen.headers['idempotency-key'])).toEqual(['k1', 'k1']);
    expect(delays).toEqual([1000]);
  });

  it('waits the 429\'s details.retry_after', async () => {
    api.reply(error(429, 'RATE_LIMITED', { retry_after: 2 }), json(200, {}));
    const { transport, delays } = client();
    await transport.request({ method: 'GET', path: '/trades' });
    expect(delays).toEqual([2000]);
  });

  it('waits the 429\'s Retry-After when the body does not say', async () => {
    api.reply(json(429, { code: 'RATE_LIMITED', message: 'slow down' }, { 'retry-after': '3' }), json(200, {}));
    const { transport, delays } = client();
    await transport.request({ method: 'GET', path: '/trades' });
    expect(delays).toEqual([3000]);
  });

  it('prefers details.retry_after to Retry-After when both are given', async () => {
    api.reply(error(429, 'RATE_LIMITED', { retry_after: 4 }, { 'retry-after': '1' }), json(200, {}));
    const { transport, delays } = client();
    await transport.request({ method: 'GET', path: '/trades' });
    expect(delays).toEqual([4000]);
  });

  it('backs off with jitter from a 429 that names no wait', async () => {
    api.reply(json(429, { code: 'RATE_LIMITED', message: 'slow down' }), json(200, {}));
    const { transport, delays } = client({ random: () => 0.25 });
    await transport.request({ method: 'GET', path: '/trades' });
    expect(delays).toEqual([125]);
  });

  it('throws at once a RateLimitedError whose wait is over the cap (60 s)', async () => {
    api.reply(error(429, 'RATE_LIMITED', { retry_after: 61 }, { 'retry-after': '61' }), json(200, {}));
    const { transport, delays } = client();
    const failed = await failure(transport.request({ method: 'GET', path: '/trades' }));
    expect(failed).toBeInstanceOf(RateLimitedError);
    expect(failed).toMatchObject({ retryAfter: 61 });
    expect(api.seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('sleeps a wait of exactly the cap', async () => {
    api.reply(error(429, 'RATE_LIMITED', { retry_after: 60 }), json(200, {}));
    const { transport, delays } = client();
    await transport.request({ method: 'GET', path: '/trades' });
    expect(delays).toEqual([DEFAULT_RETRY_POLICY.maxServerWaitMs]);
  });

  it('honours a 503\'s retry_after (STORAGE_FULL)', async () => {
    api.reply(error(503, 'STORAGE_FULL', { retry_after: 30 }, { 'retry-after': '30' }), json(201, {}));
    const { transport, delays } = client();
    await transport.request({ method: 'POST', path: '/trades', body: {} });
    expect(delays).toEqual([30_000]);
  });

  it('retries a connection the server destroys, with the same key', async () => {
    api.reply(destroy, json(201, { id: 'trd_1' }));
    const { transport, delays } = client();
    const response = await transport.request({ method: 'POST', path: '/trades', body: { offerId: 'ofr_1' } });
    expect(response.data).toEqual({ id: 'trd_1' });
    expect(api.seen).toHaveLength(2);
    expect(api.seen[1].headers['idempotency-key']).toBe(api.seen[0].headers['idempotency-key']);
    expect(delays).toHaveLength(1);
  });

  it('throws a ConnectionError when the connection keeps failing', async () => {
    api.reply(destroy);
    const { transport, delays } = client();
    const failed = await failure(transport.request({ method: 'GET', path: '/trades' }));
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(failed.cause).toBeDefined();
    expect(api.seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('throws a ConnectionError when nothing listens', async () => {
    const { transport } = client({ baseUrl: 'http://127.0.0.1:1', maxRetries: 1 });
    expect(await failure(transport.request({ method: 'GET', path: '/trades' }))).toBeInstanceOf(ConnectionError);
  });

  it('retries an attempt that timed out, then succeeds', async () => {
    api.reply(hang, json(200, { ok: true }));
    const { transport, delays } = client({ timeoutMs: 100 });
    expect((await transport.request({ method: 'GET', path: '/trades' })).data).toEqual({ ok: true });
    expect(api.seen).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('throws a TimeoutError when every attempt times out', async () => {
    api.reply(hang);
    // The client's own timeout is an hour: had the call's 80 ms been ignored, the test would hang
    // (jest's timeout fails it) instead of answering.
    const { transport, delays } = client({ timeoutMs: 3_600_000 });
    const failed = await failure(transport.request({ method: 'POST', path: '/trades', body: {}, timeoutMs: 80, maxRetries: 1 }));
    expect(failed).toBeInstanceOf(TimeoutError);
    expect(failed).toMatchObject({ timeoutMs: 80 });
    expect(failed.idempotencyKey).toMatch(UUID);
    expect(api.seen).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('times out a body that stops half-way', async () => {
    api.reply((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
    });
    const { transport } = client({ timeoutMs: 80, maxRetries: 0 });
    expect(await failure(transport.request({ method: 'GET', path: '/trades' }))).toBeInstanceOf(TimeoutError);
  });

  it('times out a fetch that ignores its signal', async () => {
    const { transport } = client({ timeoutMs: 50, maxRetries: 0, fetch: () => new Promise<Response>(() => undefined) });
    expect(await failure(transport.request({ method: 'GET', path: '/trades' }))).toBeInstanceOf(TimeoutError);
  });
});

describe('Transport: backoff', () => {
  const { baseDelayMs, maxDelayMs } = DEFAULT_RETRY_POLICY;

  it('documents its policy: 500 ms doubling to 8 s, server waits up to 60 s', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ baseDelayMs: 500, maxDelayMs: 8000, maxServerWaitMs: 60_000 });
  });

  it.each([0, 1, 2, 3, 4, 5, 10])('retry %i waits between 0 and min(8 s, 500 ms × 2^n)', (attempt) => {
    const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
    expect(client({ random: () => 0 }).transport.backoff(attempt)).toBe(0);
    const top = client({ random: () => 1 - Number.EPSILON }).transport.backoff(attempt);
    expect(top).toBeLessThan(cap);
    expect(top).toBeCloseTo(cap, 6);
  });

  it('spaces the retries of a call by those ranges (random ≈ 1)', async () => {
    api.reply(json(503, {}));
    const { transport, delays } = client({ maxRetries: 6, random: () => 0.999999 });
    await failure(transport.request({ method: 'GET', path: '/trades' }));
    expect(delays.map(Math.round)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('retries at once with random = 0', async () => {
    api.reply(json(503, {}));
    const { transport, delays } = client({ random: () => 0 });
    await failure(transport.request({ method: 'GET', path: '/trades' }));
    expect(delays).toEqual([0, 0]);
  });

  it('takes a retry policy', async () => {
    api.reply(json(503, {}), json(429, {}, { 'retry-after': '5' }));
    const { transport, delays } = client({ random: () => 0.999999, retry: { baseDelayMs: 100, maxServerWaitMs: 4000 } });
    const failed = await failure(transport.request({ method: 'GET', path: '/trades' }));
    // 100 ms for the 503; the 429's 5 s are over the 4 s cap: thrown at once.
    expect(delays.map(Math.round)).toEqual([100]);
    expect(failed).toBeInstanceOf(RateLimitedError);
  });

  it('sleeps for real by default', async () => {
    api.reply(json(503, {}), json(200, {}));
    const transport = new Transport({ baseUrl: api.url, random: () => 0.2, retry: { baseDelayMs: 100 } });
    const started = Date.now();
    await transport.request({ method: 'GET', path: '/trades' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });
});

describe('Transport: the caller\'s abort', () => {
  it('aborts an attempt in flight and does not retry', async () => {
    api.reply(hang);
    const { transport, delays } = client();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const failed = await failure(transport.request({ method: 'POST', path: '/trades', body: {}, signal: controller.signal }));
    expect(failed).toBeInstanceOf(RequestAbortedError);
    expect(failed.name).toBe('AbortError');
    expect((failed as RequestAbortedError).reason).toEqual(new Error('user left'));
    expect(failed.idempotencyKey).toMatch(UUID);
    expect(api.seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('sends nothing when the signal is already aborted', async () => {
    api.reply(json(200, {}));
    const failed = await failure(client().transport.request({ method: 'GET', path: '/trades', signal: AbortSignal.abort() }));
    expect(failed).toBeInstanceOf(RequestAbortedError);
    expect(api.seen).toHaveLength(0);
  });

  it('stops during the wait before a retry', async () => {
    api.reply(json(503, {}), json(200, {}));
    const controller = new AbortController();
    const { transport } = client({
      sleep: async () => {
        controller.abort();
      },
    });
    expect(await failure(transport.request({ method: 'GET', path: '/trades', signal: controller.signal }))).toBeInstanceOf(RequestAbortedError);
    expect(api.seen).toHaveLength(1);
  });

  it('cuts the default sleep short', async () => {
    // The server asks for an hour, and the client may wait that long: only the abort ends the
    // sleep (a sleep that ignored it would hang, and jest's timeout would fail the test).
    api.reply(error(429, 'RATE_LIMITED', { retry_after: 3600 }));
    const transport = new Transport({ baseUrl: api.url, retry: { maxServerWaitMs: 7_200_000 } });
    const failed = await failure(transport.request({ method: 'GET', path: '/trades', signal: AbortSignal.timeout(100) }));
    expect(failed).toBeInstanceOf(RequestAbortedError);
    expect(api.seen).toHaveLength(1);
  });
});

describe('Transport: error answers', () => {
  // Every class, from the catalogue's examples (libs/platform/src/openapi/error-catalog.ts).
  it.each([
    { status: 400, code: 'VALIDATION_FAILED', details: { issues: [{ path: 'maxPrice', message: 'Invalid input: expected number, received string' }] }, Class: ValidationError },
    { status: 400, code: 'INVALID_JSON', details: undefined, Class: ApiError },
    { status: 401, code: 'UNAUTHORIZED', details: undefined, Class: UnauthorizedError },
    { status: 403, code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'write:requests' }, Class: InsufficientScopeError },
    { status: 404, code: 'NOT_FOUND', details: undefined, Class: NotFoundError },
    { status: 409, code: 'CONFLICT', details: undefined, Class: ConflictError },
    { status: 409, code: 'INVALID_TRANSITION', details: { from: 'initiated', to: 'shipped', allowed: ['paid', 'cancelled'] }, Class: InvalidTransitionError },
    { status: 409, code: 'INSUFFICIENT_QUANTITY', details: { inventoryItemId: 'inv_1', requested: 1, available: 0 }, Class: ConflictError },
    { status: 409, code: 'RESERVE_TOO_LOW', details: { minimumAmount: 320, currency: 'USD' }, Class: ConflictError },
    { status: 409, code: 'LIMIT_EXCEEDED', details: { limit: 'webhooks_per_workspace', max: 50 }, Class: ConflictError },
    { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE', details: undefined, Class: IdempotencyError },
    { status: 409, code: 'IDEMPOTENCY_REPLAY_UNAVAILABLE', details: undefined, Class: IdempotencyError },
    { status: 422, code: 'IDEMPOTENCY_KEY_REUSED', details: undefined, Class: IdempotencyError },
    { status: 413, code: 'PAYLOAD_TOO_LARGE', details: undefined, Class: ApiError },
    { status: 429, code: 'RATE_LIMITED', details: { retry_after: 1 }, Class: RateLimitedError },
    { status: 500, code: 'INTERNAL', details: undefined, Class: ApiError },
    { status: 503, code: 'STORAGE_READ_ONLY', details: { retry_after: 30 }, Class: ApiError },
  ])('$status $code is a $Class.name', async ({ status, code, details, Class }) => {
    api.reply(json(status, details ? { code, message: `${code}: what happened`, details } : { code, message: `${code}: what happened` }, { 'x-request-id': `req_${code}` }));
    const failed = await failure(client({ maxRetries: 0 }).transport.request({ method: 'GET', path: '/things' }));
    expect(failed).toBeInstanceOf(Class);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toBeInstanceOf(Error);
    expect(failed.constructor).toBe(Class);
    expect(failed).toMatchObject({ status, code, message: `${code}: what happened`, details, requestId: `req_${code}` });
    expect((failed as ApiError).headers?.get('content-type')).toContain('application/json');
  });

  it('reads the fields of the typed errors', async () => {
    const { transport } = client({ maxRetries: 0 });
    api.reply(error(409, 'INVALID_TRANSITION', { from: 'initiated', to: 'shipped', allowed: ['paid', 'cancelled'] }));
    expect(await failure(transport.request({ method: 'POST', path: '/trades/trd_1/ship' }))).toMatchObject({
      from: 'initiated',
      to: 'shipped',
      allowed: ['paid', 'cancelled'],
    });
    api.reply(error(400, 'VALIDATION_FAILED', { issues: [{ path: 'maxPrice', message: 'must be a number' }] }));
    expect(await failure(transport.request({ method: 'POST', path: '/buyer-requests' }))).toMatchObject({ issues: [{ path: 'maxPrice', message: 'must be a number' }] });
    api.reply(error(403, 'INSUFFICIENT_SCOPE', { requiredScope: 'write:trades', requiredScopes: ['read:trades', 'write:trades'] }));
    expect(await failure(transport.request({ method: 'POST', path: '/trades' }))).toMatchObject({
      requiredScope: 'write:trades',
      requiredScopes: ['read:trades', 'write:trades'],
    });
    api.reply(error(429, 'RATE_LIMITED', { retry_after: 1 }, { 'retry-after': '1' }));
    expect(await failure(transport.request({ method: 'GET', path: '/trades' }))).toMatchObject({ retryAfter: 1 });
  });

  it('makes an ApiError of a body that is not the API\'s (a proxy\'s HTML page)', async () => {
    api.reply(text(502, '<html><body>Bad Gateway</body></html>'));
    const failed = await failure(client({ maxRetries: 0 }).transport.request({ method: 'GET', path: '/trades' }));
    expect(failed.constructor).toBe(ApiError);
    expect(failed).toMatchObject({ status: 502, code: 'HTTP_502', requestId: 'req_text', details: undefined });
    expect(failed.message).toContain('Bad Gateway');
  });

  it('makes an ApiError of an empty error answer', async () => {
    api.reply((res) => res.writeHead(500).end());
    const failed = await failure(client({ maxRetries: 0 }).transport.request({ method: 'GET', path: '/trades' }));
    expect(failed).toMatchObject({ status: 500, code: 'HTTP_500', requestId: null });
  });

  it('keeps a code it does not know', async () => {
    api.reply(error(418, 'TEAPOT'));
    const failed = await failure(client().transport.request({ method: 'GET', path: '/trades' }));
    expect(failed.constructor).toBe(ApiError);
    expect(failed).toMatchObject({ status: 418, code: 'TEAPOT', message: 'TEAPOT happened' });
    expect(api.seen).toHaveLength(1);
  });
});

describe('encodePath and queryString', () => {
  it('encodes each path parameter as one segment', () => {
    expect(encodePath`/trades/${'trd_1'}/ship`).toBe('/trades/trd_1/ship');
    expect(encodePath`/cards/${'a/b c?#'}`).toBe('/cards/a%2Fb%20c%3F%23');
    expect(encodePath`/lots/${42}`).toBe('/lots/42');
    expect(encodePath`/health`).toBe('/health');
  });

  it.each(['', '.', '..'])('refuses the path parameter "%s"', (value) => {
    expect(() => encodePath`/trades/${value}/ship`).toThrow(TypeError);
  });

  it('writes an empty query as nothing', () => {
    expect(queryString(undefined)).toBe('');
    expect(queryString({ a: undefined, b: null, c: [] })).toBe('');
  });
});

describe('Transport: options', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 0 }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetries', { maxRetries: 1.5 }],
  ])('refuses a bad %s', (_name, options) => {
    expect(() => client(options)).toThrow(RangeError);
  });

  it('refuses a base URL with a query, and a path without its slash', () => {
    expect(() => client({ baseUrl: `${api.url}?x=1` })).toThrow(TypeError);
    expect(() => client().transport.url('trades')).toThrow(TypeError);
  });

  it('reports the key it sent even when a header tries another', async () => {
    api.reply(json(201, {}));
    const response = await client().transport.request({ method: 'POST', path: '/trades', body: {}, idempotencyKey: 'k-option', headers: { 'Idempotency-Key': 'k-header' } });
    expect(api.seen[0].headers['idempotency-key']).toBe('k-option');
    expect(response.idempotencyKey).toBe('k-option');
  });

  it('uses the injected key generator', async () => {
    api.reply(json(201, {}));
    await client({ generateIdempotencyKey: () => 'generated-1' }).transport.request({ method: 'POST', path: '/trades', body: {} });
    expect(api.seen[0].headers['idempotency-key']).toBe('generated-1');
  });

  it('reads a Retry-After date with the injected clock', async () => {
    api.reply(json(503, { code: 'NOT_READY', message: 'not ready' }, { 'retry-after': 'Wed, 21 Oct 2026 07:28:10 GMT' }), json(200, {}));
    const { transport, delays } = client({ now: () => Date.parse('Wed, 21 Oct 2026 07:28:00 GMT') });
    await transport.request({ method: 'GET', path: '/health/ready' });
    expect(delays).toEqual([10_000]);
  });
});
