// `demo seed` end to end: the real CLI seeds a workspace of the real app while it runs on the same
// DATA_DIR. Everything is in the log, written by the contexts' own handlers (actor `cli`) in this
// run, while the business times in the events span the six simulated weeks; no timer was fired and
// none is left due; over HTTP the inventory, buyer requests, offers and trades are there in the
// numbers the summary gives, tradegraph's summary shows a velocity and a trend, its pricing flags
// the planted outliers by item id; a second seed is refused, and a fresh DATA_DIR (no server
// running) seeded the same way gets the same plan.
import { join } from 'node:path';

import { type RecordedEvent, TIMERS, type TimerDoc } from '@app/platform';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { cli, type CliResult, createWorkspace, removeDir, type RunningApp, startApp, tempDataDir } from './support/app-process';
import { http, until } from './support/http';

const DAY = 86_400_000;

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
  clock: { simulated: boolean; from: string; firstWrite: string; lastWrite: string; disputeWindowDays: number; note: string };
  sets: Array<{ setId: string; name: string; inventoryItems: number }>;
  counts: {
    cards: { stocked: number; requestedOnly: number };
    inventoryItems: number;
    units: number;
    itemsWithSeveralUnits: number;
    buyerRequests: {
      total: number;
      onStockedCards: number;
      underEveryListing: number;
      neverStocked: number;
      archivedUnmatched: number;
      matchedAtCreation: number;
      inTheLast30Days: number;
    };
    offers: { total: number; accepted: number; rejected: number; pending: number };
    trades: { total: number; byStatus: Record<string, number> };
    writes: number;
  };
  outliers: Outlier[];
  tookMs: number;
}

interface Pricing {
  anomalies: Array<{ itemId: string; itemName: string; direction: string; severity: string; price: number }>;
  nextCursor: string | null;
}

interface Cluster {
  name: string;
  created: number;
  velocity: number;
  previousVelocity: number;
  trend: { change: number | null; direction: 'up' | 'down' | 'flat' | 'new' };
}

interface Trade {
  id: string;
  status: string;
  timeline: Array<{ status: string; at: string; by: 'client' | 'timer' }>;
}

/** What must be equal between two seeds of the same scale: all but ids, timings and the run's own dates. */
function plan(summary: Summary) {
  const { workspace: _w, tookMs: _t, outliers, clock, ...rest } = summary;
  const { from: _f, firstWrite: _fw, lastWrite: _lw, ...clockRest } = clock;
  return { ...rest, clock: clockRest, outliers: outliers.map(({ itemId: _id, ...o }) => o) };
}

function tally<T>(rows: T[], by: (row: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) out[by(row)] = (out[by(row)] ?? 0) + 1;
  return out;
}

/** The moves a trade takes to reach its stage from initiated. */
const MOVES_TO: Record<string, number> = { initiated: 0, paid: 1, shipped: 2, delivered: 3, completed: 4, settled: 5 };

describe('demo seed (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let run: CliResult;
  let summary: Summary;
  let seededFrom: number;
  let seededTo: number;
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
    seededFrom = Date.now();
    // While the server runs: its timers and process managers see every write as it is made.
    run = await cli(app.dataDir, ['demo', 'seed', '--workspace', 'demo']);
    seededTo = Date.now();
    if (run.code !== 0) throw new Error(`demo seed failed (${run.code}): ${run.stderr}`);
    summary = run.json<Summary>();
  }, 60_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('prints its progress a line per simulated week (no terminal) and a JSON summary', () => {
    for (let week = 1; week <= 6; week++) expect(run.stderr).toMatch(new RegExp(`^demo seed: week ${week}: \\d+ in \\d+ ms`, 'm'));
    expect(run.stderr).toMatch(/\(100%\)\n$/);
    expect(summary.scale).toBe(1);
    expect(summary.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(summary.clock).toMatchObject({ simulated: true, disputeWindowDays: 3, note: expect.stringMatching(/Simulated/) });
    // The clock started 42 days before the run and ended in its final day, before the real now.
    expect(Date.parse(summary.clock.from)).toBeGreaterThanOrEqual(seededFrom - 42 * DAY);
    expect(Date.parse(summary.clock.from)).toBeLessThanOrEqual(seededTo - 42 * DAY);
    expect(Date.parse(summary.clock.firstWrite)).toBeLessThan(seededFrom - 35 * DAY);
    expect(Date.parse(summary.clock.lastWrite)).toBeGreaterThan(seededFrom - DAY);
    expect(Date.parse(summary.clock.lastWrite)).toBeLessThan(seededFrom);
    expect(summary.sets).toHaveLength(4);
    expect(summary.counts.cards).toEqual({ stocked: 40, requestedOnly: 16 });
    expect(summary.counts.inventoryItems).toBeGreaterThanOrEqual(60);
    expect(summary.counts.itemsWithSeveralUnits).toBeGreaterThan(0);
    expect(summary.counts.buyerRequests).toMatchObject({ total: 52, onStockedCards: 32, underEveryListing: 4, neverStocked: 12, archivedUnmatched: 4 });
    expect(summary.counts.buyerRequests.inTheLast30Days).toBeLessThan(52);
    expect(summary.counts.offers).toEqual({ total: 20, accepted: 12, rejected: 4, pending: 4 });
    expect(summary.counts.trades).toEqual({ total: 12, byStatus: { settled: 5, completed: 2, delivered: 2, shipped: 1, paid: 1, initiated: 1 } });
    expect(summary.outliers.map((o) => `${o.expected.direction}:${o.factor}`)).toEqual(['above:5', 'below:0.3', 'above:5', 'below:0.3']);
    expect(summary).not.toHaveProperty('seedKey');
  });

  it('wrote everything through the log, in this run, with business times spread over the simulated weeks', async () => {
    const log = new SqliteEventStore(join(app.dataDir, 'events.db'));
    let events: RecordedEvent[];
    try {
      events = (await log.readAll({ limit: 100_000 })).filter((e) => e.metadata.workspaceId === summary.workspace.id);
    } finally {
      await log.close();
    }
    const byType = tally(events, (e) => e.type);
    const { counts } = summary;
    const moves = Object.entries(counts.trades.byStatus).reduce((n, [status, trades]) => n + MOVES_TO[status] * trades, 0);
    expect(byType).toMatchObject({
      'inventory.created': counts.inventoryItems,
      'buyer_request.created': counts.buyerRequests.total,
      'buyer_request.archived': counts.buyerRequests.archivedUnmatched,
      'offer.created': counts.offers.total,
      'offer.accepted': counts.offers.accepted,
      'offer.rejected': counts.offers.rejected,
      'trade.initiated': counts.trades.total,
      'trade.status_changed': moves,
    });
    // The seed's writes, every one through a command: the contexts' own events, attributed to the CLI.
    const seeded = events.filter((e) => ['inventory.created', 'buyer_request.created', 'offer.created', 'offer.accepted', 'trade.status_changed'].includes(e.type));
    expect(seeded.every((e) => e.metadata.actor === 'cli' && String(e.metadata.correlationId).startsWith('demo-seed-'))).toBe(true);
    // Nothing was done by a timer: no offer lapsed, no trade was completed by its dispute window.
    expect(byType['offer.expired']).toBeUndefined();
    expect(events.filter((e) => e.type === 'trade.status_changed').every((e) => (e.data as { by: string }).by === 'client')).toBe(true);

    // The log's own append times are real: all within the run…
    for (const e of seeded) {
      expect(Date.parse(e.createdAt)).toBeGreaterThanOrEqual(seededFrom - 1000);
      expect(Date.parse(e.createdAt)).toBeLessThanOrEqual(seededTo + 1000);
    }
    // …while the business times, the simulated clock's, span more than three weeks, none in the future.
    const listed = events.filter((e) => e.type === 'inventory.created').map((e) => Date.parse((e.data as { createdAt: string }).createdAt));
    expect(Math.max(...listed) - Math.min(...listed)).toBeGreaterThan(21 * DAY);
    expect(Math.min(...listed)).toBeGreaterThanOrEqual(seededFrom - 42 * DAY);
    const requested = events.filter((e) => e.type === 'buyer_request.created').map((e) => Date.parse((e.data as { createdAt: string }).createdAt));
    expect(Math.max(...requested) - Math.min(...requested)).toBeGreaterThan(21 * DAY);
    const moved = events.filter((e) => e.type === 'trade.status_changed').map((e) => Date.parse((e.data as { at: string }).at));
    for (const at of [...listed, ...requested, ...moved]) expect(at).toBeLessThan(seededFrom);
    // Trades completed on more than one day.
    const completedDays = new Set(
      events.filter((e) => e.type === 'trade.status_changed' && (e.data as { to: string }).to === 'completed').map((e) => (e.data as { at: string }).at.slice(0, 10)),
    );
    expect(completedDays.size).toBeGreaterThan(1);
  });

  it('wrote the stock, the demand, the offers and the trades it counts', async () => {
    const items = await all<{ id: string; sku: string | null; quantity: number; notes: string | null; createdAt: string }>('/api/v1/inventory');
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
  });

  it('leaves no deadline in the past: pending offers lapse, delivered trades complete, every timer fires after the run', async () => {
    const now = Date.now();
    const pending = await all<{ status: string; createdAt: string; expiresAt: string }>('/api/v1/offers?status=pending');
    expect(pending).toHaveLength(summary.counts.offers.pending);
    for (const offer of pending) {
      // Made in the final day, with the default 48 h to run.
      expect(Date.parse(offer.createdAt)).toBeGreaterThan(seededFrom - DAY);
      expect(Date.parse(offer.expiresAt)).toBeGreaterThan(now);
    }
    for (const { id } of await all<{ id: string }>('/api/v1/trades?status=delivered')) {
      const trade = (await get<Trade>(`/api/v1/trades/${id}`)).body;
      const delivered = trade.timeline.find((t) => t.status === 'delivered');
      expect(Date.parse(delivered?.at ?? '') + summary.clock.disputeWindowDays * DAY).toBeGreaterThan(now);
    }
    // The pending timers themselves (the timers projection, caught up by the seed at its end).
    const reads = new SqliteReadStore(join(app.dataDir, 'read.db'));
    try {
      const timers = (await reads.collection<TimerDoc>(TIMERS).find({ workspaceId: summary.workspace.id }, { limit: 1000 })).items;
      expect(timers.length).toBeGreaterThanOrEqual(summary.counts.offers.pending + summary.counts.trades.byStatus.delivered);
      for (const timer of timers) expect(Date.parse(timer.dueAt)).toBeGreaterThan(now);
    } finally {
      await reads.close();
    }
  });

  it('gives tradegraph a velocity and a trend: more requests in the last 30 days than in the 30 before', async () => {
    const clusters = await until('the demand clusters', async () => {
      const res = await get<{ clusters: Cluster[] }>('/api/v1/tradegraph/summary?limit=100');
      return res.status === 200 && res.body.clusters.some((c) => c.trend.direction === 'up') ? res.body.clusters : undefined;
    });
    expect(clusters.some((c) => c.velocity > 0)).toBe(true);
    // The market cards of the first two sets: one buyer in the previous window, two in this one.
    const up = clusters.filter((c) => c.trend.direction === 'up');
    expect(up.length).toBeGreaterThanOrEqual(2);
    for (const c of up) expect(c.velocity).toBeGreaterThan(c.previousVelocity);
    expect(clusters.some((c) => c.trend.direction === 'new')).toBe(true);

    const sets = (await get<{ clusters: Cluster[] }>('/api/v1/tradegraph/summary?groupBy=set')).body.clusters;
    expect(sets).toHaveLength(4);
    expect(sets.every((s) => s.velocity > 0)).toBe(true);
    expect(sets.some((s) => s.trend.direction === 'up')).toBe(true);
  });

  it('plants price outliers that tradegraph pricing flags by item id', async () => {
    const anomalies = await until('the planted outliers in pricing', async () => {
      const found: Pricing['anomalies'] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: Pricing } = await get<Pricing>(`/api/v1/tradegraph/pricing?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
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

  it('is deterministic: a fresh DATA_DIR (no server) seeded the same way gets the same cards, prices, times and counts', async () => {
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
