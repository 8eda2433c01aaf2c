// The API's shared conventions, checked on every route the live OpenAPI document lists, so a later
// route is held to them as soon as it is documented:
// - hostile text (control and bidi characters, lone surrogates) is refused with a 400 naming the
//   field (or the key), in bodies and query strings alike; invisible characters in names are removed
//   and reported;
// - a body whose fields are all optional may be left out (no body, or an empty one sent as JSON);
// - repeating a terminal action is a no-op answering the resource as it is.
import type { OpenApiDocument } from '@app/platform';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import {
  concretePath,
  describeOperation,
  type ErrorBody,
  exampleBody,
  fetchDocument,
  isPublic,
  type Operation,
  operationsOf,
  UNTHROTTLED_ENV,
} from './support/openapi';

const HOSTILE = [
  ['NUL', 'Chari\u0000zard', 'U+0000'],
  ['an escape character', 'Chari\u001bzard', 'U+001B'],
  ['a C1 control', 'Chari\u0085zard', 'U+0085'],
  ['a right-to-left override', 'Chari\u202Ezard', 'U+202E'],
  ['a first-strong isolate', '\u2068Charizard', 'U+2068'],
  ['a lone surrogate', 'Chari\uD800zard', 'U+D800'],
] as const;

/** A POST without a body: bare, or with the Content-Type many clients send anyway. */
const NO_BODY_HEADERS: Array<Record<string, string>> = [{}, { 'content-type': 'application/json' }];

describe('API conventions on every route (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let document: OpenApiDocument;

  beforeAll(async () => {
    app = await startApp({ env: UNTHROTTLED_ENV });
    key = (await createWorkspace(app.dataDir, 'conventions')).apiKey;
    document = await fetchDocument(app.url);
  }, 60000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const authenticated = (): Operation[] => operationsOf(document).filter((o) => !isPublic(o));

  describe('hostile text', () => {
    it.each(HOSTILE)('refuses %s in a body field with 400 naming the field, storing nothing', async (_label, cardName, code) => {
      const before = await http<{ data: unknown[] }>(app.url, 'GET', '/api/v1/buyer-requests?limit=100', { key });
      const res = await http<ErrorBody>(app.url, 'POST', '/api/v1/buyer-requests', {
        key,
        body: { cardName, setName: 'Base', condition: 'Near Mint', maxPrice: 10 },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(`body field "cardName": contains ${code}`),
        details: { issues: [{ path: 'cardName', message: expect.stringContaining(code) }] },
      });
      const after = await http<{ data: unknown[] }>(app.url, 'GET', '/api/v1/buyer-requests?limit=100', { key });
      expect(after.body.data).toHaveLength(before.body.data.length);
    });

    it('refuses a lone surrogate sent as a JSON escape (what JSON.stringify cannot produce)', async () => {
      const res = await http<ErrorBody>(app.url, 'POST', '/api/v1/inventory', {
        key,
        rawBody: '{"cardName":"Pikachu","setName":"Jungle","condition":"NM","price":4,"notes":"half \\udc00 a pair"}',
      });
      expect(res.status).toBe(400);
      expect(res.body.details?.issues).toEqual([{ path: 'notes', message: expect.stringContaining('U+DC00') }]);
    });

    it('keeps tabs and line breaks in free text', async () => {
      const res = await http<{ notes: string }>(app.url, 'POST', '/api/v1/inventory', {
        key,
        body: { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', price: 4, notes: 'binder 3\tpage 2\r\nslot 4' },
      });
      expect(res.status).toBe(201);
      expect(res.body.notes).toBe('binder 3\tpage 2\r\nslot 4');
    });

    it('removes invisible characters from a name and reports it in the normalization changes', async () => {
      const res = await http<{ cardName: string; normalization: { cardName: { changes: string[] } } }>(app.url, 'POST', '/api/v1/inventory', {
        key,
        body: { cardName: 'Chari\u200Bzard\u00AD', setName: 'Base', condition: 'NM', price: 400 },
      });
      expect(res.status).toBe(201);
      expect(res.body.cardName).toBe('Charizard');
      expect(res.body.normalization.cardName.changes).toContain('removed invisible characters (zero-width or soft hyphen)');
    });

    it('refuses hostile text in a CSV upload, naming the row and the column', async () => {
      const session = await http<{ id: string }>(app.url, 'POST', '/api/v1/ingestion/sessions', { key, body: {} });
      const res = await http<ErrorBody>(app.url, 'POST', `/api/v1/ingestion/sessions/${session.body.id}/items`, {
        key,
        rawBody: 'Card Name,Set,Condition,Price\nPikachu,Jungle,NM,4\nChari\u202Ezard,Base,NM,400\n',
        headers: { 'content-type': 'text/csv' },
      });
      expect(res.status).toBe(400);
      // CSV rows keep their own column names, as zod's issues for them do.
      expect(res.body.details?.issues).toEqual([{ path: '1.Card Name', message: expect.stringContaining('U+202E') }]);
    });

    it('refuses it in every body field and query parameter of every route, naming the field', async () => {
      const problems: string[] = [];
      let checked = 0;
      for (const operation of authenticated()) {
        const path = await concretePath(app.url, document, operation, key);
        const body = operation.op.requestBody ? await exampleBody(app.url, document, operation, key) : undefined;
        const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.entries(body) : [];
        for (const [field, value] of fields) {
          if (typeof value !== 'string') continue;
          checked += 1;
          const res = await http<ErrorBody>(app.url, operation.method.toUpperCase(), path, {
            key,
            body: { ...(body as object), [field]: `${value}\u202E` },
          });
          const path0 = (res.body.details?.issues as Array<{ path: string }> | undefined)?.[0]?.path;
          if (res.status !== 400 || res.body.code !== 'VALIDATION_FAILED' || path0 !== field) {
            problems.push(`${describeOperation(operation)} body.${field}: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
        for (const parameter of operation.op.parameters ?? []) {
          if (parameter.in !== 'query' || ['limit', 'cursor'].includes(parameter.name)) continue;
          checked += 1;
          const res = await http<ErrorBody>(app.url, operation.method.toUpperCase(), `${path}?${parameter.name}=a%00b`, { key });
          const path0 = (res.body.details?.issues as Array<{ path: string }> | undefined)?.[0]?.path;
          if (res.status !== 400 || res.body.code !== 'VALIDATION_FAILED' || path0 !== parameter.name) {
            problems.push(`${describeOperation(operation)} ?${parameter.name}: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(20);
    }, 60000);

    it('refuses it in a key too: a JSON body key and a query parameter name, naming the key (escaped)', async () => {
      const body = await http<ErrorBody>(app.url, 'POST', '/api/v1/buyer-requests', {
        key,
        body: { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', maxPrice: 5, buyer: { 'external\u2066Id': 'x' } },
      });
      expect(body.status).toBe(400);
      expect(body.body).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Invalid body key "buyer.external\\u2066Id": the key itself contains U+2066 (a bidirectional control character); remove it',
        details: { issues: [{ path: 'buyer.external\\u2066Id', message: 'the key itself contains U+2066 (a bidirectional control character); remove it' }] },
      });
      // Every route that reads a query refuses such a name, even one its schema would have ignored.
      const problems: string[] = [];
      let checked = 0;
      for (const operation of operationsOf(document)) {
        if (!(operation.op.parameters ?? []).some((p) => p.in === 'query')) continue;
        checked += 1;
        const path = isPublic(operation) ? publicPath(operation.path) : await concretePath(app.url, document, operation, key);
        for (const [name, encoded] of [['li\\u202Emit', 'li%E2%80%AEmit'], ['x\\u0000', 'x%00']]) {
          const res = await http<ErrorBody>(app.url, operation.method.toUpperCase(), `${path}?${encoded}=1`, isPublic(operation) ? {} : { key });
          const issues = res.body.details?.issues as Array<{ path: string; message: string }> | undefined;
          if (res.status !== 400 || issues?.[0]?.path !== name || !issues[0].message.startsWith('the key itself contains')) {
            problems.push(`${describeOperation(operation)} ?${name}: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(10);
    }, 60000);

    it('holds in the CLI too', async () => {
      const res = await cli(app.dataDir, ['workspace', 'create', '--name', 'Evil\u202Egnp.exe', '--slug', 'evil']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('--name contains U+202E');
    });
  });

  describe('optional bodies', () => {
    /** POSTs whose body is optional by the document: none at all, or one with every field optional. */
    const bodiless = (): Operation[] => authenticated().filter((o) => o.method === 'post' && o.op.requestBody?.required !== true);

    it('has action routes without a required body, and the archive route is one of them', () => {
      expect(bodiless().map((o) => o.op.operationId)).toEqual(expect.arrayContaining(['archiveBuyerRequest', 'createIngestionSession']));
    });

    it('accepts a POST with no body (and no Content-Type), or an empty one sent as JSON, where every field is optional', async () => {
      const problems: string[] = [];
      for (const operation of bodiless()) {
        for (const headers of NO_BODY_HEADERS) {
          const path = await concretePath(app.url, document, operation, key);
          const res = await http<ErrorBody>(app.url, 'POST', path, { key, headers });
          if (res.status >= 300) problems.push(`${describeOperation(operation)} ${JSON.stringify(headers)}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
      expect(problems).toEqual([]);
    }, 60000);

    it('still requires the body where a field is required: 400 VALIDATION_FAILED, not a JSON error', async () => {
      const required = authenticated().filter((o) => o.op.requestBody?.required === true);
      expect(required.length).toBeGreaterThan(0);
      for (const operation of required) {
        const path = await concretePath(app.url, document, operation, key);
        for (const headers of NO_BODY_HEADERS) {
          const res = await http<ErrorBody>(app.url, operation.method.toUpperCase(), path, { key, headers });
          expect({ operation: describeOperation(operation), status: res.status, code: res.body.code }).toEqual({
            operation: describeOperation(operation),
            status: 400,
            code: 'VALIDATION_FAILED',
          });
        }
      }
    }, 60000);
  });

  describe('repeated terminal actions', () => {
    it('archives an archived buyer request as a no-op: 200, the request as it was; another reason is 409 naming it', async () => {
      const created = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
        key,
        body: { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', maxPrice: 5 },
      });
      const first = await http(app.url, 'POST', `/api/v1/buyer-requests/${created.body.id}/archive`, { key, body: { reason: 'sold' } });
      const again = await http(app.url, 'POST', `/api/v1/buyer-requests/${created.body.id}/archive`, { key, body: { reason: 'sold' } });
      const bare = await http(app.url, 'POST', `/api/v1/buyer-requests/${created.body.id}/archive`, { key });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(bare.body).toEqual(first.body);
      // A repeat that says otherwise is not the same action: the answer names what differs.
      const other = await http<ErrorBody>(app.url, 'POST', `/api/v1/buyer-requests/${created.body.id}/archive`, { key, body: { reason: 'again' } });
      expect(other).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { field: 'reason', recorded: 'sold', given: 'again' } } });
    });

    it('revokes a revoked key as a no-op: 200, the key as it was', async () => {
      const made = await http<{ id: string }>(app.url, 'POST', '/api/v1/api-keys', { key, body: { name: 'short-lived' } });
      const first = await http(app.url, 'DELETE', `/api/v1/api-keys/${made.body.id}`, { key });
      const again = await http(app.url, 'DELETE', `/api/v1/api-keys/${made.body.id}`, { key });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    });

    it('answers a deleted resource 404 when deleted again (it no longer exists)', async () => {
      const item = await http<{ id: string }>(app.url, 'POST', '/api/v1/inventory', {
        key,
        body: { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', price: 4 },
      });
      expect((await http(app.url, 'DELETE', `/api/v1/inventory/${item.body.id}`, { key })).status).toBe(200);
      const again = await http<ErrorBody>(app.url, 'DELETE', `/api/v1/inventory/${item.body.id}`, { key });
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('NOT_FOUND');
    });
  });
});

/** A public route's path with its parameters filled: the seller slug is this suite's workspace. */
function publicPath(template: string): string {
  return template.replace(/\{(slug|seller)\}/g, 'conventions').replace(/\{[^}]+\}/g, 'x');
}
