// The portal's sign-in over HTTP: people made by the CLI (password or one-time link), the session
// cookie standing in for an API key on the API's own routes, CSRF on every change, sign-out, and
// nothing personal or secret in the log.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http } from './support/http';
import { createPortalUser, linkToken, PASSWORD, signIn } from './support/portal';

describe('portal sign-in and sessions (e2e)', () => {
  let app: RunningApp;
  let acmeKey: string;

  beforeAll(async () => {
    app = await startApp();
    acmeKey = (await createWorkspace(app.dataDir, 'acme')).apiKey;
    await createWorkspace(app.dataDir, 'other');
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('serves the page and its assets under a strict Content-Security-Policy', async () => {
    const page = await http(app.url, 'GET', '/portal');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text).toContain('/portal/assets/portal.js');
    expect(page.text).not.toMatch(/<script>|style=/);
    const script = await http(app.url, 'GET', '/portal/assets/portal.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.text).not.toContain('innerHTML');
    expect((await http(app.url, 'GET', '/portal/assets/other.js')).status).toBe(400);
  });

  it('the CLI creates a person with a password and a one-time link; the email and password never reach the log in clear', async () => {
    const user = await createPortalUser(app.dataDir, 'acme', 'Owner@Example.com');
    expect(user).toEqual({ id: expect.stringMatching(/^usr_[0-9A-Z]{26}$/), email: 'owner@example.com', signInLink: expect.stringMatching(/\/portal\/#link=psl_/) });
    const again = await cli(app.dataDir, ['user', 'create', '--workspace', 'acme', '--email', 'owner@example.com']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ code: 'CONFLICT' });
    const short = await cli(app.dataDir, ['user', 'create', '--workspace', 'acme', '--email', 'x@example.com', '--password-stdin'], {}, 'short\n');
    expect(JSON.parse(short.stderr)).toMatchObject({ code: 'VALIDATION_FAILED' });
    const badEmail = await cli(app.dataDir, ['user', 'create', '--workspace', 'acme', '--email', 'not-an-email']);
    expect(JSON.parse(badEmail.stderr)).toMatchObject({ code: 'VALIDATION_FAILED' });

    const db = new DatabaseSync(join(app.dataDir, 'events.db'), { readOnly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      for (const table of tables) {
        const dump = JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all());
        expect(dump.toLowerCase()).not.toContain('owner@example.com');
        expect(dump).not.toContain(PASSWORD);
        expect(dump).not.toContain(linkToken(user.signInLink));
      }
    } finally {
      db.close();
    }
  });

  it('refuses wrong credentials with one answer, whatever was wrong', async () => {
    const attempts = [
      { workspace: 'acme', email: 'owner@example.com', password: 'wrong password here' },
      { workspace: 'acme', email: 'nobody@example.com', password: PASSWORD },
      { workspace: 'nope', email: 'owner@example.com', password: PASSWORD },
      { workspace: 'other', email: 'owner@example.com', password: PASSWORD },
      { token: 'psl_01ARZ3NDEKTSV4RRFFQ69G5FAV_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    ];
    const answers = await Promise.all(attempts.map((body) => http<ErrorBody>(app.url, 'POST', '/portal/api/session', { body })));
    for (const a of answers) expect({ status: a.status, code: a.body.code, cookie: a.headers.get('set-cookie') }).toEqual({ status: 401, code: 'SIGN_IN_REFUSED', cookie: null });
    expect(new Set(answers.map((a) => a.body.message)).size).toBe(1);
    const invalid = await http<ErrorBody>(app.url, 'POST', '/portal/api/session', { body: { workspace: 'acme' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_FAILED');
  });

  it('a session cookie works on the API in place of a key; every change needs its CSRF token', async () => {
    const session = await signIn(app.url, { workspace: 'ACME', email: 'owner@example.com', password: PASSWORD });
    // Max-Age: 12 hours (43,200 s) from the session's start, less the seconds a busy machine took to answer.
    expect(session.setCookie).toMatch(/^portal_session=pss_[0-9A-Z]{26}_[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43[0-2]\d\d; HttpOnly; SameSite=Strict$/);
    expect(session.body).toMatchObject({ user: { email: 'owner@example.com' }, workspace: { slug: 'acme' } });
    const headers = { cookie: session.cookie };
    const me = await http<{ csrfToken: string }>(app.url, 'GET', '/portal/api/session', { headers });
    expect(me.status).toBe(200);
    expect(me.body.csrfToken).toBe(session.csrf);

    const keys = await http<{ data: Array<{ name: string }> }>(app.url, 'GET', '/api/v1/api-keys', { headers });
    expect(keys.status).toBe(200);
    const noCsrf = await http<ErrorBody>(app.url, 'POST', '/api/v1/api-keys', { headers, body: { name: 'from the portal' } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('CSRF_TOKEN_INVALID');
    const wrongCsrf = await http<ErrorBody>(app.url, 'POST', '/api/v1/api-keys', { headers: { ...headers, 'x-csrf-token': `${session.csrf.slice(0, -2)}xx` }, body: { name: 'from the portal' } });
    expect(wrongCsrf.status).toBe(403);
    const created = await http<{ secret: string; scopes: string[] }>(app.url, 'POST', '/api/v1/api-keys', { headers: { ...headers, 'x-csrf-token': session.csrf }, body: { name: 'from the portal', scopes: ['read:requests'] } });
    expect(created.status).toBe(201);
    // The key it made works for its scope; the session saw only its own workspace.
    expect((await http(app.url, 'GET', '/api/v1/buyer-requests', { key: created.body.secret })).status).toBe(200);
    const acmeKeys = await http<{ data: Array<{ name: string }> }>(app.url, 'GET', '/api/v1/api-keys', { key: acmeKey });
    expect(acmeKeys.body.data.map((k) => k.name)).toContain('from the portal');
    // An API key wins over a cookie when both are sent, and needs no CSRF token.
    expect((await http(app.url, 'POST', '/api/v1/api-keys', { key: acmeKey, headers: { cookie: 'portal_session=garbage' }, body: { name: 'server side' } })).status).toBe(201);
    expect((await http<ErrorBody>(app.url, 'GET', '/api/v1/api-keys', { headers: { cookie: 'portal_session=pss_garbage' } })).status).toBe(401);
  });

  it('a sign-in link works once', async () => {
    const link = await cli(app.dataDir, ['user', 'link', '--workspace', 'acme', '--email', 'owner@example.com']);
    expect(link.code).toBe(0);
    const token = linkToken(link.json<{ signInLink: string }>().signInLink);
    const first = await signIn(app.url, { token });
    expect(first.body.user.email).toBe('owner@example.com');
    const second = await http<ErrorBody>(app.url, 'POST', '/portal/api/session', { body: { token } });
    expect(second.status).toBe(401);
    expect(second.body.code).toBe('SIGN_IN_REFUSED');
    // A person without a password signs in with links only.
    const linkOnly = await createPortalUser(app.dataDir, 'other', 'links@example.com', null);
    expect((await signIn(app.url, { token: linkToken(linkOnly.signInLink) })).body.workspace.slug).toBe('other');
    expect((await http(app.url, 'POST', '/portal/api/session', { body: { workspace: 'other', email: 'links@example.com', password: PASSWORD } })).status).toBe(401);
  });

  it('limits sign-in attempts per IP address (PORTAL_SIGN_IN_PER_MINUTE)', async () => {
    const strict = await startApp({ env: { PORTAL_SIGN_IN_PER_MINUTE: '3' } });
    try {
      const attempt = () => http<ErrorBody>(strict.url, 'POST', '/portal/api/session', { body: { workspace: 'x', email: 'a@example.com', password: 'not this one' } });
      const codes = [];
      for (let i = 0; i < 4; i += 1) codes.push((await attempt()).body.code);
      expect(codes).toEqual(['SIGN_IN_REFUSED', 'SIGN_IN_REFUSED', 'SIGN_IN_REFUSED', 'RATE_LIMITED']);
    } finally {
      await strict.stop();
      removeDir(strict.dataDir);
    }
  });

  it('signing out needs the CSRF token, ends the session at once and clears the cookie', async () => {
    const session = await signIn(app.url, { workspace: 'acme', email: 'owner@example.com', password: PASSWORD });
    const headers = { cookie: session.cookie };
    expect((await http<ErrorBody>(app.url, 'DELETE', '/portal/api/session', { headers })).body.code).toBe('CSRF_TOKEN_INVALID');
    const out = await http(app.url, 'DELETE', '/portal/api/session', { headers: { ...headers, 'x-csrf-token': session.csrf } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^portal_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict$/);
    expect((await http(app.url, 'GET', '/api/v1/api-keys', { headers })).status).toBe(401);
    expect((await http(app.url, 'GET', '/portal/api/session', { headers })).status).toBe(401);
  });
});
