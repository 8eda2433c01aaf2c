// DATA_DIR checks: the refusals (by injected file-system errors, so they hold as root too, where
// permissions do not stop anything) and the permission tightening (on a real temporary directory).
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ConfigError, loadConfig } from './config';
import { type DataDirFs, loadStartupConfig, makePrivateDirectory, prepareDataDir } from './data-dir';

function failing(call: keyof DataDirFs, code: string, when: (path: string) => boolean = () => true): DataDirFs {
  const real = fs[call] as (...args: unknown[]) => unknown;
  const injected = (...args: unknown[]): unknown => {
    if (when(String(args[0]))) throw Object.assign(new Error(`${code}: injected, ${call} '${String(args[0])}'`), { code });
    return real(...args);
  };
  return { ...fs, [call]: injected } as DataDirFs;
}

function mode(path: string): string {
  return (fs.statSync(path).mode & 0o777).toString(8);
}

describe('prepareDataDir', () => {
  let root: string;
  let umask: number;

  beforeEach(() => {
    root = fs.mkdtempSync(join(tmpdir(), 'cc-datadir-'));
    umask = process.umask(0o022);
  });

  afterEach(() => {
    process.umask(umask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  const config = (dir: string, env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dir, ...env });

  it.each<[string, DataDirFs, string]>([
    ['a directory it may not create', failing('mkdirSync', 'EACCES'), 'permission denied (EACCES) creating the directory'],
    ['a read-only file system', failing('mkdirSync', 'EROFS'), 'read-only file system (EROFS) creating the directory'],
    ['a directory that takes no new file', failing('openSync', 'EACCES'), 'permission denied (EACCES) creating a file in the directory'],
    ['a read-only mount holding the directory', failing('openSync', 'EROFS'), 'read-only file system (EROFS) creating a file in the directory'],
    ['a database it may not write', failing('accessSync', 'EACCES', (p) => p.endsWith('events.db')), 'permission denied (EACCES) opening events.db for writing'],
    ['a read-only write-ahead log', failing('accessSync', 'EROFS', (p) => p.endsWith('read.db-wal')), 'read-only file system (EROFS) opening read.db-wal for writing'],
  ])('refuses %s with one line naming DATA_DIR, the path and the reason', (_what, injected, reason) => {
    const dir = join(root, 'data');
    if (!reason.endsWith('creating the directory')) fs.mkdirSync(dir);
    for (const name of ['events.db', 'read.db-wal']) if (fs.existsSync(dir)) fs.writeFileSync(join(dir, name), '');
    const attempt = (): unknown => prepareDataDir(config(dir), injected);
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(new ConfigError(`DATA_DIR=${dir} is not usable: ${reason}`));
  });

  it('makes the directory and its missing parents 0700, and leaves no probe file behind', () => {
    const dir = join(root, 'a', 'b', 'data');
    expect(prepareDataDir(config(dir))).toEqual({ tightened: [], failed: [] });
    expect([mode(join(root, 'a')), mode(join(root, 'a', 'b')), mode(dir)]).toEqual(['700', '700', '700']);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('makes the directory without looping where the file system answers ENOENT for it (as /proc does)', () => {
    const dir = join(root, 'proc-like', 'nope');
    fs.mkdirSync(join(root, 'proc-like'));
    const injected = failing('mkdirSync', 'ENOENT', (p) => p === dir);
    expect(() => makePrivateDirectory(dir, injected)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('removes group and other access from the directory and every entry in it, and says what it changed', () => {
    const dir = join(root, 'data');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(join(dir, 'events.db'), '', { mode: 0o644 });
    fs.writeFileSync(join(dir, 'secrets.key'), '', { mode: 0o600 });
    fs.writeFileSync(join(dir, 'notes.txt'), '', { mode: 0o640 });
    fs.writeFileSync(join(root, 'elsewhere'), '', { mode: 0o644 });
    fs.symlinkSync(join(root, 'elsewhere'), join(dir, 'link'));

    expect(prepareDataDir(config(dir))).toEqual({
      tightened: ['the directory (0755 → 0700)', 'events.db (0644 → 0600)', 'notes.txt (0640 → 0600)'],
      failed: [],
    });
    expect([mode(dir), mode(join(dir, 'events.db')), mode(join(dir, 'secrets.key')), mode(join(dir, 'notes.txt'))]).toEqual(['700', '600', '600', '600']);
    // What a link points to is not DATA_DIR's to change.
    expect(mode(join(root, 'elsewhere'))).toBe('644');
    expect(prepareDataDir(config(dir))).toEqual({ tightened: [], failed: [] });
  });

  it('reports, without stopping, an entry it may not tighten (another user owns it)', () => {
    const dir = join(root, 'data');
    fs.mkdirSync(dir);
    fs.writeFileSync(join(dir, 'events.db'), '', { mode: 0o644 });
    const injected = failing('chmodSync', 'EPERM', (p) => p.endsWith('events.db'));
    expect(prepareDataDir(config(dir), injected)).toEqual({
      tightened: ['the directory (0755 → 0700)'],
      failed: ['events.db (0644: operation not permitted (EPERM))'],
    });
  });

  it('leaves DATA_DIR alone when nothing is kept there (EventStoreDB, MongoDB and SECRETS_KEY)', () => {
    const dir = join(root, 'unused');
    const env = {
      EVENT_STORE: 'esdb',
      ESDB_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
      READ_STORE: 'mongo',
      MONGO_URL: 'mongodb://localhost',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('hex'),
    };
    expect(prepareDataDir(config(dir, env), failing('mkdirSync', 'EACCES'))).toEqual({ tightened: [], failed: [] });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('loadStartupConfig reports the tightening in one line', () => {
    const dir = join(root, 'data');
    fs.mkdirSync(dir, { mode: 0o750 });
    fs.chmodSync(dir, 0o750);
    const lines: string[] = [];
    const loaded = loadStartupConfig({ DATA_DIR: dir }, (line) => lines.push(line));
    expect(loaded.DATA_DIR).toBe(dir);
    expect(lines).toEqual([`DATA_DIR=${dir}: tightened permissions to the service's user only: the directory (0750 → 0700)`]);
  });
});
