// DATA_DIR, checked once at the start of every process (api, worker, cli) before anything opens a
// file in it: it is made if missing, must be a directory the service can create files in, and
// must hold only private things — the directory 0700, every file 0600 (the databases hold every
// workspace's data and `secrets.key` the key to their secrets). A directory that cannot be used
// stops the start with one line naming the variable, the path and the reason.
import * as nodeFs from 'node:fs';
import { dirname, join } from 'node:path';

import { type AppConfig, ConfigError, loadConfig } from './config';

/** The file system calls used here (a test swaps in failing ones). */
export type DataDirFs = Pick<
  typeof nodeFs,
  'accessSync' | 'chmodSync' | 'closeSync' | 'lstatSync' | 'mkdirSync' | 'openSync' | 'readdirSync' | 'statSync' | 'unlinkSync'
>;

/** Files the embedded stores keep in DATA_DIR, by the setting that puts them there. */
const STORE_FILES = { events: 'events.db', reads: 'read.db', eventualReads: 'eventual.db' } as const;
const SQLITE_SUFFIXES = ['', '-wal', '-shm'];

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'no such file or directory',
  EEXIST: 'it exists and is not a directory',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
  EISDIR: 'it is a directory',
};

/** "permission denied (EACCES)": what a file-system error means, for a human. */
export function fsReason(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  return `${REASONS[code] ?? (error instanceof Error ? error.message : code)} (${code})`;
}

/**
 * Makes `dir` and its missing parents, each 0700. Not `mkdirSync(…, { recursive: true })`: where a
 * file system answers ENOENT for a path whose parent exists (/proc/nope), that spins forever.
 */
export function makePrivateDirectory(dir: string, fs: DataDirFs = nodeFs): void {
  const missing: string[] = [];
  for (let current = dir; fs.statSync(current, { throwIfNoEntry: false }) === undefined; current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing) {
    try {
      fs.mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      // Made meanwhile by another process starting on the same directory.
      if (!isCode(error, 'EEXIST')) throw error;
    }
  }
}

/** Creates `path` empty and 0600 when it does not exist (SQLite gives its -wal and -shm the same mode). */
export function createPrivateFile(path: string, fs: DataDirFs = nodeFs): void {
  try {
    fs.closeSync(fs.openSync(path, 'wx', 0o600));
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
  }
}

/** Whether this configuration keeps anything in DATA_DIR. */
export function usesDataDir(config: AppConfig): boolean {
  return config.EVENT_STORE === 'sqlite' || config.READ_STORE === 'sqlite' || config.SECRETS_KEY === undefined;
}

/** Entries of DATA_DIR whose group/other access was removed, and those where that failed. */
export interface PermissionChanges {
  tightened: string[];
  failed: string[];
}

/**
 * Makes DATA_DIR usable or says why it is not (ConfigError, one line). Returns what it changed in
 * the permissions, for the caller to report once.
 */
export function prepareDataDir(config: AppConfig, fs: DataDirFs = nodeFs): PermissionChanges {
  if (!usesDataDir(config)) return { tightened: [], failed: [] };
  const dir = config.DATA_DIR;
  const refuse = (reason: string): ConfigError => new ConfigError(`DATA_DIR=${dir} is not usable: ${reason}`);
  try {
    makePrivateDirectory(dir, fs);
  } catch (error) {
    throw refuse(`${fsReason(error)} creating the directory`);
  }
  if (!fs.statSync(dir).isDirectory()) throw refuse('it is not a directory');
  // SQLite creates its -wal and -shm files beside the database: the directory must take new files.
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    createPrivateFile(probe, fs);
    fs.unlinkSync(probe);
  } catch (error) {
    throw refuse(`${fsReason(error)} creating a file in the directory`);
  }
  for (const name of storeFiles(config)) {
    try {
      fs.accessSync(join(dir, name), nodeFs.constants.R_OK | nodeFs.constants.W_OK);
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw refuse(`${fsReason(error)} opening ${name} for writing`);
    }
  }
  return tightenPermissions(dir, fs);
}

function storeFiles(config: AppConfig): string[] {
  const bases = [
    ...(config.EVENT_STORE === 'sqlite' ? [STORE_FILES.events] : []),
    ...(config.READ_STORE === 'sqlite' ? [STORE_FILES.reads, STORE_FILES.eventualReads] : []),
  ];
  return bases.flatMap((base) => SQLITE_SUFFIXES.map((suffix) => `${base}${suffix}`));
}

/** Removes group and other access from DATA_DIR and everything directly in it. */
function tightenPermissions(dir: string, fs: DataDirFs): PermissionChanges {
  const changes: PermissionChanges = { tightened: [], failed: [] };
  const tighten = (path: string, label: string): void => {
    const stat = fs.lstatSync(path);
    // A symbolic link has no mode of its own; what it points to is not ours to change.
    if (stat.isSymbolicLink() || (stat.mode & 0o077) === 0) return;
    const mode = stat.mode & 0o7700;
    try {
      fs.chmodSync(path, mode);
      changes.tightened.push(`${label} (${octal(stat.mode)} → ${octal(mode)})`);
    } catch (error) {
      changes.failed.push(`${label} (${octal(stat.mode)}: ${fsReason(error)})`);
    }
  };
  tighten(dir, 'the directory');
  for (const name of fs.readdirSync(dir).sort()) tighten(join(dir, name), name);
  return changes;
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

/**
 * The configuration a process starts with: the environment parsed and DATA_DIR prepared. Changed
 * permissions are reported in one line on `report` (stderr: no logger exists yet).
 */
export function loadStartupConfig(
  env: NodeJS.ProcessEnv = process.env,
  report: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): AppConfig {
  const config = loadConfig(env);
  const { tightened, failed } = prepareDataDir(config);
  const parts = [
    ...(tightened.length > 0 ? [`tightened permissions to the service's user only: ${tightened.join(', ')}`] : []),
    ...(failed.length > 0 ? [`could not tighten permissions of ${failed.join(', ')}`] : []),
  ];
  if (parts.length > 0) report(`DATA_DIR=${config.DATA_DIR}: ${parts.join('; ')}`);
  return config;
}
