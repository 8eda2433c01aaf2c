// Idempotency-Key on POST /api/v1/api-keys against the real app, whose answer holds a secret:
// replayed, yet never stored in clear; sealed with DATA_DIR/secrets.key, across restarts.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { createWorkspace, removeDir, type RunningApp, runToExit, startApp } from './support/app-process';
import { http } from './support/http';

describe('idempotency keys on an answer holding a secret (e2e, POST /api/v1/api-keys)', () => {
  let app: RunningApp;
  let admin: string;

  interface CreatedKey {
    id: string;
    secret: string;
  }
  const createKey = (name: string, idempotencyKey: string) =>
    http<CreatedKey>(app.url, 'POST', '/api/v1/api-keys', { key: admin, body: { name }, headers: { 'idempotency-key': idempotencyKey } });

  /** The bytes of an embedded database: the file and, when present, its write-ahead log. */
  const databaseBytes = (name: string): Buffer =>
    Buffer.concat(
      [name, `${name}-wal`].map((file) => join(app.dataDir, file)).filter((file) => existsSync(file)).map((file) => readFileSync(file)),
    );

  beforeAll(async () => {
    app = await startApp();
    admin = (await createWorkspace(app.dataDir, 'idem-secret')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('replays the same secret for a retry, and no database file holds it in clear', async () => {
    const first = await createKey('ci', 'new-key-1');
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^sk_/);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await createKey('ci', 'new-key-1');
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.body.secret).toBe(first.body.secret);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // One key was made, and it works.
    const list = await http<{ data: Array<{ name: string }> }>(app.url, 'GET', '/api/v1/api-keys?limit=100', { key: admin });
    expect(list.body.data.filter((k) => k.name === 'ci')).toHaveLength(1);
    expect((await http(app.url, 'GET', '/api/v1/buyer-requests', { key: first.body.secret })).status).toBe(200);

    // The secret's random part (its prefix names the key id, which is stored on purpose).
    const randomPart = first.body.secret.slice(first.body.secret.indexOf('_', 'sk_'.length) + 1);
    expect(randomPart.length).toBeGreaterThanOrEqual(20);
    for (const db of ['read.db', 'events.db']) {
      const bytes = databaseBytes(db);
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.includes(Buffer.from(first.body.secret))).toBe(false);
      expect(bytes.includes(Buffer.from(randomPart))).toBe(false);
    }
  });

  it('generated its sealing key into DATA_DIR/secrets.key, readable by its owner only', () => {
    const file = join(app.dataDir, 'secrets.key');
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('still replays after a restart (same key file); a start with another key is refused rather than lose the sealed answers', async () => {
    const first = await createKey('restart', 'new-key-2');
    await app.stop();
    app = await startApp({ dataDir: app.dataDir });
    const replayedAfterRestart = await createKey('restart', 'new-key-2');
    expect(replayedAfterRestart.text).toBe(first.text);
    expect(replayedAfterRestart.headers.get('idempotent-replayed')).toBe('true');

    await app.stop();
    const refused = await runToExit('api', { DATA_DIR: app.dataDir, SECRETS_KEY: 'ab'.repeat(32) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not the key the stored data is sealed with/);
    expect(refused.stderr).not.toContain(first.body.secret);
    app = await startApp({ dataDir: app.dataDir });
    expect((await createKey('restart', 'new-key-2')).text).toBe(first.text);
    const list = await http<{ data: Array<{ name: string }> }>(app.url, 'GET', '/api/v1/api-keys?limit=100', { key: admin });
    expect(list.body.data.filter((k) => k.name === 'restart')).toHaveLength(1);
  });
});
