// Workspace isolation over every operation of the live OpenAPI document: a full-access key of
// workspace B can neither read nor change a resource of workspace A — it gets 404 NOT_FOUND, the
// same answer as for an id that does not exist (never 403, so ids do not leak) — and B's lists
// never hold A's ids.
import type { OpenApiDocument } from '@app/platform';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import {
  callOperation,
  concretePath,
  createResource,
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
      const before = await http(app.url, 'GET', path, { key: keyA });

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

  it("never lists A's ids to B", async () => {
    const lists = operationsOf(document).filter(
      (o) => o.method === 'get' && !isPublic(o) && pathParamNames(o.path).length === 0 && document.paths[o.path]?.post,
    );
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) {
      const idOfA = await createResource(app.url, document, list.path, list.path, keyA);
      const seenByA = await allIds(list.path, keyA);
      const seenByB = await allIds(list.path, keyB);
      expect({ list: list.path, aSeesOwn: seenByA.includes(idOfA) }).toEqual({ list: list.path, aSeesOwn: true });
      expect(seenByB.filter((id) => seenByA.includes(id))).toEqual([]);
    }
  }, 60000);

  async function allIds(path: string, key: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100';
      const page = await http<{ data: Array<{ id: string }>; nextCursor: string | null }>(app.url, 'GET', `${path}${query}`, { key });
      if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${page.text}`);
      ids.push(...page.body.data.map((item) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    return ids;
  }
});

/** The same path with its last id swapped for a well-formed one that exists nowhere. */
function replaceLastId(path: string): string {
  const cut = path.lastIndexOf('/');
  const id = decodeURIComponent(path.slice(cut + 1));
  const prefix = /^([a-z]+_)/.exec(id)?.[1] ?? '';
  return `${path.slice(0, cut)}/${prefix}01K${'0'.repeat(22)}Z`;
}
