// Tradegraph end to end, over HTTP on the real app: a workspace with completed sales, listings and
// buyers of one card, and two planted outliers — one listed at 5× the market, one far below it —
// answers a band built from all three sources, finds the first `above` with `high` severity and
// the second `below`; a key lacking one of the scopes it summarizes is refused naming it; and a
// rebuild of the read models from the log gives the same answer.
import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, until } from './support/http';

interface Pricing {
  cards: Array<{ card: string; condition: string; band: { p10: number; median: number; p90: number; count: number } | null; sources: { sales: number; listings: number; buyers: number }; anomalyCount: number; dispersion: { label: string } | null }>;
  anomalies: Array<{ itemId: string; itemName: string; direction: string; severity: string; price: number; reasons: string; band: { p90: number } }>;
  windowDays: number;
  nextCursor: string | null;
}

describe('tradegraph (e2e)', () => {
  let app: RunningApp;
  let key: string;
  const call = <T>(method: string, path: string, body?: unknown, k = key) => http<T>(app.url, method, path, { key: k, body });
  const list = (price: number, card = 'Charizard') =>
    call<{ id: string }>('POST', '/api/v1/inventory', { cardName: card, setName: 'Base', condition: 'NM', price }).then((r) => r.body.id);
  async function sell(price: number): Promise<void> {
    const itemId = await list(price);
    const trade = await call<{ id: string }>('POST', '/api/v1/trades', { inventoryItemId: itemId });
    for (const to of ['paid', 'shipped', 'delivered', 'completed']) expect((await call('POST', `/api/v1/trades/${trade.body.id}/transitions`, { to })).status).toBe(200);
  }
  const pricing = (query = '') => call<Pricing>('GET', `/api/v1/tradegraph/pricing${query}`);
  let high = '';
  let low = '';

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'graph')).apiKey;
    for (const price of [400, 410, 415, 420, 430, 440]) await sell(price);
    for (const price of [425, 435]) await list(price);
    high = await list(2100);
    low = await list(150);
    for (const maxPrice of [450, 460]) expect((await call('POST', '/api/v1/buyer-requests', { cardName: 'Charizard', setName: 'Base', condition: 'NM', maxPrice })).status).toBe(201);
    await list(5, 'Pikachu');
    // Demand: a Pikachu buyer the listing matches, a Blastoise buyer under every Blastoise listing,
    // a Venusaur request archived without a match.
    const ask = (cardName: string, maxPrice: number) => call<{ id: string }>('POST', '/api/v1/buyer-requests', { cardName, setName: 'Base', condition: 'NM', maxPrice });
    await ask('Pikachu', 10);
    await list(300, 'Blastoise');
    await ask('Blastoise', 100);
    const venusaur = await ask('Venusaur', 50);
    expect((await call('POST', `/api/v1/buyer-requests/${venusaur.body.id}/archive`)).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('bands a card from its sales, listings and buyers, and finds the planted outliers', async () => {
    const res = await until('the read models', async () => {
      const r = await pricing('?card=charizard&set=BS&condition=near%20mint');
      return r.body.cards?.[0]?.sources.buyers === 2 ? r : undefined;
    });
    expect(res.status).toBe(200);
    expect(res.body.windowDays).toBe(30);
    expect(res.body.cards).toHaveLength(1);
    const [card] = res.body.cards;
    expect(card).toMatchObject({ card: 'Charizard', condition: 'Near Mint', sources: { sales: 6, listings: 4, buyers: 2 }, anomalyCount: 2 });
    expect(card.band?.count).toBe(12);
    expect(card.band?.median).toBeGreaterThanOrEqual(415);
    expect(card.band?.median).toBeLessThanOrEqual(440);
    const above = res.body.anomalies.find((a) => a.itemId === high);
    const below = res.body.anomalies.find((a) => a.itemId === low);
    expect(above).toMatchObject({ direction: 'above', severity: 'high', price: 2100, itemName: 'Charizard (Base, Near Mint)' });
    expect(above?.reasons).toMatch(/above/);
    expect(above?.band.p90).toBeLessThan(500);
    expect(below).toMatchObject({ direction: 'below', severity: 'high', price: 150 });
    expect(res.body.anomalies[0].severity).toBe('high');
  });

  it('clusters demand by card and by set: open, unmatched, velocity and missed demand', async () => {
    const summary = await until('the demand clusters', async () => {
      const r = await call<{ clusters: Array<{ name: string; open: number; unmatched: number; created: number; velocity: number; trend: { direction: string }; missed: { archivedUnmatched: number; aged: number; underEveryListing: number | null; total: number }; requestedPrices: { median: number } | null; heat: number; reasons: string }> }>('GET', '/api/v1/tradegraph/summary');
      return r.body.clusters?.length === 4 ? r.body : undefined;
    });
    const byName = Object.fromEntries(summary.clusters.map((c) => [c.name, c]));
    expect(summary.clusters[0].name).toBe('Charizard (Base)');
    expect(byName['Charizard (Base)']).toMatchObject({ open: 2, unmatched: 0, created: 2, trend: { direction: 'new' }, missed: { total: 0 }, requestedPrices: { median: 455 } });
    expect(byName['Pikachu (Base)']).toMatchObject({ open: 1, unmatched: 0 });
    expect(byName['Blastoise (Base)']).toMatchObject({ open: 1, unmatched: 1, missed: { underEveryListing: 1, total: 1 } });
    expect(byName['Venusaur (Base)']).toMatchObject({ open: 0, created: 1, missed: { archivedUnmatched: 1, total: 1 } });
    expect(byName['Blastoise (Base)'].reasons).toMatch(/1 priced under every listing/);
    expect(byName['Charizard (Base)'].velocity).toBeCloseTo(2 / 30, 2);
    const sets = await call<{ clusters: Array<{ name: string; open: number; missed: { underEveryListing: number | null } }> }>('GET', '/api/v1/tradegraph/summary?groupBy=set');
    expect(sets.body.clusters).toMatchObject([{ name: 'Base', open: 4, missed: { underEveryListing: null } }]);
  });

  it('shows supply: freshness, stale capital, saturation per card and sell-through', async () => {
    const res = await call<{
      workspace: { availableUnits: number; soldUnits: number; listedUnits: number; sellThrough: number; staleCapital: { units: number }; freshness: { buckets: Array<{ label: string; units: number }> }; stockValue: number };
      cards: Array<{ name: string; availableUnits: number; openRequests: number; saturation: { ratio: number | null; label: string }; soldUnits: number; sellThrough: number | null; reasons: string }>;
    }>('GET', '/api/v1/tradegraph/supply?staleDays=10');
    expect(res.status).toBe(200);
    expect(res.body.workspace).toMatchObject({ availableUnits: 6, soldUnits: 6, listedUnits: 12, sellThrough: 0.5, staleCapital: { units: 0 } });
    expect(res.body.workspace.stockValue).toBe(425 + 435 + 2100 + 150 + 5 + 300);
    expect(res.body.workspace.freshness.buckets[0]).toEqual({ label: '0-7 days', units: 6 });
    const byName = Object.fromEntries(res.body.cards.map((c) => [c.name, c]));
    expect(res.body.cards[0].name).toBe('Charizard (Base)');
    expect(byName['Charizard (Base)']).toMatchObject({ availableUnits: 4, openRequests: 2, saturation: { ratio: 2, label: 'balanced' }, soldUnits: 6, sellThrough: 0.6 });
    expect(byName['Charizard (Base)'].reasons).toMatch(/6 sold in 30 days \(sell-through 60 %\)/);
    expect(byName['Blastoise (Base)']).toMatchObject({ availableUnits: 1, openRequests: 1, saturation: { label: 'balanced' } });
    expect(byName['Venusaur (Base)']).toBeUndefined();
  });

  it('routes each available item to its best actions: a waiting buyer above a reprice when the buyer beats the band', async () => {
    type Routed = { items: Array<{ inventoryItemId: string; price: number; band: { median: number } | null; actions: Array<{ action: string; expectedValue: number; confidence: number; price: number; buyerRequestId: string | null; reasons: string }> }>; nextCursor: string | null };
    const overpriced = await call<Routed>('GET', `/api/v1/tradegraph/routing?inventoryItemId=${high}`);
    expect(overpriced.status).toBe(200);
    const [item] = overpriced.body.items;
    const kinds = item.actions.map((a) => a.action);
    // The buyers (up to 460) beat the band's median: offering to them ranks above relisting at the median.
    expect(kinds[0]).toBe('send_offer');
    expect(item.actions[0]).toMatchObject({ price: 460, buyerRequestId: expect.stringMatching(/^br_/) });
    expect(kinds.indexOf('send_offer')).toBeLessThan(kinds.indexOf('reprice_to_band'));
    expect(item.actions.map((a) => a.expectedValue)).toEqual([...item.actions.map((a) => a.expectedValue)].sort((a, b) => b - a));
    for (const a of item.actions) expect(a.confidence).toBeGreaterThan(0);
    const page = await call<Routed>('GET', '/api/v1/tradegraph/routing?limit=100');
    const fair = page.body.items.find((i) => i.price === 425);
    expect(fair?.actions[0]).toMatchObject({ action: 'sell_to_request' });
    const cheapCard = page.body.items.find((i) => i.price === 5);
    expect(cheapCard?.actions.map((a) => a.action)).toContain('wait');
    expect((await call<ErrorBody>('GET', '/api/v1/tradegraph/routing?inventoryItemId=inv_nope')).status).toBe(404);
  });

  it('lists every card of the workspace a page at a time, and validates its query', async () => {
    const all = await pricing();
    expect(all.body.cards.map((c) => c.card)).toEqual(['Blastoise', 'Charizard', 'Pikachu', 'Venusaur']);
    const first = await pricing('?limit=1&card=charizard');
    expect(first.body.cards.map((c) => c.card)).toEqual(['Charizard']);
    expect(first.body.nextCursor).toBeNull();
    const page = await pricing('?limit=2');
    expect(page.body.cards.map((c) => c.card)).toEqual(['Blastoise', 'Charizard']);
    const second = await pricing(`?limit=1&cursor=${encodeURIComponent(page.body.nextCursor as string)}`);
    expect(second.body.cards).toMatchObject([{ card: 'Pikachu', band: { count: 2 }, dispersion: { label: 'thin' }, anomalyCount: 0 }]);
    expect((await pricing('?windowDays=0')).status).toBe(400);
    expect((await pricing('?windowDays=366')).status).toBe(400);
    expect((await pricing('?card=nothing-like-it')).body.cards).toEqual([]);
  });

  it('needs the read scope of every kind of data it summarizes', async () => {
    const created = await cli(app.dataDir, ['key', 'create', '--workspace', 'graph', '--name', 'trades only', '--scopes', 'read:trades,read:requests']);
    const partial = created.json<{ secret: string }>().secret;
    const refused = await call<ErrorBody & { details: { requiredScope: string; requiredScopes: string[] } }>('GET', '/api/v1/tradegraph/pricing', undefined, partial);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'read:inventory', requiredScopes: ['read:trades', 'read:inventory', 'read:requests'] } });
  });

  it('shows a workspace only its own market', async () => {
    const other = (await createWorkspace(app.dataDir, 'graph-other')).apiKey;
    const theirs = await call<Pricing>('GET', '/api/v1/tradegraph/pricing', undefined, other);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ cards: [], anomalies: [], nextCursor: null });
  });

  it('answers the same after its read models are rebuilt from the log', async () => {
    const strip = (p: Pricing & { computedAt?: string; tookMs?: number; window?: unknown }) => ({ ...p, computedAt: undefined, tookMs: undefined, window: undefined });
    const before = (await pricing()).body;
    const summaryBefore = (await call<Pricing>('GET', '/api/v1/tradegraph/summary')).body;
    const supplyBefore = (await call<Pricing>('GET', '/api/v1/tradegraph/supply')).body;
    const routingBefore = (await call<Pricing>('GET', '/api/v1/tradegraph/routing?limit=100')).body;
    expect((await cli(app.dataDir, ['projections', 'rebuild', 'tradegraph'])).code).toBe(0);
    const after = await until('the rebuilt read models', async () => {
      const r = (await pricing()).body;
      return r.cards.length === before.cards.length && r.anomalies.length === before.anomalies.length ? r : undefined;
    });
    expect(strip(after)).toEqual(strip(before));
    expect(strip((await call<Pricing>('GET', '/api/v1/tradegraph/summary')).body)).toEqual(strip(summaryBefore));
    expect(strip((await call<Pricing>('GET', '/api/v1/tradegraph/supply')).body)).toEqual(strip(supplyBefore));
    expect(strip((await call<Pricing>('GET', '/api/v1/tradegraph/routing?limit=100')).body)).toEqual(strip(routingBefore));
  });
});
