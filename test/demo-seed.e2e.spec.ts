// `demo seed` end to end: the real CLI seeds a workspace of the real app (running on the same
// DATA_DIR); over HTTP the inventory, buyer requests, offers and trades are there in the numbers
// the summary gives, tradegraph pricing flags the planted outliers by item id, a second seed is
// refused, and a fresh DATA_DIR (no server running) seeded the same way gets the same plan.
import { cli, type CliResult, createWorkspace, removeDir, type RunningApp, startApp, tempDataDir } from './support/app-process';
import { http, until } from './support/http';

interface Outlier {
  itemId: string;
  sku: string;
  card: string;
  set: string;
  condition: string;
  price: number;
  basePrice: number;
  factor: number;
  expected: { direction: 'above' | 'below'; severity: string };
}

interface Summary {
  workspace: { id: string; slug: string };
  scale: number;
  fingerprint: string;
  clock: string;
  sets: Array<{ setId: string; name: string; inventoryItems: number }>;
  counts: {
    cards: { stocked: number; requestedOnly: number };
    inventoryItems: number;
    units: number;
    itemsWithSeveralUnits: number;
    buyerRequests: { total: number; onStockedCards: number; underEveryListing: number; neverStocked: number; archivedUnmatched: number; matchedAtCreation: number };
    offers: { total: number; accepted: number; rejected: number; pending: number };
    trades: { total: number; byStatus: Record<string, number> };
    writes: number;
  };
  outliers: Outlier[];
  seedKey: { id: string; revoked: boolean };
  tookMs: number;
}

interface Pricing {
  anomalies: Array<{ itemId: string; itemName: string; direction: string; severity: string; price: number }>;
  nextCursor: string | null;
}

/** What must be equal between two seeds of the same scale: all but ids and timings. */
function plan(summary: Summary) {
  const { workspace: _w, seedKey: _k, tookMs: _t, outliers, ...rest } = summary;
  return { ...rest, outliers: outliers.map(({ itemId: _id, ...o }) => o) };
}

function tally<T>(rows: T[], by: (row: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) out[by(row)] = (out[by(row)] ?? 0) + 1;
  return out;
}

describe('demo seed (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let run: CliResult;
  let summary: Summary;
  const get = <T>(path: string) => http<T>(app.url, 'GET', path, { key });

  /** Every row of a paginated list. */
  async function all<T>(path: string): Promise<T[]> {
    const rows: T[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page: { status: number; body: { data: T[]; nextCursor: string | null } } = await get(`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      rows.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    return rows;
  }

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'demo')).apiKey;
    run = await cli(app.dataDir, ['demo', 'seed', '--workspace', 'demo']);
    if (run.code !== 0) throw new Error(`demo seed failed (${run.code}): ${run.stderr}`);
    summary = run.json<Summary>();
  }, 60_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('prints its progress a line per phase (no terminal) and a JSON summary', () => {
    for (const phase of ['items', 'requests', 'archive', 'offers', 'answers', 'trades']) expect(run.stderr).toMatch(new RegExp(`^demo seed: ${phase}: \\d+ in \\d+ ms`, 'm'));
    expect(run.stderr).toMatch(/\(100%\)\n$/);
    expect(summary.scale).toBe(1);
    expect(summary.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(summary.clock).toMatch(/now/);
    expect(summary.sets).toHaveLength(4);
    expect(summary.counts.cards).toEqual({ stocked: 40, requestedOnly: 16 });
    expect(summary.counts.inventoryItems).toBeGreaterThanOrEqual(60);
    expect(summary.counts.itemsWithSeveralUnits).toBeGreaterThan(0);
    expect(summary.counts.buyerRequests).toMatchObject({ total: 48, onStockedCards: 28, underEveryListing: 4, neverStocked: 12, archivedUnmatched: 4 });
    expect(summary.counts.offers).toEqual({ total: 20, accepted: 12, rejected: 4, pending: 4 });
    expect(summary.counts.trades).toEqual({ total: 12, byStatus: { settled: 5, completed: 2, delivered: 2, shipped: 1, paid: 1, initiated: 1 } });
    expect(summary.outliers.map((o) => `${o.expected.direction}:${o.factor}`)).toEqual(['above:5', 'below:0.3', 'above:5', 'below:0.3']);
    expect(summary.seedKey.revoked).toBe(true);
  });

  it('wrote the stock, the demand, the offers and the trades it counts', async () => {
    const items = await all<{ id: string; sku: string | null; quantity: number; notes: string | null }>('/api/v1/inventory');
    expect(items).toHaveLength(summary.counts.inventoryItems);
    expect(items.every((i) => i.sku?.startsWith('DEMO-'))).toBe(true);
    expect(items.reduce((n, i) => n + i.quantity, 0)).toBe(summary.counts.units);
    expect(items.filter((i) => i.quantity > 1)).toHaveLength(summary.counts.itemsWithSeveralUnits);

    const requests = await all<{ status: string; source: string | null }>('/api/v1/buyer-requests');
    expect(requests).toHaveLength(summary.counts.buyerRequests.total);
    expect(requests.every((r) => r.source === 'demo-seed')).toBe(true);
    expect(tally(requests, (r) => r.status).archived).toBe(summary.counts.buyerRequests.archivedUnmatched);

    const offers = await all<{ status: string }>('/api/v1/offers');
    expect(tally(offers, (o) => o.status)).toEqual({ accepted: 12, rejected: 4, pending: 4 });

    const trades = await all<{ status: string }>('/api/v1/trades');
    expect(tally(trades, (t) => t.status)).toEqual(summary.counts.trades.byStatus);

    // The seed's own key was revoked at the end of the run.
    const keys = await all<{ id: string; status: string }>('/api/v1/api-keys');
    expect(keys.find((k) => k.id === summary.seedKey.id)?.status).toBe('revoked');
  });

  it('plants price outliers that tradegraph pricing flags by item id', async () => {
    const anomalies = await until('the planted outliers in pricing', async () => {
      const found: Pricing['anomalies'] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: Pricing } = await get<Pricing>(`/api/v1/tradegraph/pricing?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        if (res.status !== 200) return undefined;
        found.push(...res.body.anomalies);
        cursor = res.body.nextCursor;
      } while (cursor);
      return summary.outliers.every((o) => found.some((a) => a.itemId === o.itemId)) ? found : undefined;
    });
    for (const outlier of summary.outliers) {
      expect(anomalies.find((a) => a.itemId === outlier.itemId)).toMatchObject({
        direction: outlier.expected.direction,
        severity: 'high',
        price: outlier.price,
        itemName: `${outlier.card} (${outlier.set}, Near Mint)`,
      });
    }
  });

  it('refuses to seed the same workspace twice, and adds nothing', async () => {
    const again = await cli(app.dataDir, ['demo', 'seed', '--workspace', 'demo']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr.trim())).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/has demo data already/) });
    expect(await all('/api/v1/inventory')).toHaveLength(summary.counts.inventoryItems);
  });

  it('refuses a bad --scale and an unknown workspace', async () => {
    const badScale = await cli(app.dataDir, ['demo', 'seed', '--workspace', 'demo', '--scale', '0']);
    expect(badScale.code).toBe(2);
    expect(badScale.stderr).toMatch(/--scale takes a whole number from 1 to/);
    const unknown = await cli(app.dataDir, ['demo', 'seed', '--workspace', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/NOT_FOUND/);
  });

  it('is deterministic: a fresh DATA_DIR (no server) seeded the same way gets the same cards, prices and counts', async () => {
    const dir = tempDataDir();
    try {
      await createWorkspace(dir, 'demo');
      const other = await cli(dir, ['demo', 'seed', '--workspace', 'demo']);
      expect(other.code).toBe(0);
      const second = other.json<Summary>();
      expect(plan(second)).toEqual(plan(summary));
      expect(second.outliers.map((o) => o.itemId)).not.toEqual(summary.outliers.map((o) => o.itemId));
    } finally {
      removeDir(dir);
    }
  }, 60_000);
});
