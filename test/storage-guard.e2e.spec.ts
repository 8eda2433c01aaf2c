// The log is the truth, and a start never trusts its storage blindly: a lost, emptied or damaged
// log, a damaged read model or a missing or changed secrets key stops the API, the worker and the
// CLI with one plain line naming the file and what to do; damage met while running turns readiness
// to 503 and refuses writes. A brand-new DATA_DIR still starts with no ceremony (every suite does).
import { closeSync, copyFileSync, cpSync, existsSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { cli, createWorkspace, type ExitResult, removeDir, type RunningApp, runToExit, startApp, tempDataDir } from './support/app-process';
import { http } from './support/http';

const HOOK = join(__dirname, 'support', 'sqlite-page-cap.cjs');
const PAGE = 4096;

const request = (i: number) => ({ cardName: `Charizard ${i}`, setName: 'Base', condition: 'NM', maxPrice: 100 + i });

interface Seeded {
  dataDir: string;
  apiKey: string;
  ids: string[];
}

/** A DATA_DIR with a workspace, buyer requests and sealed data (a portal user's email), its server stopped. */
async function seed(count = 5): Promise<Seeded> {
  const app = await startApp();
  try {
    const { apiKey } = await createWorkspace(app.dataDir, 'guard');
    expect((await cli(app.dataDir, ['user', 'create', '--workspace', 'guard', '--email', 'owner@example.com'])).code).toBe(0);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const res = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(i) });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    return { dataDir: app.dataDir, apiKey, ids };
  } finally {
    await app.stop();
  }
}

/** A copy of a seeded DATA_DIR, for one case to spoil. */
function copyOf(seeded: Seeded): Seeded {
  const dataDir = tempDataDir();
  cpSync(seeded.dataDir, dataDir, { recursive: true });
  return { ...seeded, dataDir };
}

/** A refused start: exit code 1 and one plain line on stderr (no stack trace, no colour). */
function refusal(result: ExitResult): string {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: '' });
  const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\u001b|\n\s+at /);
  return lines[0];
}

/** Overwrites whole pages of a database file (after its WAL was checkpointed into it) with garbage. */
function damagePages(file: string, pages: number[]): void {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  const fd = openSync(file, 'r+');
  try {
    for (const page of pages) writeSync(fd, Buffer.alloc(PAGE, 0xa5), 0, PAGE, page * PAGE);
  } finally {
    closeSync(fd);
  }
}

/** What `PRAGMA integrity_check` says of a file ("ok", the problems, or SQLite's error). */
function integrity(file: string): string {
  const db = new DatabaseSync(file);
  try {
    return (db.prepare('PRAGMA integrity_check').all() as Array<Record<string, unknown>>).map((row) => String(Object.values(row)[0])).join('; ');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db.close();
  }
}

function pageCount(file: string): number {
  return statSync(file).size / PAGE;
}

describe('the storage guard (e2e)', () => {
  let seeded: Seeded;
  const spoiled: string[] = [];

  beforeAll(async () => {
    seeded = await seed();
  }, 60000);

  afterAll(() => {
    removeDir(seeded.dataDir);
    for (const dir of spoiled) removeDir(dir);
  });

  const spoil = (): Seeded => {
    const copy = copyOf(seeded);
    spoiled.push(copy.dataDir);
    return copy;
  };

  it.each([
    ['deleted', (dir: string) => ['events.db', 'events.db-wal', 'events.db-shm'].forEach((f) => rmSync(join(dir, f), { force: true }))],
    [
      'emptied to zero bytes',
      (dir: string) => {
        truncateSync(join(dir, 'events.db'), 0);
        ['events.db-wal', 'events.db-shm'].forEach((f) => rmSync(join(dir, f), { force: true }));
      },
    ],
  ])('a log %s beside its read models stops the API, the worker and a rebuild, erasing nothing; `projections reset` starts over', async (_how, lose) => {
    const { dataDir, apiKey, ids } = spoil();
    const log = join(dataDir, 'events.db');
    copyFileSync(log, `${log}.backup`); // (checkpointed at the clean stop: the whole log)
    lose(dataDir);

    const line = refusal(await runToExit('api', { DATA_DIR: dataDir }));
    expect(line).toContain(`The event log ${log} ends at position 0, but read.db has applied it up to position`);
    expect(line).toMatch(/eventual\.db has applied it up to position [1-9]/);
    expect(line).toContain('Restore');
    expect(line).toContain('npm run cli -- projections reset');
    expect(refusal(await runToExit('worker', { DATA_DIR: dataDir }))).toBe(line);
    const rebuild = await cli(dataDir, ['projections', 'rebuild', '--all']);
    expect({ code: rebuild.code, stderr: rebuild.stderr.trim() }).toEqual({ code: 1, stderr: line });
    // Looking is allowed: the status shows the read side ahead of the log.
    const status = await cli(dataDir, ['projections', 'status']);
    expect(status.code).toBe(0);
    expect(status.json<{ projections: Array<{ position: number; head: number }> }>().projections.some((p) => p.position > p.head)).toBe(true);

    // Nothing was erased: with the log restored, everything is there again.
    copyFileSync(`${log}.backup`, log);
    let app: RunningApp = await startApp({ dataDir });
    try {
      expect((await http(app.url, 'GET', `/api/v1/buyer-requests/${ids[0]}`, { key: apiKey })).status).toBe(200);
    } finally {
      await app.stop();
    }

    // Or, knowingly, start over from the log as it is (here: lost again, so empty).
    lose(dataDir);
    const reset = await cli(dataDir, ['projections', 'reset']);
    expect(reset.code).toBe(0);
    expect(reset.json()).toMatchObject({ logHead: 0, reset: expect.arrayContaining(['buyer_requests', 'workspaces']) });
    app = await startApp({ dataDir });
    try {
      expect((await http(app.url, 'GET', '/api/v1/buyer-requests', { key: apiKey })).status).toBe(401);
      const fresh = await createWorkspace(dataDir, 'again');
      expect((await http(app.url, 'POST', '/api/v1/buyer-requests', { key: fresh.apiKey, body: request(1) })).status).toBe(201);
    } finally {
      await app.stop();
    }
  }, 90000);

  it('a damaged page in the log stops the start with one line naming events.db; in a read model, naming it and how to rebuild it', async () => {
    const { dataDir } = spoil();
    const log = join(dataDir, 'events.db');
    damagePages(log, [Math.floor(pageCount(log) / 2)]);
    expect(integrity(log)).not.toBe('ok'); // what the operator would see
    const line = refusal(await runToExit('api', { DATA_DIR: dataDir }));
    expect(line).toMatch(new RegExp(`^${log} is damaged \\(SQLite's quick check: .+\\)\\. It is the event log`));
    expect(line).toContain('restore it from a backup');
    expect(refusal(await runToExit('worker', { DATA_DIR: dataDir }))).toBe(line);
    expect((await cli(dataDir, ['projections', 'status'])).stderr.trim()).toBe(line);

    const other = spoil();
    const reads = join(other.dataDir, 'read.db');
    damagePages(reads, [Math.floor(pageCount(reads) / 2)]);
    const readLine = refusal(await runToExit('api', { DATA_DIR: other.dataDir }));
    expect(readLine).toContain(`${reads} is damaged`);
    expect(readLine).toContain('It holds only read models, rebuilt from the log');
    // What it says to do works: without read.db, the read models come back from the log.
    for (const f of ['read.db', 'read.db-wal', 'read.db-shm']) rmSync(join(other.dataDir, f), { force: true });
    const app = await startApp({ dataDir: other.dataDir });
    try {
      expect((await http(app.url, 'GET', `/api/v1/buyer-requests/${other.ids[0]}`, { key: other.apiKey })).status).toBe(200);
    } finally {
      await app.stop();
    }
  }, 90000);

  it('damage met while running turns readiness to 503 naming events.db and refuses writes with 503 STORAGE_CORRUPT; reads go on', async () => {
    const { dataDir, apiKey, ids } = spoil();
    const log = join(dataDir, 'events.db');
    const running = await startApp({ dataDir, nodeArgs: ['--require', HOOK], ipc: true });
    try {
      // Quiet, and its WAL checkpointed into the file: reads now come from events.db itself.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // Every page of the log but its first (the schema) overwritten, as a failing disk would;
      // then the app's cached pages dropped, so its next read of the log meets the disk.
      damagePages(
        log,
        Array.from({ length: pageCount(log) - 1 }, (_, i) => i + 1),
      );
      await new Promise<void>((resolve) => {
        running.child.once('message', () => resolve());
        running.child.send({ sqlite: 'release', files: ['events.db'] });
      });

      const write = await http(running.url, 'PATCH', `/api/v1/buyer-requests/${ids[0]}`, { key: apiKey, body: { maxPrice: 999 } });
      expect(write).toMatchObject({ status: 503, body: { code: 'STORAGE_CORRUPT' } });
      const ready = await http(running.url, 'GET', '/api/v1/health/ready');
      expect(ready).toMatchObject({
        status: 503,
        body: { code: 'NOT_READY', details: { checks: { eventStore: 'corrupt', readStore: 'ok' }, files: { eventStore: 'events.db' } } },
      });
      // Refused without touching the file: the same answer for any write, at once.
      const another = await http(running.url, 'POST', '/api/v1/buyer-requests', { key: apiKey, body: request(9) });
      expect(another).toMatchObject({ status: 503, body: { code: 'STORAGE_CORRUPT', message: expect.stringMatching(/nothing of this write was kept/) } });
      expect(another.headers.get('retry-after')).toBeNull();
      expect((await http(running.url, 'GET', `/api/v1/buyer-requests/${ids[1]}`, { key: apiKey })).status).toBe(200);
      expect(running.output()).not.toMatch(/"code":"INTERNAL"|request failed/);
    } finally {
      await running.stop();
    }
  }, 90000);

  it('the secrets key never changes silently: a missing or other key with sealed data stops the start; the original starts it', async () => {
    const { dataDir, apiKey, ids } = spoil();
    const keyFile = join(dataDir, 'secrets.key');
    const original = readFileSync(keyFile, 'utf8').trim();
    rmSync(keyFile);

    const missing = refusal(await runToExit('api', { DATA_DIR: dataDir }));
    expect(missing).toContain(`The secrets key file ${keyFile} is missing, but events.db (the event at position`);
    expect(missing).toContain('none is generated');
    expect(missing).toContain('SECRETS_KEY');
    expect(existsSync(keyFile)).toBe(false);
    expect((await cli(dataDir, ['projections', 'status'])).stderr.trim()).toBe(missing);

    const other = refusal(await runToExit('api', { DATA_DIR: dataDir, SECRETS_KEY: 'ab'.repeat(32) }));
    expect(other).toMatch(/^The secrets key from SECRETS_KEY \(key [0-9a-f]{8}\) is not the key the stored data is sealed with/);

    // The original key, from the environment (its backup), starts it; so does the file restored.
    const fromEnv = await startApp({ dataDir, env: { SECRETS_KEY: original } });
    try {
      expect((await http(fromEnv.url, 'GET', `/api/v1/buyer-requests/${ids[0]}`, { key: apiKey })).status).toBe(200);
    } finally {
      await fromEnv.stop();
    }
    expect(existsSync(keyFile)).toBe(false);
  }, 60000);

  it('a key is generated for a DATA_DIR with nothing sealed, even one that had a key before', async () => {
    const app = await startApp();
    const keyFile = join(app.dataDir, 'secrets.key');
    try {
      await createWorkspace(app.dataDir, 'plain'); // a workspace and a key: nothing sealed
    } finally {
      await app.stop();
    }
    const before = readFileSync(keyFile, 'utf8');
    rmSync(keyFile);
    const again = await startApp({ dataDir: app.dataDir });
    try {
      expect(readFileSync(keyFile, 'utf8')).not.toBe(before);
    } finally {
      await again.stop();
      removeDir(app.dataDir);
    }
  }, 60000);
});
