// Protection around every route: security headers, CORS only where public, JSON-only bodies,
// readiness, request ids in JSON logs without secrets, and a graceful SIGTERM.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

describe('HTTP hardening (e2e)', () => {
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    app = await startApp({ env: { LOG_LEVEL: 'info' } });
    key = (await createWorkspace(app.dataDir, 'hard')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('sends security headers on every answer', async () => {
    for (const res of [
      await http(app.url, 'GET', '/api/v1/health'),
      await http(app.url, 'GET', '/api/v1/buyer-requests', { key }),
      await http(app.url, 'GET', '/api/v1/nope'),
    ]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('opens CORS on public routes only', async () => {
    const preflight = (path: string) =>
      http(app.url, 'OPTIONS', path, { headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    const open = await preflight('/api/v1/health');
    expect(open.status).toBe(204);
    expect(open.headers.get('access-control-allow-origin')).toBe('*');

    const simple = await http(app.url, 'GET', '/api/v1/health', { headers: { origin: 'https://shop.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBe('*');
    expect(simple.headers.get('access-control-expose-headers')).toBe('RateLimit, RateLimit-Policy, Retry-After, X-Request-Id');

    const closed = await preflight('/api/v1/buyer-requests');
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    const get = await http(app.url, 'GET', '/api/v1/buyer-requests', { key, headers: { origin: 'https://shop.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('accepts JSON bodies only: 415 UNSUPPORTED_MEDIA_TYPE otherwise', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await http<{ code: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
        key,
        rawBody: 'cardName=Charizard',
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('reports readiness of both stores', async () => {
    const res = await http(app.url, 'GET', '/api/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { eventStore: 'ok', readStore: 'ok' } });
  });

  it('logs JSON lines carrying the request id, never the API key', async () => {
    await http(app.url, 'GET', '/api/v1/buyer-requests', { key, headers: { 'x-request-id': 'trace-me-123' } });
    await new Promise((r) => setTimeout(r, 100));
    const lines = app
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const traced = lines.map((l) => JSON.parse(l) as { reqId?: string }).filter((l) => l.reqId === 'trace-me-123');
    expect(traced.length).toBeGreaterThanOrEqual(2); // incoming request + request completed
    expect(app.output()).not.toContain(key);
    expect(app.output()).not.toContain(key.slice(-43)); // nor the secret part alone
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const other = await startApp();
    const { apiKey } = await createWorkspace(other.dataDir, 'graceful');
    let firstAnswered: () => void = () => undefined;
    const flowing = new Promise<void>((resolve) => (firstAnswered = resolve));
    const requests = Array.from({ length: 60 }, (_, i) =>
      http<{ id: string }>(other.url, 'POST', '/api/v1/buyer-requests', {
        key: apiKey,
        body: { cardName: `Card ${i}`, setName: 'Base', condition: 'NM', maxPrice: 1 },
      }).then(
        (res) => {
          firstAnswered();
          return res;
        },
        () => null,
      ),
    );
    await flowing; // the server is busy with the rest: signal it now
    const exit = new Promise<number | null>((resolve) => other.child.once('exit', (code) => resolve(code)));
    other.child.kill('SIGTERM');
    const results = await Promise.all(requests);
    expect(await exit).toBe(0);
    for (const res of results) if (res) expect([201, 503]).toContain(res.status);
    const acknowledged = results.flatMap((r) => (r?.status === 201 ? [r.body.id] : []));
    expect(acknowledged.length).toBeGreaterThan(0);

    const again = await startApp({ dataDir: other.dataDir });
    try {
      for (const id of acknowledged) {
        expect((await http(again.url, 'GET', `/api/v1/buyer-requests/${id}`, { key: apiKey })).status).toBe(200);
      }
    } finally {
      await again.stop();
      removeDir(other.dataDir);
    }
  });
});
