// Every id a write names in its body is checked like a path id: a reference that does not exist, or
// that is another workspace's, is 404 NOT_FOUND — the same answer for both, so ids do not leak —
// with the message and `details` naming the field, and nothing is created. Each route is also
// called with a reference of its own workspace, so the 404 is about the reference and nothing else.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, until } from './support/http';
import { UNTHROTTLED_ENV } from './support/openapi';

interface Refs {
  itemId: string;
  requestId: string;
  matchId: string;
  offerId: string;
  eventId: string;
}

interface Case {
  /** `route field`, for the test names. */
  name: string;
  field: string;
  /** The route's path (as workspace A). */
  path: () => string;
  body: (id: string) => Record<string, unknown>;
  own: () => string;
  foreign: () => string;
  unknown: string;
  /** A list of A's that the write would grow. */
  list?: () => string;
}

const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' };
const inAnHour = (): string => new Date(Date.now() + 3600_000).toISOString();
/** A well-formed id that exists nowhere. */
const nowhere = (prefix: string): string => `${prefix}_01K${'0'.repeat(22)}Z`;

describe('references in write bodies: unknown or foreign → 404 naming the field (e2e)', () => {
  let app: RunningApp;
  let keyA: string;
  let keyB: string;
  const a = {} as Refs & { sessionId: string; lotId: string; ruleId: string; lotItemId: string };
  const b = {} as Refs;

  const post = async <T>(key: string, path: string, body?: unknown): Promise<T> => {
    const res = await http<T>(app.url, 'POST', path, { key, body });
    if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
    return res.body;
  };

  /** An item, a buyer request it fully matches, the match, an accepted offer, and a stored event. */
  async function seed(key: string, into: Refs, tag: string): Promise<void> {
    into.itemId = (await post<{ id: string }>(key, '/api/v1/inventory', { ...charizard, price: 100, quantity: 50, sku: `refs-${tag}` })).id;
    into.requestId = (await post<{ id: string }>(key, '/api/v1/buyer-requests', { ...charizard, maxPrice: 200 })).id;
    const pack = await post<{ matches: Array<{ id: string; inventoryItemId: string }> }>(key, '/api/v1/match-runs', { buyerRequestId: into.requestId });
    into.matchId = pack.matches.find((m) => m.inventoryItemId === into.itemId)?.id ?? '';
    expect(into.matchId).toMatch(/^mt_/);
    into.offerId = (await post<{ id: string }>(key, '/api/v1/offers', { inventoryItemId: into.itemId, amount: 90, from: 'buyer' })).id;
    await post(key, `/api/v1/offers/${into.offerId}/accept`);
    into.eventId = await until(`an event of ${tag}`, async () => {
      const events = await http<{ data: Array<{ id: string }> }>(app.url, 'GET', '/api/v1/events?limit=1', { key });
      return events.body.data[0]?.id;
    });
  }

  beforeAll(async () => {
    app = await startApp({ env: UNTHROTTLED_ENV });
    [keyA, keyB] = await Promise.all([
      createWorkspace(app.dataDir, 'refs-a').then((w) => w.apiKey),
      createWorkspace(app.dataDir, 'refs-b').then((w) => w.apiKey),
    ]);
    await seed(keyA, a, 'a');
    await seed(keyB, b, 'b');
    a.sessionId = (await post<{ id: string }>(keyA, '/api/v1/live-sessions', { title: 'refs' })).id;
    await post(keyA, `/api/v1/live-sessions/${a.sessionId}/start`);
    a.lotItemId = (await post<{ id: string }>(keyA, '/api/v1/inventory', { ...charizard, price: 100, quantity: 10, sku: 'refs-lot' })).id;
    a.lotId = (await post<{ id: string }>(keyA, `/api/v1/live-sessions/${a.sessionId}/lots`, { inventoryItemId: a.lotItemId, quantity: 5, startingPrice: 10 })).id;
    await post(keyA, `/api/v1/live-sessions/${a.sessionId}/lots/${a.lotId}/open`);
    a.ruleId = (
      await post<{ id: string }>(keyA, '/api/v1/automations', {
        name: 'refs',
        trigger: { event: 'offer.created', conditions: [] },
        action: { type: 'reject_offer', params: { belowPercentOfList: 1 } },
      })
    ).id;
  }, 60_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const offer = { amount: 90, from: 'buyer' };
  const hold = () => ({ depositAmount: 0, expiresAt: inAnHour() });
  const CASES: Case[] = [
    { name: 'POST /trades matchId', field: 'matchId', path: () => '/api/v1/trades', body: (id) => ({ matchId: id }), own: () => a.matchId, foreign: () => b.matchId, unknown: nowhere('mt'), list: () => '/api/v1/trades' },
    { name: 'POST /trades offerId', field: 'offerId', path: () => '/api/v1/trades', body: (id) => ({ offerId: id }), own: () => a.offerId, foreign: () => b.offerId, unknown: nowhere('ofr'), list: () => '/api/v1/trades' },
    {
      name: 'POST /trades inventoryItemId',
      field: 'inventoryItemId',
      path: () => '/api/v1/trades',
      body: (id) => ({ inventoryItemId: id }),
      own: () => a.itemId,
      foreign: () => b.itemId,
      unknown: nowhere('inv'),
      list: () => '/api/v1/trades',
    },
    {
      name: 'POST /trades buyerRequestId',
      field: 'buyerRequestId',
      path: () => '/api/v1/trades',
      body: (id) => ({ inventoryItemId: a.itemId, buyerRequestId: id }),
      own: () => a.requestId,
      foreign: () => b.requestId,
      unknown: nowhere('br'),
      list: () => '/api/v1/trades',
    },
    {
      name: 'POST /offers inventoryItemId',
      field: 'inventoryItemId',
      path: () => '/api/v1/offers',
      body: (id) => ({ inventoryItemId: id, ...offer }),
      own: () => a.itemId,
      foreign: () => b.itemId,
      unknown: nowhere('inv'),
      list: () => '/api/v1/offers',
    },
    {
      name: 'POST /offers buyerRequestId',
      field: 'buyerRequestId',
      path: () => '/api/v1/offers',
      body: (id) => ({ inventoryItemId: a.itemId, buyerRequestId: id, ...offer }),
      own: () => a.requestId,
      foreign: () => b.requestId,
      unknown: nowhere('br'),
      list: () => '/api/v1/offers',
    },
    {
      name: 'POST /offers matchId',
      field: 'matchId',
      path: () => '/api/v1/offers',
      body: (id) => ({ inventoryItemId: a.itemId, matchId: id, ...offer }),
      own: () => a.matchId,
      foreign: () => b.matchId,
      unknown: nowhere('mt'),
      list: () => '/api/v1/offers',
    },
    {
      name: 'POST /holds inventoryItemId',
      field: 'inventoryItemId',
      path: () => '/api/v1/holds',
      body: (id) => ({ inventoryItemId: id, ...hold() }),
      own: () => a.itemId,
      foreign: () => b.itemId,
      unknown: nowhere('inv'),
      list: () => '/api/v1/holds',
    },
    {
      name: 'POST /holds buyerRequestId',
      field: 'buyerRequestId',
      path: () => '/api/v1/holds',
      body: (id) => ({ inventoryItemId: a.itemId, buyerRequestId: id, ...hold() }),
      own: () => a.requestId,
      foreign: () => b.requestId,
      unknown: nowhere('br'),
      list: () => '/api/v1/holds',
    },
    {
      name: 'POST /match-runs buyerRequestId',
      field: 'buyerRequestId',
      path: () => '/api/v1/match-runs',
      body: (id) => ({ buyerRequestId: id }),
      own: () => a.requestId,
      foreign: () => b.requestId,
      unknown: nowhere('br'),
      list: () => '/api/v1/match-packs',
    },
    {
      name: 'POST /live-sessions/{id}/lots inventoryItemId',
      field: 'inventoryItemId',
      path: () => `/api/v1/live-sessions/${a.sessionId}/lots`,
      body: (id) => ({ inventoryItemId: id, startingPrice: 10 }),
      own: () => a.lotItemId,
      foreign: () => b.itemId,
      unknown: nowhere('inv'),
      list: () => `/api/v1/live-sessions/${a.sessionId}/lots`,
    },
    {
      name: 'POST /live-sessions/{id}/lots/{lotId}/reserves buyerRequestId',
      field: 'buyerRequestId',
      path: () => `/api/v1/live-sessions/${a.sessionId}/lots/${a.lotId}/reserves`,
      body: (id) => ({ buyer: { externalId: 'refs-bidder' }, amount: 10, buyerRequestId: id }),
      own: () => a.requestId,
      foreign: () => b.requestId,
      unknown: nowhere('br'),
      list: () => `/api/v1/live-sessions/${a.sessionId}/lots/${a.lotId}/reserves`,
    },
    {
      name: 'POST /automations/{id}/test eventId',
      field: 'eventId',
      path: () => `/api/v1/automations/${a.ruleId}/test`,
      body: (id) => ({ eventId: id }),
      own: () => a.eventId,
      foreign: () => b.eventId,
      unknown: `evt_${'0'.repeat(32)}`,
    },
  ];

  const count = async (list: string): Promise<number> => {
    const page = await http<{ data: unknown[] }>(app.url, 'GET', `${list}${list.includes('?') ? '&' : '?'}limit=100`, { key: keyA });
    expect(page.status).toBe(200);
    return page.body.data.length;
  };

  describe.each(CASES)('$name', (c) => {
    it.each([
      ['an unknown', 'unknown'],
      ['a foreign', 'foreign'],
    ] as const)('answers %s id with 404 naming the field, creating nothing', async (_label, kind) => {
      const id = kind === 'unknown' ? c.unknown : c.foreign();
      const before = c.list ? await count(c.list()) : 0;
      const res = await http<ErrorBody>(app.url, 'POST', c.path(), { key: keyA, body: c.body(id) });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(res.body.message).toContain(`"${c.field}"`);
      expect(res.body.details).toEqual({ field: c.field, id });
      if (c.list) expect(await count(c.list())).toBe(before);
    });

    it("accepts the workspace's own id", async () => {
      const res = await http<ErrorBody>(app.url, 'POST', c.path(), { key: keyA, body: c.body(c.own()) });
      expect(res.status < 300 ? 'ok' : `${res.status} ${res.text}`).toBe('ok');
    });
  });

  it("never lets a hold carry another workspace's buyer request into a trade", async () => {
    const placed = await http<ErrorBody>(app.url, 'POST', '/api/v1/holds', { key: keyA, body: { inventoryItemId: a.itemId, buyerRequestId: b.requestId, ...hold() } });
    expect(placed.status).toBe(404);
    const carrying = async (path: string) =>
      (await http<{ data: unknown[] }>(app.url, 'GET', `${path}?buyerRequestId=${b.requestId}&limit=100`, { key: keyA })).body.data;
    expect(await carrying('/api/v1/holds')).toEqual([]);
    expect(await carrying('/api/v1/trades')).toEqual([]);
  });
});
