// DATA_DIR, as the processes meet it: one that cannot be used stops the API, the worker and the CLI
// at once with one line naming the variable, the path and the reason (not a stack trace, not a
// hang); everything the service keeps in it is private to the service's user.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, runToExit, startApp } from './support/app-process';
import { http } from './support/http';

const isRoot = process.getuid?.() === 0;

/** The one line a refused start writes, checked for every entry point. */
async function expectRefusal(dataDir: string, reason: RegExp): Promise<void> {
  for (const entry of ['api', 'worker', 'cli'] as const) {
    const result = await runToExit(entry, { DATA_DIR: dataDir }, entry === 'cli' ? ['projections', 'status'] : []);
    const line = new RegExp(`^DATA_DIR=${escape(dataDir)} is not usable: ${reason.source}$`);
    // `exited`: false when it had to be killed (still running, or hanging, after 15 s).
    expect({ entry, exited: result.code !== null, failed: result.code !== 0, stderr: result.stderr.trim().split('\n') }).toEqual({
      entry,
      exited: true,
      failed: true,
      stderr: [expect.stringMatching(line)],
    });
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('an unusable DATA_DIR (e2e)', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cc-datadir-'));
  });

  afterAll(() => {
    chmodSync(root, 0o700);
    for (const name of readdirSync(root)) if (statSync(join(root, name)).isDirectory()) chmodSync(join(root, name), 0o700);
    removeDir(root);
  });

  it('stops with one line when a parent of the path is a file (ENOTDIR)', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    await expectRefusal(join(file, 'data'), /.*\(ENOTDIR\) creating the directory/);
  });

  it('stops with one line when the path is a file', async () => {
    const file = join(root, 'not-a-dir');
    writeFileSync(file, 'x');
    await expectRefusal(file, /it is not a directory/);
  });

  it('stops with one line, instead of hanging, where the directory cannot be made (/proc/nope)', async () => {
    if (!existsSync('/proc/self')) {
      process.stdout.write('skipped: no /proc on this system\n');
      return;
    }
    await expectRefusal('/proc/nope', /no such file or directory \(ENOENT\) creating the directory/);
  }, 60000);

  it('stops with one line where no file can be created in the directory (/sys, even as root)', async () => {
    if (!existsSync('/sys/kernel')) {
      process.stdout.write('skipped: no /sys on this system\n');
      return;
    }
    await expectRefusal('/sys', /.*\((EACCES|EPERM|EROFS)\) creating a file in the directory/);
  });

  it('stops with one line on a directory without write permission (mode 0500)', async () => {
    if (isRoot) {
      process.stdout.write('skipped: running as root, a mode 0500 directory is writable anyway (the /sys case covers it)\n');
      return;
    }
    const dir = join(root, 'read-only');
    mkdirSync(dir, { mode: 0o500 });
    await expectRefusal(dir, /permission denied \(EACCES\) creating a file in the directory/);
  });
});

/** Permission bits of everything directly in `dir`, by name. */
function modes(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]));
}

describe('DATA_DIR permissions (e2e)', () => {
  let root: string;
  let umask: number;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cc-modes-'));
    // The usual umask, inherited by the app: files would be 0644 and directories 0755 under it.
    umask = process.umask(0o022);
  });

  afterAll(() => {
    process.umask(umask);
    removeDir(root);
  });

  it('creates the directory 0700 and every file in it 0600 (databases, their WAL and index, the secrets key)', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const app = await startApp({ dataDir });
    try {
      const { apiKey } = await createWorkspace(dataDir, 'modes');
      const res = await http(app.url, 'POST', '/api/v1/buyer-requests', {
        key: apiKey,
        body: { cardName: 'Charizard', setName: 'Base', condition: 'NM', maxPrice: 1 },
      });
      expect(res.status).toBe(201);
      const files = modes(dataDir);
      expect(Object.keys(files)).toEqual(
        expect.arrayContaining(['events.db', 'events.db-wal', 'events.db-shm', 'read.db', 'read.db-wal', 'read.db-shm', 'eventual.db', 'eventual.db-wal', 'eventual.db-shm', 'secrets.key']),
      );
      expect(files).toEqual(Object.fromEntries(Object.keys(files).map((name) => [name, '600'])));
      expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    } finally {
      await app.stop();
    }
  });

  it('tightens a DATA_DIR left group- or world-readable, and says so once', async () => {
    const dataDir = join(root, 'loose');
    const first = await startApp({ dataDir });
    await first.stop();
    chmodSync(dataDir, 0o755);
    for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);
    writeFileSync(join(dataDir, 'notes.txt'), 'an operator left this here\n', { mode: 0o666 });

    const second = await startApp({ dataDir });
    try {
      const files = modes(dataDir);
      expect(files).toEqual(Object.fromEntries(Object.keys(files).map((name) => [name, '600'])));
      expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
      const notes = second.output().split('\n').filter((line) => line.includes('tightened'));
      expect(notes).toEqual([expect.stringMatching(/^DATA_DIR=.* tightened .*events\.db.*notes\.txt/)]);
    } finally {
      await second.stop();
    }
    // Already private: nothing to say on the next start (nor from the CLI).
    const status = await cli(dataDir, ['projections', 'status']);
    expect(status.code).toBe(0);
    expect(status.stderr).not.toContain('tightened');
  });
});
