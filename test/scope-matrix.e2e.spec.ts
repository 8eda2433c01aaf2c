// The scope matrix: for every operation of the live OpenAPI document and every single scope, a
// key with only that scope gets a 2xx exactly when the scope grants the operation's
// `x-required-scope` (admin grants all, write:x grants read:x), and otherwise exactly
// 403 INSUFFICIENT_SCOPE naming the required scope.
import type { OpenApiDocument } from '@app/platform';
import { grants, SCOPES, type Scope } from '@app/platform';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import {
  callOperation,
  concretePath,
  describeOperation,
  exampleBody,
  fetchDocument,
  isErrorBody,
  isPublic,
  type Operation,
  operationsOf,
  requiredScope,
  requiredScopes,
  successStatuses,
  UNTHROTTLED_ENV,
} from './support/openapi';
import { becomeSeller } from './support/trust';

describe('scope matrix (e2e)', () => {
  let app: RunningApp;
  let adminKey: string;
  let document: OpenApiDocument;
  const keys = new Map<Scope, string>();
  /** The workspace is a seller with a trust credential, so the public trust routes answer 2xx for its slug. */
  let sellerParams: Record<string, string> = {};

  beforeAll(async () => {
    app = await startApp({ env: UNTHROTTLED_ENV });
    adminKey = (await createWorkspace(app.dataDir, 'matrix')).apiKey;
    // One CLI process per scope, all at once: the CLI shares the SQLite files safely.
    const created = await Promise.all(
      SCOPES.map((scope) => cli(app.dataDir, ['key', 'create', '--workspace', 'matrix', '--name', scope, '--scopes', scope])),
    );
    created.forEach((result, i) => {
      if (result.code !== 0) throw new Error(`key create ${SCOPES[i]} failed: ${result.stderr}`);
      keys.set(SCOPES[i], result.json<{ secret: string }>().secret);
    });
    document = await fetchDocument(app.url);
    const seller = await becomeSeller(app.url, adminKey);
    sellerParams = { slug: seller.slug, listId: seller.workspaceId };
  }, 180_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('names a known scope on every authenticated operation', () => {
    const authenticated = operationsOf(document).filter((operation) => !isPublic(operation));
    expect(authenticated.length).toBeGreaterThan(0);
    for (const operation of authenticated) {
      const scope = requiredScope(operation);
      if (scope !== undefined) expect(SCOPES).toContain(scope);
    }
  });

  it('answers 2xx when the scope grants the operation and 403 INSUFFICIENT_SCOPE otherwise', async () => {
    const outcomes: string[] = [];
    const wrong: string[] = [];
    for (const operation of operationsOf(document)) {
      for (const scope of SCOPES) {
        const outcome = await callWithScope(operation, scope);
        outcomes.push(outcome.summary);
        if (outcome.problem) wrong.push(outcome.problem);
      }
    }
    expect(wrong).toEqual([]);
    // Every operation was called with every scope.
    expect(outcomes).toHaveLength(operationsOf(document).length * SCOPES.length);
  }, 600_000); // ~2,000 requests: minutes on a machine whose cores are busy elsewhere; only a hang should fail it

  async function callWithScope(operation: Operation, scope: Scope): Promise<{ summary: string; problem?: string }> {
    const key = keys.get(scope);
    if (!key) throw new Error(`no key for ${scope}`);
    // Resources are made with the admin key, fresh for every call so a DELETE never meets a deleted one.
    const path = await concretePath(app.url, document, operation, adminKey, sellerParams);
    const res = await callOperation(app.url, operation, path, key, await exampleBody(app.url, document, operation, adminKey));
    const all = requiredScopes(operation);
    // The first scope the key lacks is the one the refusal names.
    const required = all.find((s) => !grants([scope], s));
    const expectGranted = isPublic(operation) || required === undefined;
    const summary = `${describeOperation(operation)} with ${scope}: ${res.status}`;
    if (expectGranted) {
      const ok = successStatuses(operation).includes(res.status);
      return ok ? { summary } : { summary, problem: `${summary}, expected ${successStatuses(operation).join('/')}: ${res.text}` };
    }
    const body = res.body;
    const denied =
      res.status === 403 &&
      isErrorBody(body) &&
      body.code === 'INSUFFICIENT_SCOPE' &&
      body.details?.requiredScope === required &&
      required !== undefined &&
      body.message.includes(required);
    return denied ? { summary } : { summary, problem: `${summary}, expected 403 INSUFFICIENT_SCOPE for ${String(required)}: ${res.text}` };
  }
});
