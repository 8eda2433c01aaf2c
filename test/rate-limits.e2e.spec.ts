// Rate limits over HTTP against the real app: the burst and minute windows per workspace under
// concurrency, the IETF RateLimit fields, 429 RATE_LIMITED with Retry-After, per-workspace
// counters, a CLI override reaching the running server, and per-IP limits on public routes.
import { request as httpRequest } from 'node:http';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http, type HttpResult } from './support/http';

interface ErrorBody {
  code: string;
  message: string;
  details?: { retry_after?: number };
}

// Small quotas so a test can cross them; the CLI gets the same environment as the server, so the
// limits it prints are the server's.
const ENV = {
  RATE_LIMIT_PER_SECOND: '10',
  RATE_LIMIT_PER_MINUTE: '25',
  RATE_LIMIT_PUBLIC_PER_SECOND: '4',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000',
};
const POLICY = '"burst";q=10;w=1, "minute";q=25;w=60';
const LIST = '/api/v1/buyer-requests';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const statuses = (results: HttpResult[]) => results.map((r) => r.status).sort((a, b) => a - b);
const count = (results: HttpResult[], status: number) => results.filter((r) => r.status === status).length;

function parallel(n: number, send: (i: number) => Promise<HttpResult>): Promise<HttpResult[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i)));
}

/** A GET whose TCP connection comes from `localAddress` (another client IP on the loopback). */
function getFrom(url: string, localAddress: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function expectRateLimited(res: HttpResult<unknown>, retryAfter: number, window: 'burst' | 'minute'): void {
  expect(res.status).toBe(429);
  const body = res.body as ErrorBody;
  expect(body).toEqual({ code: 'RATE_LIMITED', message: expect.any(String), details: { retry_after: retryAfter } });
  expect(body.message).toContain(`Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  expect(res.headers.get('ratelimit')).toBe(`"${window}";r=0;t=${retryAfter}`);
}

describe('rate limits (e2e)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({ env: ENV });
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('lets exactly the burst quota through when N requests arrive at once', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'burst');
    const results = await parallel(24, () => http(app.url, 'GET', LIST, { key: apiKey }));

    expect(count(results, 200)).toBe(10);
    expect(count(results, 429)).toBe(14);
    const served = results.filter((r) => r.status === 200);
    // Each served request saw its own remaining count: the counter is exact under concurrency.
    expect(served.map((r) => r.headers.get('ratelimit')).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `"burst";r=${i};t=1`).sort(),
    );
    for (const res of results) expect(res.headers.get('ratelimit-policy')).toBe(POLICY);
    for (const res of results.filter((r) => r.status === 429)) {
      expectRateLimited(res, 1, 'burst');
      expect((res.body as ErrorBody).message).toBe(
        'Too many requests: this workspace is over its rate limit of 10 requests per second. Retry after 1 second.',
      );
    }
  });

  it('refuses past the minute quota with the minute window`s wait, not counting refused requests', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'minute');
    const batch = () => parallel(10, () => http(app.url, 'GET', LIST, { key: apiKey }));
    expect(statuses(await batch())).toEqual(Array(10).fill(200));
    await sleep(1100);
    expect(statuses(await batch())).toEqual(Array(10).fill(200));
    await sleep(1100);

    const third = await batch();
    expect(count(third, 200)).toBe(5);
    const refused = third.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    const wait = Number(refused[0].headers.get('retry-after'));
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
    for (const res of refused) {
      expectRateLimited(res, Number(res.headers.get('retry-after')), 'minute');
      expect((res.body as ErrorBody).message).toContain('rate limit of 25 requests per minute');
    }
  });

  it('counts per workspace, shared by all of its keys', async () => {
    const a = await createWorkspace(app.dataDir, 'iso-a');
    const b = await createWorkspace(app.dataDir, 'iso-b');
    const second = await cli(app.dataDir, ['key', 'create', '--workspace', 'iso-a', '--name', 'second']);
    const secondKey = second.json<{ secret: string }>().secret;

    const both = await parallel(16, (i) => http(app.url, 'GET', LIST, { key: i % 2 === 0 ? a.apiKey : secondKey }));
    expect(count(both, 200)).toBe(10);
    expect(count(both, 429)).toBe(6);

    const other = await parallel(10, () => http(app.url, 'GET', LIST, { key: b.apiKey }));
    expect(statuses(other)).toEqual(Array(10).fill(200));
  });

  it('applies limits set through the CLI to the running server', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'vip');
    expect((await http(app.url, 'GET', LIST, { key: apiKey })).headers.get('ratelimit-policy')).toBe(POLICY);

    const set = await cli(app.dataDir, ['workspace', 'limits', '--workspace', 'vip', '--per-minute', '600', '--per-second', '50'], ENV);
    expect(set.code).toBe(0);
    expect(set.json()).toEqual({
      workspace: { id: expect.stringMatching(/^ws_/), name: 'Workspace vip', slug: 'vip' },
      limits: { perMinute: 600, perSecond: 50 },
      overrides: { perMinute: 600, perSecond: 50 },
    });

    // The server caches a workspace's limits for up to a second.
    let policy: string | null = null;
    for (let i = 0; i < 20 && policy !== '"burst";q=50;w=1, "minute";q=600;w=60'; i += 1) {
      await sleep(200);
      policy = (await http(app.url, 'GET', LIST, { key: apiKey })).headers.get('ratelimit-policy');
    }
    expect(policy).toBe('"burst";q=50;w=1, "minute";q=600;w=60');
    const burst = await parallel(40, () => http(app.url, 'GET', LIST, { key: apiKey }));
    expect(statuses(burst)).toEqual(Array(40).fill(200));

    const reset = await cli(app.dataDir, ['workspace', 'limits', '--workspace', 'vip', '--per-second', 'default'], ENV);
    expect(reset.json()).toMatchObject({ limits: { perMinute: 600, perSecond: 10 }, overrides: { perMinute: 600, perSecond: null } });
    const shown = await cli(app.dataDir, ['workspace', 'limits', '--workspace', 'vip'], ENV);
    expect(shown.json()).toEqual(reset.json());
  });

  it('refuses bad limits and unknown workspaces in the CLI', async () => {
    const usage = await cli(app.dataDir, ['workspace', 'limits', '--workspace', 'vip', '--per-minute', 'lots']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--per-minute takes a whole number of requests or "default"');

    const zero = await cli(app.dataDir, ['workspace', 'limits', '--workspace', 'vip', '--per-second', '0']);
    expect(zero.code).toBe(1);
    expect(JSON.parse(zero.stderr)).toMatchObject({ code: 'VALIDATION_FAILED' });

    const missing = await cli(app.dataDir, ['workspace', 'limits', '--workspace', 'nope', '--per-second', '5']);
    expect(JSON.parse(missing.stderr)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('limits public routes and failed authentication per client IP', async () => {
    const health = await parallel(8, () => http(app.url, 'GET', '/api/v1/health'));
    expect(count(health, 200)).toBe(4);
    const publicPolicy = '"burst";q=4;w=1, "minute";q=1000;w=60';
    for (const res of health) expect(res.headers.get('ratelimit-policy')).toBe(publicPolicy);
    for (const res of health.filter((r) => r.status === 429)) {
      expectRateLimited(res, 1, 'burst');
      expect((res.body as ErrorBody).message).toContain('this IP address is over its rate limit of 4 requests per second');
    }

    // Another client IP has its own quota; an invalid key from the throttled one is throttled too.
    const [elsewhere, guessing] = await Promise.all([
      getFrom(`${app.url}/api/v1/health`, '127.0.0.2'),
      http(app.url, 'GET', LIST, { key: 'sk_guess' }),
    ]);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['ratelimit']).toBe('"burst";r=3;t=1');
    expectRateLimited(guessing, 1, 'burst');

    await sleep(1100);
    const invalid = await http(app.url, 'GET', LIST, { key: 'sk_guess' });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('ratelimit-policy')).toBe(publicPolicy);
    expect(invalid.headers.get('ratelimit')).toBe('"burst";r=3;t=1');
  });

  it('sends the RateLimit fields on writes too', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'writer');
    const created = await http(app.url, 'POST', LIST, {
      key: apiKey,
      body: { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450.5 },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('ratelimit-policy')).toBe(POLICY);
    expect(created.headers.get('ratelimit')).toBe('"burst";r=9;t=1');
    expect(created.headers.get('retry-after')).toBeNull();
  });
});
