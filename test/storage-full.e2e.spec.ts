// A full disk, met by the running API: writes answer 503 STORAGE_FULL with Retry-After (never 500)
// and keep nothing, readiness takes the instance out of rotation, reads go on, and everything
// comes back once there is room again — without a restart.
//
// The disk is filled with SQLite's own size cap (PRAGMA max_page_count, set on the app's
// connections by a preloaded test hook): a write that needs a page fails with the genuine
// SQLITE_FULL a full disk gives. Where this runs as root, a last test fills a real (tiny) tmpfs.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, runToExit, startApp } from './support/app-process';
import { http } from './support/http';

const HOOK = join(__dirname, 'support', 'sqlite-page-cap.cjs');

/** Caps (no page left to grow into) or frees the app's connections to these database files. */
function sqliteCap(app: RunningApp, action: 'cap' | 'free', files: string[]): Promise<string[]> {
  return new Promise((resolve) => {
    app.child.once('message', (message: { capped: string[] }) => resolve(message.capped));
    app.child.send({ sqlite: action, files });
  });
}

function countEvents(dataDir: string): number {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const request = (i: number) => ({ cardName: `Card ${i} ${'x'.repeat(150)}`, setName: 'Base', condition: 'NM', maxPrice: 1 });

function expectStorageFull(res: { status: number; headers: Headers; body: unknown }): void {
  expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }).toEqual({
    status: 503,
    retryAfter: '30',
    body: { code: 'STORAGE_FULL', message: expect.stringMatching(/storage is full.*nothing/i), details: { retry_after: 30 } },
  });
}

/** A tiny tmpfs (8 MiB) mounted on a new temp folder, or null (said once) where this may not mount one. */
function mountTmpfs(): string | null {
  const mountPoint = mkdtempSync(join(tmpdir(), 'cc-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return mountPoint;
  } catch {
    rmSync(mountPoint, { recursive: true, force: true });
    process.stdout.write('skipped: cannot mount a tmpfs here (not root, or not permitted); the max_page_count tests cover the same faults\n');
    return null;
  }
}

/** Appends to `ballast` until its file system has no byte left (ENOSPC). */
function fillUp(ballast: string): void {
  const fd = openSync(ballast, 'a');
  try {
    for (;;) writeSync(fd, Buffer.alloc(64 * 1024));
  } catch {
    // ENOSPC: full
  } finally {
    closeSync(fd);
  }
}

function isRecorded(body: unknown): boolean {
  return (body as { details?: { recorded?: unknown } }).details?.recorded === true;
}

/** Unmounts (retrying while the stopped app's files are still being let go), then removes the mount point. */
function unmount(mountPoint: string): void {
  for (let attempt = 1; ; attempt += 1) {
    try {
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
      break;
    } catch {
      if (attempt === 20) {
        execFileSync('umount', ['--lazy', mountPoint], { stdio: 'ignore' });
        break;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  rmSync(mountPoint, { recursive: true, force: true });
}

describe('a full disk (e2e)', () => {
  it('refuses writes with 503 STORAGE_FULL, is not ready, keeps reading, and recovers without a restart', async () => {
    // Read-your-writes waits for the read model, which is full too: not for long.
    const app = await startApp({ nodeArgs: ['--require', HOOK], ipc: true, env: { READ_YOUR_WRITES_TIMEOUT_MS: '300' } });
    try {
      const { apiKey } = await createWorkspace(app.dataDir, 'full');
      // A second key, used for the first time while the disk is full (noting its use is a write).
      const reader = (await cli(app.dataDir, ['key', 'create', '--workspace', 'full', '--name', 'reader'])).json<{ secret: string }>();
      const before = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(0) });
      expect(before.status).toBe(201);

      expect(await sqliteCap(app, 'cap', ['events.db', 'read.db'])).toHaveLength(3); // the log; the read model's writer and reader
      let res = await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(1) });
      for (let i = 2; res.status === 201 && i < 300; i += 1) {
        res = await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(i) });
      }
      expectStorageFull(res);

      // Nothing of a refused write is kept, and a retry with an Idempotency-Key is refused alike.
      const events = countEvents(app.dataDir);
      const idempotent = { key: apiKey, body: request(1000), headers: { 'idempotency-key': 'full-1' } };
      expectStorageFull(await http(app.url, 'POST', '/api/v1/buyer-requests', idempotent));
      expectStorageFull(await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(1001) }));
      expect(countEvents(app.dataDir)).toBe(events);

      const ready = await http(app.url, 'GET', '/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ code: 'NOT_READY', details: { checks: { eventStore: 'full' } } });
      expect((await http(app.url, 'GET', `/api/v1/buyer-requests/${before.body.id}`, { key: reader.secret })).status).toBe(200);
      expect((await http(app.url, 'GET', '/api/v1/health')).status).toBe(200);

      // Space is back: readiness finds out by itself (no client write needed), then writes succeed.
      expect(await sqliteCap(app, 'free', ['events.db', 'read.db'])).toHaveLength(3);
      const readyAgain = await http(app.url, 'GET', '/api/v1/health/ready');
      expect({ status: readyAgain.status, body: readyAgain.body }).toEqual({
        status: 200,
        body: { status: 'ready', checks: { eventStore: 'ok', readStore: 'ok' } },
      });
      const after = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', idempotent);
      expect(after.status).toBe(201);
      expect((await http(app.url, 'GET', `/api/v1/buyer-requests/${after.body.id}`, { key: apiKey })).status).toBe(200);
      expect(app.child.exitCode).toBeNull();
      expect(app.output()).not.toMatch(/INTERNAL|request failed/);
    } finally {
      await app.stop();
      removeDir(app.dataDir);
    }
  }, 60000);

  it('keeps the process up when only the read model is full: a write the log takes answers 503 recorded, never a success the next GET contradicts', async () => {
    // Long enough for the projection to have failed for want of room before the write gives up waiting.
    const app = await startApp({ nodeArgs: ['--require', HOOK], ipc: true, env: { READ_YOUR_WRITES_TIMEOUT_MS: '2000' } });
    try {
      const { apiKey } = await createWorkspace(app.dataDir, 'readfull');
      expect((await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(0) })).status).toBe(201);
      await sqliteCap(app, 'cap', ['read.db']);
      // The log takes the writes; once its read model has no room for one, the answer says the write
      // is durable (do not send it again) and cannot be seen yet — never 201 followed by a 404.
      const answered: string[] = [];
      let events = countEvents(app.dataDir);
      let res = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(1) });
      for (let i = 2; res.status === 201 && i < 60; i += 1) {
        answered.push(res.body.id);
        expect((await http(app.url, 'GET', `/api/v1/buyer-requests/${res.body.id}`, { key: apiKey })).status).toBe(200);
        events = countEvents(app.dataDir);
        res = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(i) });
      }
      expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }).toEqual({
        status: 503,
        retryAfter: '30',
        body: {
          code: 'STORAGE_FULL',
          message: expect.stringMatching(/recorded in the event log.*do not send it again/),
          details: { retry_after: 30, recorded: true, position: expect.any(Number) },
        },
      });
      expect(countEvents(app.dataDir)).toBeGreaterThan(events);
      const ready = await http(app.url, 'GET', '/api/v1/health/ready');
      expect(ready.body).toMatchObject({ code: 'NOT_READY', details: { checks: { eventStore: 'ok', readStore: 'full' }, files: { readStore: 'read.db' } } });
      // Claiming an Idempotency-Key is a read-model write: refused before anything is done.
      const keyed = await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(99), headers: { 'idempotency-key': 'rf-1' } });
      expect(keyed).toMatchObject({ status: 503, body: { code: 'STORAGE_FULL', details: { retry_after: 30 } } });
      expect((keyed.body as { details: Record<string, unknown> }).details.recorded).toBeUndefined();

      await sqliteCap(app, 'free', ['read.db']);
      expect((await http(app.url, 'GET', '/api/v1/health/ready')).status).toBe(200);
      // The projections catch up by themselves (they retry with a backoff of at most 5 s): the
      // recorded request appears.
      const deadline = Date.now() + 15000;
      let listed: Array<{ cardName: string }> = [];
      while (Date.now() < deadline) {
        listed = (await http<{ data: Array<{ cardName: string }> }>(app.url, 'GET', '/api/v1/buyer-requests?limit=100', { key: apiKey })).body.data;
        if (listed.length === answered.length + 2) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(listed).toHaveLength(answered.length + 2);
      expect(app.child.exitCode).toBeNull();
    } finally {
      await app.stop();
      removeDir(app.dataDir);
    }
  }, 60000);

  it('on a real full file system (a tiny tmpfs, where this may mount one)', async () => {
    const mountPoint = mountTmpfs();
    if (!mountPoint) return;
    let app: RunningApp | undefined;
    try {
      const dataDir = join(mountPoint, 'data');
      app = await startApp({ dataDir });
      const { apiKey } = await createWorkspace(dataDir, 'tmpfs');
      // Once while there is room: the read model's tables are made on first use.
      expect((await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(0) })).status).toBe(201);
      // Fill what is left with a ballast file, then write until the log has no room either.
      const ballast = join(mountPoint, 'ballast');
      fillUp(ballast);
      // Until the log itself has no room: before that, a write the log took while its read model
      // had none answers 503 `recorded` (durable; not to be sent again).
      let res = await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(1) });
      for (let i = 2; (res.status === 201 || isRecorded(res.body)) && i < 500; i += 1) {
        res = await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(i) });
      }
      expectStorageFull(res);
      expect((await http(app.url, 'GET', '/api/v1/health/ready')).status).toBe(503);

      rmSync(ballast);
      expect((await http(app.url, 'GET', '/api/v1/health/ready')).status).toBe(200);
      expect((await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(999) })).status).toBe(201);
    } finally {
      await app?.stop();
      unmount(mountPoint);
    }
  }, 60000);

  it('a full file system: readiness says so before any write fails, writes are refused, reads go on; a start on it is one line', async () => {
    const mountPoint = mountTmpfs();
    if (!mountPoint) return;
    const dataDir = join(mountPoint, 'data');
    const ballast = join(mountPoint, 'ballast');
    const fill = (): void => fillUp(ballast);
    let app: RunningApp | undefined;
    try {
      app = await startApp({ dataDir });
      const { apiKey } = await createWorkspace(dataDir, 'fullstart');
      const kept = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(0) });
      expect(kept.status).toBe(201);
      // The disk fills up while nothing writes: readiness sees it (the file system asked on every
      // probe), before any write has failed. (Restarted on a disk with no byte left, the app either
      // cannot open its files — the one line below — or, where SQLite finds what it needs in place,
      // starts so, not ready: which of the two depends on what a crash left in its -wal and -shm.)
      await app.stop();
      app = await startApp({ dataDir });
      fill();
      const ready = await http(app.url, 'GET', '/api/v1/health/ready');
      expect(ready).toMatchObject({ status: 503, body: { code: 'NOT_READY', details: { checks: { eventStore: 'full' } } } });
      // What still fits in the log's WAL may be taken (then answered 503 `recorded`: its read model
      // has no room), or not (nothing kept): never a success.
      const write = await http(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(1) });
      expect(write).toMatchObject({ status: 503, body: { code: 'STORAGE_FULL', details: { retry_after: 30 } } });
      expect((await http(app.url, 'GET', `/api/v1/buyer-requests/${kept.body.id}`, { key: apiKey })).status).toBe(200);
      rmSync(ballast);
      expect((await http(app.url, 'GET', '/api/v1/health/ready')).status).toBe(200);

      // Stopped cleanly (SQLite removes its -wal and -shm files), it cannot even open them on a full disk.
      await app.stop();
      app = undefined;
      fill();
      const refused = await runToExit('api', { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n').pop()).toBe(
        `DATA_DIR=${dataDir} cannot be opened: its file system has no space left (disk I/O error). Free some space (or make it writable) and start again.`,
      );
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await app?.stop();
      unmount(mountPoint);
    }
  }, 60000);
});
