// Property-based fuzzing of every operation in the live OpenAPI document: random and malformed
// bodies (wrong types, huge strings, deep nesting, odd unicode, broken JSON, arrays), query strings,
// Authorization / Content-Type / other headers and path parameters — made-up ids and the ids of
// real resources, so PATCH and DELETE reach existing documents. Whatever comes in, the API never
// answers 5xx, and every non-2xx answer is exactly `{code, message, details?}` without a stack
// trace; prototype-pollution keys change nothing. Bounded: a fixed (overridable) seed, a request
// budget and a time budget.
import fc from 'fast-check';

import type { OpenApiDocument } from '@app/platform';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import {
  concretePath,
  describeOperation,
  exampleBody,
  fetchDocument,
  isErrorBody,
  isPublic,
  type Operation,
  operationsOf,
  pathParamNames,
  UNTHROTTLED_ENV,
} from './support/openapi';

const SEED = Number(process.env.FUZZ_SEED ?? 20251122);
const REQUEST_BUDGET = 1400;
const TIME_BUDGET_MS = 45_000;
const STACK_TRACE = /\n\s+at |node_modules|\.(?:ts|js):\d+:\d+/;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

describe('fuzzing every operation (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let document: OpenApiDocument;
  /** A path to a real resource of the workspace, per operation on one resource. */
  const realPaths = new Map<Operation, string>();

  beforeAll(async () => {
    app = await startApp({ env: UNTHROTTLED_ENV });
    key = (await createWorkspace(app.dataDir, 'fuzz')).apiKey;
    document = await fetchDocument(app.url);
    for (const operation of operationsOf(document)) {
      if (!isPublic(operation) && pathParamNames(operation.path).length > 0) realPaths.set(operation, await concretePath(app.url, document, operation, key));
    }
  }, 60000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it(`never answers 5xx, and every error has the error shape (seed ${SEED})`, async () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(0);
    const runs = Math.max(20, Math.floor(REQUEST_BUDGET / operations.length));
    const deadline = Date.now() + TIME_BUDGET_MS;
    let sent = 0;
    const statuses = new Set<number>();
    for (const [i, operation] of operations.entries()) {
      const timeLeft = Math.max(1000, Math.floor((deadline - Date.now()) / (operations.length - i)));
      await fc.assert(
        fc.asyncProperty(requestFor(operation, key, realPaths.get(operation)), async (request) => {
          sent += 1;
          const problem = await send(app.url, request, statuses);
          if (problem) throw new Error(`${describeOperation(operation)}: ${problem}`);
        }),
        { seed: SEED + i, numRuns: runs, interruptAfterTimeLimit: timeLeft, markInterruptAsFailure: false },
      );
    }
    // The budget holds (at least 20 runs an operation), and enough of it was spent to mean something.
    expect(sent).toBeLessThanOrEqual(Math.max(REQUEST_BUDGET, runs * operations.length) + 200);
    expect(sent).toBeGreaterThanOrEqual(operations.length * 10);
    // The inputs reached every layer: handlers (2xx), validation (400), auth (401), lookups (404).
    for (const status of [200, 201, 400, 401, 404]) expect([...statuses]).toContain(status);
  }, TIME_BUDGET_MS + 30_000);

  it('lets prototype-pollution keys change nothing, on every operation that takes a body', async () => {
    const payloads = [
      (body: object) => `{"__proto__":{"status":"archived","scopes":["admin"],"polluted":true},${JSON.stringify(body).slice(1)}`,
      (body: object) => `{"constructor":{"prototype":{"status":"archived","polluted":true}},${JSON.stringify(body).slice(1)}`,
      (body: object) => JSON.stringify({ ...body, prototype: { polluted: true } }),
    ];
    const problems: string[] = [];
    for (const operation of operationsOf(document).filter((o) => o.op.requestBody && !isPublic(o))) {
      const path = realPaths.get(operation) ?? operation.path;
      const example = await exampleBody(app.url, document, operation, key);
      if (example === null || typeof example !== 'object' || Array.isArray(example)) continue;
      const before = realPaths.has(operation) ? await http(app.url, 'GET', path, { key }) : undefined;
      for (const payload of payloads) {
        const res = await http(app.url, operation.method.toUpperCase(), path, { key, rawBody: payload(example) });
        if (res.status !== 400 || !isErrorBody(res.body)) problems.push(`${describeOperation(operation)}: ${res.status} ${res.text.slice(0, 200)}`);
      }
      if (before) {
        const after = await http(app.url, 'GET', path, { key });
        if (after.text !== before.text) problems.push(`${describeOperation(operation)}: the resource changed (${before.text} → ${after.text})`);
      }
    }
    // No object in the server gained the keys: a fresh answer built from plain objects shows none.
    const fresh = await http(app.url, 'POST', '/api/v1/buyer-requests', { key, body: { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', maxPrice: 1 } });
    const read = await http(app.url, 'GET', `/api/v1/buyer-requests/${(fresh.body as { id: string }).id}`, { key });
    expect(read.text).not.toContain('polluted');
    expect(read.body).toMatchObject({ status: 'open' });
    expect(problems).toEqual([]);
  }, 60000);
});

/** Sends one request; returns what is wrong with the answer, if anything. */
async function send(baseUrl: string, request: FuzzRequest, statuses: Set<number>): Promise<string | undefined> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  statuses.add(response.status);
  if (response.status >= 500) return `answered ${response.status}: ${text.slice(0, 300)}`;
  if (response.status < 300) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${response.status} with a body that is not JSON: ${text.slice(0, 300)}`;
  }
  if (!isErrorBody(body)) return `answered ${response.status} outside the error shape: ${text.slice(0, 300)}`;
  if (STACK_TRACE.test(text)) return `answered ${response.status} with what looks like a stack trace: ${text.slice(0, 300)}`;
  return undefined;
}

// ---- arbitraries ----

/** Header values fetch accepts (visible Latin-1, no CR/LF/NUL), not necessarily sensible ones. */
const headerText = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

const oddTokens = fc.constantFrom('%', '%zz', '%00', '..', '%2e%2e', '%2F', '%252F', '%F0%9F%92%A9', '%C0%AF', ';', '[]', '{}', 'null', '-1', '1e400', 'NaN', '0x10', ' ', '\u{1F0CF}');

const jsonish = fc.jsonValue({ maxDepth: 3 });

function requestFor(operation: Operation, validKey: string, realPath: string | undefined): fc.Arbitrary<FuzzRequest> {
  const example = operation.op.requestBody?.content['application/json']?.example;
  const canHaveBody = operation.method !== 'get' && operation.method !== 'head';
  return fc
    .record({
      path: realPath === undefined ? pathFor(operation) : fc.oneof({ weight: 1, arbitrary: pathFor(operation) }, { weight: 1, arbitrary: fc.constant(realPath) }),
      query: queryString,
      authorization: fc.oneof(
        { weight: 4, arbitrary: fc.constant(`Bearer ${validKey}`) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: headerText },
        { weight: 1, arbitrary: headerText.map((t) => `Bearer ${t}`) },
        { weight: 1, arbitrary: fc.constant(validKey.replace(/_[^_]+$/, `_${'A'.repeat(43)}`)).map((k) => `Bearer ${k}`) },
      ),
      contentType: fc.oneof(
        { weight: 4, arbitrary: fc.constant('application/json') },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            undefined,
            'application/json; charset=utf-8',
            'application/json; charset=latin1',
            'APPLICATION/JSON',
            'application/json;',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=xyz',
            'application/vnd.api+json',
            '*/*',
            '',
          ),
        },
        { weight: 1, arbitrary: headerText },
      ),
      extra: fc.dictionary(fc.constantFrom('x-request-id', 'idempotency-key', 'accept', 'content-encoding', 'x-forwarded-for'), headerText, {
        maxKeys: 3,
      }),
      body: canHaveBody ? fc.option(bodyFor(example), { nil: undefined, freq: 6 }) : fc.constant(undefined),
    })
    .map(({ path, query, authorization, contentType, extra, body }) => {
      const headers: Record<string, string> = { ...extra };
      if (authorization !== undefined) headers.authorization = authorization;
      if (contentType !== undefined && body !== undefined) headers['content-type'] = contentType;
      const request: FuzzRequest & { [fc.toStringMethod]: () => string } = {
        method: operation.method.toUpperCase(),
        path: `${path}${query}`,
        headers,
        body,
        // Counterexamples print short: a 1 MB body would drown the report.
        [fc.toStringMethod]: () =>
          JSON.stringify({ ...request, body: typeof body === 'string' ? `${body.slice(0, 200)}… (${body.length} chars)` : body }),
      };
      return request;
    });
}

function pathFor(operation: Operation): fc.Arbitrary<string> {
  const segments = operation.path.split('/').map((segment) => {
    if (!/^\{.+\}$/.test(segment)) return fc.constant(segment);
    return fc.oneof(
      fc.constantFrom('br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', 'key_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', 'swagger-ui.css', 'docs-init.js', 'package.json'),
      fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, 'x'))),
      oddTokens,
      fc.integer({ min: 60, max: 400 }).map((n) => 'a'.repeat(n)),
    );
  });
  return fc.tuple(...segments).map((parts) => parts.join('/'));
}

const queryString: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('limit', 'cursor', 'limit[]', '__proto__', 'constructor'), fc.string({ maxLength: 10 }).map(encodeURIComponent)),
        fc.oneof(
          fc.constantFrom('1', '20', '100', '0', '101', '-5', '2.5', 'abc', '', 'true'),
          fc.string({ maxLength: 30 }).map(encodeURIComponent),
          fc.string({ minLength: 600, maxLength: 2000 }).map(encodeURIComponent),
          oddTokens,
        ),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  oddTokens.map((t) => `?${t}`),
);

function bodyFor(example: unknown): fc.Arbitrary<string | Uint8Array> {
  const base = example !== null && typeof example === 'object' && !Array.isArray(example) ? Object.entries(example) : [];
  const mutated = fc
    .record({
      drop: fc.subarray(base.map(([k]) => k)),
      replace: fc.dictionary(fc.constantFrom(...base.map(([k]) => k), 'unknownField', '__proto__'), jsonish, { maxKeys: 3 }),
    })
    .map(({ drop, replace }) => JSON.stringify({ ...Object.fromEntries(base.filter(([k]) => !drop.includes(k))), ...replace }));
  return fc.oneof(
    { weight: 5, arbitrary: mutated },
    { weight: 2, arbitrary: jsonish.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }).map((s) => JSON.stringify(Object.fromEntries(base.map(([k]) => [k, s])))) },
    { weight: 1, arbitrary: fc.array(jsonish, { maxLength: 5 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 50_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 100_000, max: 1_100_000 })
        .map((n) => JSON.stringify({ ...Object.fromEntries(base), [base[0]?.[0] ?? 'text']: 'x'.repeat(n) })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'null',
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '{"a":1,"a":2}',
        '\uFEFF{}',
        '{"maxPrice":1e400}',
        '{"maxPrice":-0}',
      ),
    },
  );
}
