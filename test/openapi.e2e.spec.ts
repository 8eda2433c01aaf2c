// The served OpenAPI document and docs page, over HTTP: the document is OpenAPI 3.1 in shape, every
// reference resolves, every operation states its scope, errors and examples, and /docs is Swagger
// UI served from this app alone (no CDN, no inline script, so `script-src 'self'` holds).
// Route coverage and example-vs-zod checks are in openapi-coverage.int.spec.ts.
import { ERROR_CATALOG, errorBodySchema, type OpenApiDocument, SCOPES } from '@app/platform';

import { removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { describeOperation, fetchDocument, isErrorBody, isPublic, operationsOf, pathParamNames, requiredScope, requiredScopes } from './support/openapi';

describe('OpenAPI document and docs page (e2e)', () => {
  let app: RunningApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    app = await startApp();
    document = await fetchDocument(app.url);
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('is served publicly as JSON', async () => {
    const res = await http(app.url, 'GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('has the OpenAPI 3.1 top-level shape', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: expect.any(String), version: expect.any(String), description: expect.any(String) });
    // The README's conventions travel with the document.
    for (const topic of ['Lists', 'nextCursor', 'INSUFFICIENT_SCOPE', 'Workspaces are isolated', '{ "code", "message", "details"? }']) {
      expect(document.info.description).toContain(topic);
    }
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.Error).toMatchObject({ type: 'object', required: ['code', 'message'] });
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((ref) => resolvePointer(document, ref) === undefined)).toEqual([]);
  });

  it('gives every operation an id, summary, tags, security, responses and its path parameters', () => {
    const ids = new Set<string>();
    for (const operation of operationsOf(document)) {
      const { op } = operation;
      const what = describeOperation(operation);
      expect({ what, id: op.operationId.length > 0, summary: op.summary.length > 0, tags: op.tags.length > 0 }).toEqual({
        what,
        id: true,
        summary: true,
        tags: true,
      });
      expect(ids.has(op.operationId)).toBe(false);
      ids.add(op.operationId);
      expect(Object.keys(op.responses).some((status) => Number(status) < 400)).toBe(true);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect({ what, params: declared.sort() }).toEqual({ what, params: pathParamNames(operation.path).sort() });
      if (pathParamNames(operation.path).length > 0) expect(op.responses['404']).toBeDefined();
    }
  });

  it('states each authenticated operation’s scope, and its 401 and 403 answers', () => {
    for (const operation of operationsOf(document)) {
      const { op } = operation;
      if (isPublic(operation)) {
        expect({ what: describeOperation(operation), security: op.security }).toEqual({ what: describeOperation(operation), security: [] });
        continue;
      }
      const scope = requiredScope(operation);
      expect(op.responses['401']).toBeDefined();
      if (scope === undefined) continue;
      expect(SCOPES).toContain(scope);
      for (const each of requiredScopes(operation)) expect(op.description).toContain(`\`${each}\``);
      expect(op.security).toEqual([{ bearerAuth: requiredScopes(operation) }]);
      const forbidden = op.responses['403']?.content?.['application/json']?.examples?.INSUFFICIENT_SCOPE;
      expect(forbidden).toEqual({ summary: expect.any(String), value: expect.objectContaining({ details: { requiredScope: scope } }) });
    }
  });

  it('lists error answers with the Error schema and an example of each code at its status', () => {
    for (const operation of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.op.responses)) {
        if (Number(status) < 400) continue;
        const media = response.content?.['application/json'];
        expect(media?.schema).toEqual({ $ref: '#/components/schemas/Error' });
        for (const [code, example] of Object.entries(media?.examples ?? {})) {
          expect({ code, status: ERROR_CATALOG[code]?.status }).toEqual({ code, status: Number(status) });
          const value = '$ref' in example ? resolvePointer(document, example.$ref) : example;
          const body = value !== null && typeof value === 'object' && 'value' in value ? value.value : undefined;
          expect(errorBodySchema.safeParse(body).success).toBe(true);
        }
      }
    }
    // Every code of the catalog has its shared example.
    expect(Object.keys(document.components.examples).sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
  });

  it('has a request body example wherever a body is taken', () => {
    for (const operation of operationsOf(document)) {
      const body = operation.op.requestBody?.content['application/json'];
      if (body) expect({ what: describeOperation(operation), example: body.example !== undefined }).toEqual({ what: describeOperation(operation), example: true });
    }
  });

  it('serves /docs as Swagger UI from its own assets only, with no inline script', async () => {
    const page = await http(app.url, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline.trim()).toBe('');
      expect(attributes).toMatch(/src="\/docs\/assets\/[\w.-]+"/);
    }
    const urls = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.filter((url) => !url.startsWith('/docs/assets/'))).toEqual([]);
    expect(page.text).not.toMatch(/ style=|<style/);
    const csp = page.headers.get('content-security-policy');
    if (csp) expect(csp).toContain("script-src 'self'");

    for (const url of urls) {
      const asset = await fetch(`${app.url}${url}`);
      expect({ url, status: asset.status }).toEqual({ url, status: 200 });
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const init = await http(app.url, 'GET', '/docs/assets/docs-init.js');
    expect(init.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(init.text).toContain('/api/v1/openapi.json');
    const css = await fetch(`${app.url}/docs/assets/swagger-ui.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it.each(['index.html', 'package.json', '..%2Fpackage.json', '%2e%2e%2f%2e%2e%2fpackage.json', 'swagger-ui.js.map'])(
    'answers 404 in the error shape for an asset outside the allowlist: %s',
    async (name) => {
      const res = await http(app.url, 'GET', `/docs/assets/${name}`);
      expect(res.status).toBe(404);
      expect(isErrorBody(res.body) && res.body.code).toBe('NOT_FOUND');
    },
  );
});

function collectRefs(value: unknown, refs: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, refs);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') refs.push(inner);
      else collectRefs(inner, refs);
    }
  }
  return refs;
}

/** Follows a local JSON pointer (`#/components/schemas/Error`); undefined when it leads nowhere. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = Object.entries(node).find(([k]) => k === key)?.[1];
  }
  return node;
}
