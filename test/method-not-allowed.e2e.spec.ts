// A wrong method on a known path is 405 METHOD_NOT_ALLOWED with `Allow` (the path's methods, HEAD
// with GET), in the API's error shape; an unknown path stays 404. HEAD on GET routes, CORS
// preflights of the public routes and the static pages keep working. Every path of the OpenAPI
// document, asked with a method it lacks, answers 405 with exactly its documented methods.
import { ROUTE_METHODS } from '@app/platform';

import { removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http } from './support/http';
import { fetchDocument } from './support/openapi';

describe('405 METHOD_NOT_ALLOWED (e2e)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp();
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it.each([
    ['DELETE', '/api/v1/buyer-requests', ['GET', 'HEAD', 'POST']],
    ['PUT', '/api/v1/buyer-requests/br_x', ['GET', 'HEAD', 'PATCH']],
    ['PATCH', '/api/v1/health?verbose=1', ['GET', 'HEAD']],
    ['POST', '/docs', ['GET', 'HEAD']],
    ['DELETE', '/portal', ['GET', 'HEAD']],
  ])('%s %s answers 405 with Allow and the error shape', async (method, path, allowed) => {
    const res = await http<ErrorBody>(app.url, method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allowed.join(', '));
    const where = path.split('?')[0];
    expect(res.body).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: `Method ${method} is not allowed on ${where} (allowed: ${allowed.join(', ')})`,
      details: { method, allowed },
    });
    // Like every answer: a request id and the security headers.
    expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 405 before asking for an API key (the route list is public: the OpenAPI document)', async () => {
    const res = await http<ErrorBody>(app.url, 'DELETE', '/api/v1/offers', { key: 'sk_not_a_key' });
    expect(res.status).toBe(405);
  });

  it('keeps 404 NOT_FOUND for a path no route has, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nowhere'],
      ['DELETE', '/api/v1/buyer-requests/br_x/nothing'],
      ['POST', '/nowhere'],
    ]) {
      const res = await http<ErrorBody>(app.url, method, path);
      expect({ method, path, status: res.status, code: res.body.code, allow: res.headers.get('allow') }).toEqual({
        method,
        path,
        status: 404,
        code: 'NOT_FOUND',
        allow: null,
      });
    }
  });

  it('answers HEAD wherever GET is answered, and 405 (without a body) where it is not', async () => {
    const head = await http(app.url, 'HEAD', '/api/v1/health');
    expect(head.status).toBe(200);
    expect((await http(app.url, 'HEAD', '/docs')).status).toBe(200);
    const onPostOnly = await http(app.url, 'HEAD', '/api/v1/buyer-requests/br_x/archive');
    expect(onPostOnly.status).toBe(405);
    expect(onPostOnly.headers.get('allow')).toBe('POST');
    expect(onPostOnly.text).toBe('');
  });

  it("still answers the public routes' CORS preflights", async () => {
    const widget = await http(app.url, 'OPTIONS', '/api/v1/public/acme/want-lists', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(widget.status).toBe(204);
    expect(widget.headers.get('access-control-allow-origin')).toBe('*');
    expect(widget.headers.get('access-control-allow-methods')).toContain('POST');

    const trust = await http(app.url, 'OPTIONS', '/api/v1/trust/public-key', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(trust.status).toBe(204);
    expect(trust.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves the static pages as before', async () => {
    for (const path of ['/docs', '/portal']) {
      const page = await http(app.url, 'GET', path);
      expect({ path, status: page.status, type: page.headers.get('content-type') }).toEqual({ path, status: 200, type: expect.stringContaining('text/html') });
    }
  });

  it('answers 405 with exactly the documented methods on every path of the OpenAPI document', async () => {
    const document = await fetchDocument(app.url);
    const paths = Object.entries(document.paths);
    expect(paths.length).toBeGreaterThan(50);
    /** A template's matcher: a parameter is one segment. */
    const matcher = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const templates = paths.map(([template, item]) => ({ matches: matcher(template), methods: Object.keys(item).map((m) => m.toUpperCase()) }));
    const answers = [];
    const expected = [];
    for (const [template] of paths) {
      // Any value routes a parameter; `x` is no fixed segment of any path.
      const path = template.replace(/\{[^}]+\}/g, 'x');
      // What the URL answers: the methods of every documented path it matches (POST
      // /trust/credential/revoke, and GET /trust/credential/{slug} with the slug "revoke"), HEAD with GET.
      const documented = new Set(templates.filter((t) => t.matches.test(path)).flatMap((t) => t.methods));
      if (documented.has('GET')) documented.add('HEAD');
      const allowed = ROUTE_METHODS.filter((m) => documented.has(m));
      const lacking = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'].find((m) => !documented.has(m));
      expect({ template, lacking }).toEqual({ template, lacking: expect.any(String) });
      const res = await http<ErrorBody>(app.url, lacking as string, path);
      answers.push({ request: `${lacking} ${path}`, status: res.status, allow: res.headers.get('allow'), allowed: res.body?.details?.allowed });
      expected.push({ request: `${lacking} ${path}`, status: 405, allow: allowed.join(', '), allowed });
    }
    expect(answers).toEqual(expected);
  });
});
