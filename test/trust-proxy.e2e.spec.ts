// Per-IP limits behind a load balancer: with TRUST_PROXY the client address comes from
// X-Forwarded-For; without it the header is ignored, so a client cannot spoof its way past a limit.
import { removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

const LIMITS = { RATE_LIMIT_PUBLIC_PER_SECOND: '2', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000' };

async function statusesFrom(app: RunningApp, forwardedFor: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 1) {
    statuses.push((await http(app.url, 'GET', '/api/v1/health', { headers: { 'x-forwarded-for': forwardedFor } })).status);
  }
  return statuses;
}

describe('TRUST_PROXY (e2e)', () => {
  it('limits each forwarded client on its own when the proxy is trusted', async () => {
    const app = await startApp({ env: { ...LIMITS, TRUST_PROXY: 'true' } });
    try {
      expect(await statusesFrom(app, '203.0.113.7', 3)).toEqual([200, 200, 429]);
      expect(await statusesFrom(app, '198.51.100.9', 2)).toEqual([200, 200]);
    } finally {
      await app.stop();
      removeDir(app.dataDir);
    }
  });

  it('ignores X-Forwarded-For by default: one bucket for the socket address', async () => {
    const app = await startApp({ env: LIMITS });
    try {
      expect(await statusesFrom(app, '203.0.113.7', 2)).toEqual([200, 200]);
      expect(await statusesFrom(app, '198.51.100.9', 1)).toEqual([429]);
    } finally {
      await app.stop();
      removeDir(app.dataDir);
    }
  });
});
