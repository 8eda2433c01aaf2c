// API key management over HTTP (scope admin): list without secrets, create (secret once), revoke —
// a revoked key fails from the next request on, in every API process.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

interface KeyView {
  id: string;
  name: string;
  scopes: string[];
  status: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

describe('API keys (e2e)', () => {
  let app: RunningApp;
  let admin: string;

  beforeAll(async () => {
    app = await startApp();
    admin = (await createWorkspace(app.dataDir, 'keys')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('creates a key whose secret is shown once and never listed', async () => {
    const created = await http<KeyView & { secret: string }>(app.url, 'POST', '/api/v1/api-keys', {
      key: admin,
      body: { name: 'reporting', scopes: ['read:requests'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'reporting',
      scopes: ['read:requests'],
      status: 'active',
      createdAt: expect.any(String),
      secret: expect.stringMatching(/^sk_/),
    });
    expect((await http(app.url, 'GET', '/api/v1/buyer-requests', { key: created.body.secret })).status).toBe(200);

    const list = await http<{ data: KeyView[] }>(app.url, 'GET', '/api/v1/api-keys', { key: admin });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(created.body.secret);
    expect(list.text).not.toMatch(/secret|hash/i);
    const listed = list.body.data.find((k) => k.id === created.body.id);
    expect(listed).toEqual({
      id: created.body.id,
      name: 'reporting',
      scopes: ['read:requests'],
      status: 'active',
      createdAt: created.body.createdAt,
      revokedAt: null,
      lastUsedAt: expect.any(String), // it was used just above
    });
    const one = await http<KeyView>(app.url, 'GET', `/api/v1/api-keys/${created.body.id}`, { key: admin });
    expect(one.body).toEqual(listed);
  });

  it('blank scopes mean full access; unknown scopes are refused', async () => {
    const full = await http<{ scopes: string[] }>(app.url, 'POST', '/api/v1/api-keys', { key: admin, body: { name: 'full', scopes: [] } });
    expect(full.body.scopes).toEqual(['admin']);
    const bad = await http<{ code: string; details: { issues: Array<{ path: string }> } }>(app.url, 'POST', '/api/v1/api-keys', {
      key: admin,
      body: { name: 'bad', scopes: ['read:everything'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.details.issues[0].path).toBe('scopes.0');
  });

  it('needs the admin scope', async () => {
    const writer = await http<{ secret: string }>(app.url, 'POST', '/api/v1/api-keys', {
      key: admin,
      body: { name: 'writer', scopes: ['write:requests', 'write:webhooks'] },
    });
    for (const [method, path] of [
      ['GET', '/api/v1/api-keys'],
      ['POST', '/api/v1/api-keys'],
      ['DELETE', '/api/v1/api-keys/key_x'],
    ]) {
      const res = await http<{ code: string; details: unknown }>(app.url, method, path, {
        key: writer.body.secret,
        body: method === 'POST' ? { name: 'x' } : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'admin' } });
    }
  });

  it('revokes a key: 401 from the next request on, in every API process', async () => {
    const second = await startApp({ dataDir: app.dataDir }); // another API process on the same data
    try {
      const victim = await http<{ id: string; secret: string }>(app.url, 'POST', '/api/v1/api-keys', {
        key: admin,
        body: { name: 'leaked' },
      });
      expect((await http(second.url, 'GET', '/api/v1/buyer-requests', { key: victim.body.secret })).status).toBe(200);

      const revoked = await http<KeyView>(app.url, 'DELETE', `/api/v1/api-keys/${victim.body.id}`, { key: admin });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: victim.body.id, status: 'revoked', revokedAt: expect.any(String) });

      for (const url of [app.url, second.url]) {
        const res = await http<{ code: string }>(url, 'GET', '/api/v1/buyer-requests', { key: victim.body.secret });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('UNAUTHORIZED');
      }
      // Revoking again is a no-op answering the key as it is (the first revocation stands).
      const again = await http<KeyView>(app.url, 'DELETE', `/api/v1/api-keys/${victim.body.id}`, { key: admin });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(revoked.body);
    } finally {
      await second.stop();
    }
  });

  it("answers 404 for another workspace's key, so ids do not leak", async () => {
    const other = await createWorkspace(app.dataDir, 'keys-other');
    const theirs = await http<{ id: string }>(app.url, 'POST', '/api/v1/api-keys', { key: other.apiKey, body: { name: 'theirs' } });
    for (const method of ['GET', 'DELETE']) {
      const res = await http<{ code: string }>(app.url, method, `/api/v1/api-keys/${theirs.body.id}`, { key: admin });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const list = await http<{ data: KeyView[] }>(app.url, 'GET', '/api/v1/api-keys?limit=100', { key: admin });
    expect(list.body.data.map((k) => k.id)).not.toContain(theirs.body.id);
    // and the key still works for its own workspace
    expect((await http(app.url, 'GET', `/api/v1/api-keys/${theirs.body.id}`, { key: other.apiKey })).status).toBe(200);
  });
});
