// A password for a person who has one or not: from the CLI (`user password --password-stdin`, the
// operator's) and from the signed-in portal (PUT /portal/api/password, the person's own, giving the
// current one). A first password ends no session; a new one in place of another signs out every
// other session at once (the CLI's: all of them). The password reaches the log only as its scrypt
// hash, never in clear.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http } from './support/http';
import { createPortalUser, linkToken, PASSWORD, signIn, type SignedIn } from './support/portal';

const FIRST = 'a first password, long enough';
const SECOND = 'the second one, changed by the CLI';
const THIRD = 'and a third, from the portal itself';

const setPassword = (dataDir: string, email: string, password: string | null, workspace = 'acme') =>
  cli(dataDir, ['user', 'password', '--workspace', workspace, '--email', email, ...(password === null ? [] : ['--password-stdin'])], {}, password === null ? undefined : `${password}\n`);

describe('portal passwords (e2e)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp();
    await createWorkspace(app.dataDir, 'acme');
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const works = async (session: SignedIn) => (await http(app.url, 'GET', '/portal/api/session', { headers: { cookie: session.cookie } })).status;
  const passwordSignIn = (password: string) => http<ErrorBody>(app.url, 'POST', '/portal/api/session', { body: { workspace: 'acme', email: 'links@acme.example', password } });

  it('the CLI adds a password to a person made without one; their link session goes on', async () => {
    const user = await createPortalUser(app.dataDir, 'acme', 'links@acme.example', null);
    const byLink = await signIn(app.url, { token: linkToken(user.signInLink) });
    expect(byLink.body.user).toMatchObject({ hasPassword: false });
    expect((await passwordSignIn(FIRST)).status).toBe(401);

    const set = await setPassword(app.dataDir, 'Links@Acme.example', FIRST);
    expect(set.code).toBe(0);
    expect(set.json()).toEqual({ user: { id: user.id, hasPassword: true }, workspace: { id: expect.any(String), slug: 'acme' }, replaced: false, sessionsEnded: 0 });
    expect(await works(byLink)).toBe(200);
    expect((await passwordSignIn(FIRST)).status).toBe(200);
    expect((await http<{ user: { hasPassword: boolean } }>(app.url, 'GET', '/portal/api/session', { headers: { cookie: byLink.cookie } })).body.user.hasPassword).toBe(true);
  });

  it('the CLI replaces a password: the old one stops working and every session of that person ends at once', async () => {
    const a = await signIn(app.url, { workspace: 'acme', email: 'links@acme.example', password: FIRST });
    const b = await signIn(app.url, { workspace: 'acme', email: 'links@acme.example', password: FIRST });
    const set = await setPassword(app.dataDir, 'links@acme.example', SECOND);
    expect(set.json()).toMatchObject({ replaced: true, sessionsEnded: expect.any(Number) });
    expect(set.json<{ sessionsEnded: number }>().sessionsEnded).toBeGreaterThanOrEqual(2);
    expect([await works(a), await works(b)]).toEqual([401, 401]);
    expect((await passwordSignIn(FIRST)).status).toBe(401);
    expect((await passwordSignIn(SECOND)).status).toBe(200);
  });

  it('the CLI refuses without --password-stdin, for someone unknown, and a short password — and keeps the one there', async () => {
    const missing = await setPassword(app.dataDir, 'links@acme.example', null);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--password-stdin is required');
    const unknown = await setPassword(app.dataDir, 'nobody@acme.example', 'long enough to be a password');
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('user create') });
    const short = await setPassword(app.dataDir, 'links@acme.example', 'short');
    expect(JSON.parse(short.stderr)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await passwordSignIn(SECOND)).status).toBe(200);
  });

  it('from the portal: needs the CSRF token and the current password; keeps this session, ends the others', async () => {
    const here = await signIn(app.url, { workspace: 'acme', email: 'links@acme.example', password: SECOND });
    const elsewhere = await signIn(app.url, { workspace: 'acme', email: 'links@acme.example', password: SECOND });
    const put = (body: unknown, csrf: string | null = here.csrf) =>
      http<ErrorBody & { passwordSet: boolean; replaced: boolean; sessionsEnded: number }>(app.url, 'PUT', '/portal/api/password', {
        headers: { cookie: here.cookie, ...(csrf === null ? {} : { 'x-csrf-token': csrf }) },
        body,
      });
    expect((await put({ currentPassword: SECOND, newPassword: THIRD }, null)).body.code).toBe('CSRF_TOKEN_INVALID');
    const wrong = await put({ currentPassword: 'not the password at all', newPassword: THIRD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Your current password is not right', details: { issues: [{ path: 'currentPassword' }] } });
    expect((await put({ newPassword: THIRD })).body.code).toBe('VALIDATION_FAILED');
    expect((await put({ currentPassword: SECOND, newPassword: 'too short' })).body.code).toBe('VALIDATION_FAILED');
    expect(await works(elsewhere)).toBe(200);

    const changed = await put({ currentPassword: SECOND, newPassword: THIRD });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ passwordSet: true, replaced: true, sessionsEnded: expect.any(Number) });
    expect(changed.body.sessionsEnded).toBeGreaterThanOrEqual(1);
    expect(await works(here)).toBe(200);
    expect(await works(elsewhere)).toBe(401);
    expect((await passwordSignIn(SECOND)).status).toBe(401);
    expect((await passwordSignIn(THIRD)).status).toBe(200);
  });

  it('from the portal, a first password needs no current one (a person signed in by link)', async () => {
    const user = await createPortalUser(app.dataDir, 'acme', 'second@acme.example', null);
    const session = await signIn(app.url, { token: linkToken(user.signInLink) });
    const set = await http(app.url, 'PUT', '/portal/api/password', { headers: { cookie: session.cookie, 'x-csrf-token': session.csrf }, body: { currentPassword: null, newPassword: FIRST } });
    expect(set.body).toEqual({ passwordSet: true, replaced: false, sessionsEnded: 0 });
    expect(await works(session)).toBe(200);
    expect((await signIn(app.url, { workspace: 'acme', email: 'second@acme.example', password: FIRST })).body.user.hasPassword).toBe(true);
    // Signed out, the route is refused.
    expect((await http<ErrorBody>(app.url, 'PUT', '/portal/api/password', { body: { newPassword: SECOND } })).status).toBe(401);
  });

  it('counts against the sign-in attempts of the IP address (PORTAL_SIGN_IN_PER_MINUTE): guessing the current password is as slow as guessing at sign-in', async () => {
    const strict = await startApp({ env: { PORTAL_SIGN_IN_PER_MINUTE: '3' } });
    try {
      await createWorkspace(strict.dataDir, 'acme');
      await createPortalUser(strict.dataDir, 'acme', 'owner@acme.example');
      const session = await signIn(strict.url, { workspace: 'acme', email: 'owner@acme.example', password: PASSWORD });
      const guess = () =>
        http<ErrorBody>(strict.url, 'PUT', '/portal/api/password', { headers: { cookie: session.cookie, 'x-csrf-token': session.csrf }, body: { currentPassword: 'a guess at it', newPassword: THIRD } });
      const codes = [];
      for (let i = 0; i < 3; i += 1) codes.push((await guess()).body.code);
      expect(codes).toEqual(['VALIDATION_FAILED', 'VALIDATION_FAILED', 'RATE_LIMITED']);
    } finally {
      await strict.stop();
      removeDir(strict.dataDir);
    }
  }, 90_000);

  it('keeps every password out of the log in clear: only scrypt hashes', () => {
    const db = new DatabaseSync(join(app.dataDir, 'events.db'), { readOnly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      const dump = tables.map((table) => JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all())).join('\n');
      for (const password of [FIRST, SECOND, THIRD, PASSWORD]) expect(dump).not.toContain(password);
      expect(dump).toMatch(/user\.password_set/);
      expect(dump).toMatch(/scrypt\$32768\$8\$1\$/);
    } finally {
      db.close();
    }
    // Nor in the server's output.
    for (const password of [FIRST, SECOND, THIRD]) expect(app.output()).not.toContain(password);
  });
});
