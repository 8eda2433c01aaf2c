// The shared cache in front of the routes, over HTTP on the real app: a public, cacheable answer
// is served again from memory (x-cache: hit) with its own request id and RateLimit fields, the
// per-IP public limit still refuses a client over it — the client address read as the routes read
// it (TRUST_PROXY) — and another client is still served.
import { removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

describe('public cache (e2e)', () => {
  let app: RunningApp;
  const get = (ip: string) => http(app.url, 'GET', '/verify/assets/verify.css', { headers: { 'x-forwarded-for': ip } });

  beforeAll(async () => {
    app = await startApp({ env: { TRUST_PROXY: 'true', RATE_LIMIT_PUBLIC_PER_SECOND: '5', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000' } });
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('serves hits from memory, and the per-IP limit counts them', async () => {
    const first = await get('203.0.113.7');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBeNull();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await get('203.0.113.7'));
    expect(answers[0].headers.get('x-cache')).toBe('hit');
    expect(answers[0].text).toBe(first.text);
    expect(answers[0].headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(answers[0].headers.get('x-content-type-options')).toBe('nosniff');
    expect(answers[0].headers.get('ratelimit')).toMatch(/^"burst";r=\d+;t=\d+$/);
    expect(new Set(answers.map((a) => a.headers.get('x-request-id'))).size).toBe(6);
    const refused = answers.find((a) => a.status === 429);
    expect(refused).toBeDefined();
    expect(refused?.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused?.headers.get('retry-after')).toBeTruthy();
    expect((await get('198.51.100.9')).status).toBe(200);
  });
});
