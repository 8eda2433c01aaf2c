// Workspace isolation over every operation of the live OpenAPI document: a full-access key of
// workspace B can neither read nor change a resource of workspace A — it gets 404 NOT_FOUND, the
// same answer as for an id that does not exist (never 403, so ids do not leak) — and none of B's
// lists (every list route of the document, nested ones included) ever holds A's ids.
import type { OpenApiDocument } from '@app/platform';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import {
  callOperation,
  concretePath,
  describeOperation,
  fetchDocument,
  isErrorBody,
  isPublic,
  type Operation,
  operationsOf,
  pathParamNames,
  UNTHROTTLED_ENV,
} from './support/openapi';

describe('workspace isolation (e2e)', () => {
  let app: RunningApp;
  let keyA: string;
  let keyB: string;
  let document: OpenApiDocument;

  beforeAll(async () => {
    app = await startApp({ env: UNTHROTTLED_ENV });
    [keyA, keyB] = await Promise.all([
      createWorkspace(app.dataDir, 'iso-a').then((w) => w.apiKey),
      createWorkspace(app.dataDir, 'iso-b').then((w) => w.apiKey),
    ]);
    document = await fetchDocument(app.url);
  }, 60000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  /** The resource as A reads it once two reads 150 ms apart agree (at most 5 s). */
  const settled = async (path: string, key: string): Promise<Awaited<ReturnType<typeof http>>> => {
    let last = await http(app.url, 'GET', path, { key });
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 150));
      const next = await http(app.url, 'GET', path, { key });
      if (next.status === last.status && next.text === last.text) return next;
      last = next;
    }
    return last;
  };

  /** Authenticated operations on one resource: `{param}` in the path. */
  const onResources = (): Operation[] =>
    operationsOf(document).filter((o) => !isPublic(o) && pathParamNames(o.path).length > 0);

  it('has operations on single resources to check', () => {
    expect(onResources().length).toBeGreaterThan(0);
  });

  it("answers 404 NOT_FOUND to B for A's resources, on every method, exactly as for a missing id", async () => {
    const problems: string[] = [];
    for (const operation of onResources()) {
      const path = await concretePath(app.url, document, operation, keyA);
      // A's own background work (a webhook delivery's first attempt, in the worker process) may
      // still change the resource just after it is made: compare against it once it is settled.
      const before = await settled(path, keyA);

      const asB = await callOperation(app.url, operation, path, keyB);
      const missing = await callOperation(app.url, operation, replaceLastId(path), keyB);
      const what = describeOperation(operation);
      if (asB.status !== 404 || !isErrorBody(asB.body) || asB.body.code !== 'NOT_FOUND') {
        problems.push(`${what} as B: ${asB.status} ${asB.text}`);
      }
      if (asB.status !== missing.status || !isErrorBody(missing.body) || missing.body.code !== (isErrorBody(asB.body) ? asB.body.code : '')) {
        problems.push(`${what}: B's answer differs from a missing id's (${asB.status} vs ${missing.status} ${missing.text})`);
      }
      // B's attempt changed nothing A can see.
      const after = await http(app.url, 'GET', path, { key: keyA });
      if (after.status !== before.status || after.text !== before.text) {
        problems.push(`${what}: A's resource changed after B's attempt (${before.text} → ${after.text})`);
      }
    }
    expect(problems).toEqual([]);
  }, 60000);

  it("never lists A's ids to B, on every list route of the document", async () => {
    const [seedA, seedB] = [await seedLists(app.url, keyA, 'a'), await seedLists(app.url, keyB, 'b')];
    // Resource lists (`{data, nextCursor}`); the analytics pages (tradegraph) have their own isolation check.
    const lists = operationsOf(document).filter((o) => {
      const answer = JSON.stringify(o.op.responses[200]);
      return o.method === 'get' && !isPublic(o) && answer.includes('nextCursor') && answer.includes('"data"');
    });
    expect(lists.map((l) => l.path)).toEqual(expect.arrayContaining(['/api/v1/events', '/api/v1/match-packs', '/api/v1/webhooks/{id}/deliveries']));
    const problems: string[] = [];
    for (const list of lists) {
      const [pathA, pathB] = [seedA[list.path], seedB[list.path]];
      if (!pathA || !pathB) {
        problems.push(`${list.path}: no seed puts an item in this list; add one to seedLists`);
        continue;
      }
      const seenByA = await allIds(pathA, keyA);
      const seenByB = await allIds(pathB, keyB);
      if (seenByA.length === 0) problems.push(`${list.path}: A's list is empty, so the check means nothing`);
      const leaked = seenByB.filter((id) => seenByA.includes(id));
      if (leaked.length > 0) problems.push(`${list.path}: B sees A's ${leaked.join(', ')}`);
    }
    expect(problems).toEqual([]);
  }, 60000);

  async function allIds(path: string, key: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100';
      const page = await http<{ data: Array<{ id?: string; inventoryItemId?: string }>; nextCursor: string | null }>(app.url, 'GET', `${path}${query}`, { key });
      if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${page.text}`);
      // Items are named by their id; intake rows by the inventory item their push created.
      ids.push(...page.body.data.map((item) => item.id ?? item.inventoryItemId ?? JSON.stringify(item)));
      cursor = page.body.nextCursor;
    } while (cursor);
    return ids;
  }
});

/**
 * Puts at least one item in every list of a workspace, and answers where each list is (by its
 * path template): a match (an item meets a request), a match pack, a pushed intake session's rows,
 * a webhook delivery, and the events all of it appended. A new list route fails the suite until
 * it is seeded here.
 */
async function seedLists(url: string, key: string, tag: string): Promise<Record<string, string>> {
  const post = async (path: string, body?: unknown): Promise<{ id: string }> => {
    const res = await http<{ id: string }>(url, 'POST', path, { key, body });
    if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
    return res.body;
  };
  const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'NM' };
  await post('/api/v1/inventory', { ...charizard, price: 100, sku: `iso-${tag}` });
  const request = await post('/api/v1/buyer-requests', { ...charizard, maxPrice: 200 });
  await post('/api/v1/match-runs', { buyerRequestId: request.id });
  const session = await post('/api/v1/ingestion/sessions', { name: `iso ${tag}` });
  await post(`/api/v1/ingestion/sessions/${session.id}/items`, [{ ...charizard, price: 90, sku: `iso-row-${tag}` }]);
  await post(`/api/v1/ingestion/sessions/${session.id}/push`);
  const stock = await post('/api/v1/inventory', { ...charizard, price: 100, quantity: 3, sku: `iso-trade-${tag}` });
  await post('/api/v1/trades', { inventoryItemId: stock.id, buyerRequestId: request.id });
  await post('/api/v1/holds', { inventoryItemId: stock.id, depositAmount: 10, expiresAt: new Date(Date.now() + 3600_000).toISOString() });
  // A rule on buyer offers: the offer below is its run (skipped: not a lowball).
  const rule = await post('/api/v1/automations', {
    name: `iso ${tag}`,
    trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] },
    action: { type: 'reject_offer', params: { belowPercentOfList: 50 } },
  });
  await post('/api/v1/offers', { inventoryItemId: stock.id, amount: 90, from: 'buyer' });
  const show = await post('/api/v1/live-sessions', { title: `iso ${tag}` });
  await post(`/api/v1/live-sessions/${show.id}/start`);
  const onTheBlock = await post('/api/v1/inventory', { ...charizard, price: 100, sku: `iso-live-${tag}` });
  const lot = await post(`/api/v1/live-sessions/${show.id}/lots`, { inventoryItemId: onTheBlock.id, startingPrice: 10, increment: 1 });
  await post(`/api/v1/live-sessions/${show.id}/lots/${lot.id}/open`);
  await post(`/api/v1/live-sessions/${show.id}/lots/${lot.id}/reserves`, { buyer: { externalId: `iso-${tag}` }, amount: 10 });
  const webhook = await post('/api/v1/webhooks', { url: 'https://hooks.example.com/iso', events: ['buyer_request.created'] });
  await post('/api/v1/buyer-requests', { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', maxPrice: 5 });
  const deliveries = `/api/v1/webhooks/${webhook.id}/deliveries`;
  const deadline = Date.now() + 10_000;
  while ((await http<{ data: unknown[] }>(url, 'GET', deliveries, { key })).body.data.length === 0) {
    if (Date.now() > deadline) throw new Error(`no delivery in ${deliveries} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // A widget buyer whose card is in stock: emailed (the outbox), listed by /api/v1/notifications.
  const seller = (await http<{ seller: string }>(url, 'GET', '/api/v1/widget/settings', { key })).body.seller;
  const wanted = await http(url, 'POST', `/api/v1/public/sellers/${seller}/want-list`, { body: { items: [{ ...charizard, maxPrice: 200 }], email: `iso-${tag}@example.org` } });
  if (wanted.status !== 201) throw new Error(`the want list answered ${wanted.status}: ${wanted.text}`);
  while ((await http<{ data: unknown[] }>(url, 'GET', '/api/v1/notifications', { key })).body.data.length === 0) {
    if (Date.now() > deadline + 20_000) throw new Error('no notification after 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const runs = `/api/v1/automations/${rule.id}/runs`;
  while ((await http<{ data: unknown[] }>(url, 'GET', runs, { key })).body.data.length === 0) {
    if (Date.now() > deadline) throw new Error(`no run in ${runs} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const topLevel = [
    '/api/v1/automations',
    '/api/v1/api-keys',
    '/api/v1/buyer-requests',
    '/api/v1/events',
    '/api/v1/holds',
    '/api/v1/ingestion/sessions',
    '/api/v1/inventory',
    '/api/v1/live-sessions',
    '/api/v1/match-packs',
    '/api/v1/notifications',
    '/api/v1/offers',
    '/api/v1/trades',
    '/api/v1/webhooks',
  ];
  return {
    ...Object.fromEntries(topLevel.map((path) => [path, path])),
    '/api/v1/buyer-requests/{id}/matches': `/api/v1/buyer-requests/${request.id}/matches`,
    '/api/v1/ingestion/sessions/{id}/rows': `/api/v1/ingestion/sessions/${session.id}/rows`,
    '/api/v1/live-sessions/{id}/lots': `/api/v1/live-sessions/${show.id}/lots`,
    '/api/v1/live-sessions/{id}/lots/{lotId}/reserves': `/api/v1/live-sessions/${show.id}/lots/${lot.id}/reserves`,
    '/api/v1/webhooks/{id}/deliveries': deliveries,
    '/api/v1/automations/{id}/runs': runs,
  };
}

/** The same path with its last id swapped for a well-formed one that exists nowhere. */
function replaceLastId(path: string): string {
  const cut = path.lastIndexOf('/');
  const id = decodeURIComponent(path.slice(cut + 1));
  const prefix = /^([a-z]+_)/.exec(id)?.[1] ?? '';
  return `${path.slice(0, cut)}/${prefix}01K${'0'.repeat(22)}Z`;
}
