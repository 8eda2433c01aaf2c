// Storage faults: SQLite refusing a write because the disk (or the database's size cap) is full, or
// the file system is read-only. They are not bugs but conditions of the machine: the write is
// rolled back (none of it is kept), the API answers 503 STORAGE_FULL / STORAGE_READ_ONLY with
// Retry-After, and the store's readiness check fails until a probe finds room again — no restart.
// A damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) is a fault too, but one that waiting does not
// mend: once seen on any connection to a file, every write to that file is refused (503
// STORAGE_CORRUPT) and readiness fails until an operator restores it and restarts the process.
//
// node:sqlite throws `{ code: 'ERR_SQLITE_ERROR', errcode, errstr }` with SQLite's extended result
// code: 13 SQLITE_FULL ("database or disk is full", also what ENOSPC on a write gives), 8 and its
// variants SQLITE_READONLY; ENOSPC while growing the WAL index can surface as an I/O error (10,
// SQLITE_IOERR_*), which the file system's free space then tells apart from a failing disk; 11
// SQLITE_CORRUPT ("database disk image is malformed") and 26 SQLITE_NOTADB a damaged file.
import { accessSync, constants, statfsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

export type StorageFaultKind = 'full' | 'read_only' | 'corrupt';

/** What a refused write tells the client to wait. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

/** Room a probe asks for (and free space the file system must have): a typical write fits in it. */
export const PROBE_BYTES = 64 * 1024;

const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_NOTADB = 26;

const DESCRIPTIONS: Record<StorageFaultKind, string> = {
  full: 'storage is full',
  read_only: 'storage is read-only',
  corrupt: 'storage is damaged',
};

export class StorageFaultError extends Error {
  override readonly name = 'StorageFaultError';
  constructor(
    readonly kind: StorageFaultKind,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(`${DESCRIPTIONS[kind]}: cannot ${kind === 'corrupt' ? 'use' : 'write'} ${path}`, options);
  }

  /** The database's file name (never the directory: answers and readiness name files, not paths). */
  get file(): string {
    return basename(this.path);
  }
}

/**
 * A write that is in the log (durable: it will not be lost and must not be sent again) but that
 * its read model cannot hold for want of storage: the answer is 503 with `details.recorded`, never
 * a success the next GET would contradict with a 404.
 */
export class RecordedNotVisibleError extends Error {
  override readonly name = 'RecordedNotVisibleError';
  constructor(
    readonly kind: StorageFaultKind,
    readonly position: number,
  ) {
    super(`the write at position ${position} is in the log, but the read models cannot store it (storage ${kind})`);
  }
}

/**
 * Files found damaged in this process, by path, with what SQLite said: shared by every connection
 * to the file (a read store's reader and writer), and kept until the process ends (a damaged file
 * does not heal; an operator restores it and restarts).
 */
const DAMAGED = new Map<string, string>();

/** Records `path` as damaged (first reason kept). */
export function markDamaged(path: string, reason: string): void {
  if (!DAMAGED.has(path)) DAMAGED.set(path, reason);
}

/** Why `path` was found damaged in this process, if it was. */
export function damageOf(path: string): string | undefined {
  return DAMAGED.get(path);
}

/** Whether an error is SQLite saying the file is damaged or not a database at all. By shape (see storageFaultOf). */
export function isCorruption(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code !== 'ERR_SQLITE_ERROR' || typeof errcode !== 'number') return false;
  const primary = errcode & 0xff;
  return primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB;
}

/**
 * Runs a read on a connection to `path`: a damaged file met on the way is recorded (every writer
 * of the file then refuses, readiness fails) and thrown as a StorageFaultError.
 */
export function guardedRead<R>(path: string, fn: () => R): R {
  try {
    return fn();
  } catch (error) {
    if (!isCorruption(error)) throw error;
    markDamaged(path, messageOf(error));
    throw new StorageFaultError('corrupt', path, { cause: error });
  }
}

function messageOf(error: unknown): string {
  const { errstr, message } = error as { errstr?: unknown; message?: unknown };
  return String(message ?? errstr ?? error);
}

/**
 * The storage fault an error reports, if any. By shape, not `instanceof`: node:sqlite builds its
 * errors in the main realm, which differs from the caller's under jest. With the database's path,
 * an I/O error counts as "full" when its file system has no room left.
 */
export function storageFaultOf(error: unknown, path?: string): StorageFaultKind | undefined {
  if (error instanceof StorageFaultError) return error.kind;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    if (isCorruption(error)) return 'corrupt';
    const primary = errcode & 0xff;
    if (primary === SQLITE_FULL) return 'full';
    if (primary === SQLITE_READONLY) return 'read_only';
    if (primary === SQLITE_IOERR && path !== undefined) return fileSystemFault(path);
    return undefined;
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  if (code === 'EROFS') return 'read_only';
  return undefined;
}

/** What the file system holding `path` says: mounted read-only, or (nearly) no space left. */
function fileSystemFault(path: string): StorageFaultKind | undefined {
  if (path === ':memory:') return undefined;
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    if (storageFaultOf(error) === 'read_only') return 'read_only';
  }
  try {
    const stats = statfsSync(dirname(path));
    // The superuser may write into the blocks a file system reserves; anyone else may not.
    const free = process.getuid?.() === 0 ? stats.bfree : stats.bavail;
    if (free * stats.bsize < PROBE_BYTES) return 'full';
  } catch {
    // No answer from the file system: nothing to conclude.
  }
  return undefined;
}

/**
 * A connection's storage faults: the last write that failed for want of storage, until a probe
 * finds room again. A later write that succeeds does not clear it: a small one may fit in WAL
 * space SQLite reuses (or a transaction may write nothing) while a typical write still fails.
 */
export class StorageFaults {
  private current: StorageFaultKind | undefined;

  constructor(
    private readonly db: DatabaseSync,
    private readonly path: string,
  ) {}

  get fault(): StorageFaultKind | undefined {
    return damageOf(this.path) !== undefined ? 'corrupt' : this.current;
  }

  /** Before a write: a file found damaged takes none (StorageFaultError 'corrupt'). */
  assertWritable(): void {
    if (damageOf(this.path) !== undefined) throw new StorageFaultError('corrupt', this.path);
  }

  /** A write failed: a storage fault is remembered and comes back as a StorageFaultError. */
  failed(error: unknown): unknown {
    const kind = storageFaultOf(error, this.path);
    if (kind === undefined) return error;
    if (kind === 'corrupt') markDamaged(this.path, error instanceof StorageFaultError ? (damageOf(this.path) ?? error.message) : messageOf(error));
    else this.current = kind;
    return error instanceof StorageFaultError ? error : new StorageFaultError(kind, this.path, { cause: error });
  }

  /**
   * For readiness. A damaged file always throws. Otherwise, while writes succeed, only the file
   * system is asked (statfs: a full or read-only disk shows before any write fails, at start
   * too); after a storage fault, throws a StorageFaultError until a probe finds room again, so
   * recovery shows without a client write. The caller must not have a transaction open on this
   * connection.
   */
  check(): void {
    this.assertWritable();
    if (this.current === undefined) {
      this.current = fileSystemFault(this.path);
      if (this.current === undefined) return;
      throw new StorageFaultError(this.current, this.path);
    }
    const kind = this.db.isTransaction ? this.current : this.probe();
    if (kind !== undefined) {
      this.current = kind;
      throw new StorageFaultError(kind, this.path);
    }
    this.current = undefined;
  }

  /**
   * A write of PROBE_BYTES in a transaction that is rolled back (nothing is kept, nothing reaches
   * the WAL): SQLite allocates its pages, so a full database (or its size cap) refuses it; a
   * disk with free space below PROBE_BYTES, or mounted read-only, is asked directly, since pages
   * only reach the disk at commit.
   */
  private probe(): StorageFaultKind | undefined {
    const fromFileSystem = fileSystemFault(this.path);
    if (fromFileSystem !== undefined) return fromFileSystem;
    try {
      this.db.exec('BEGIN IMMEDIATE');
      this.db.exec('CREATE TABLE IF NOT EXISTS storage_probe (pad BLOB)');
      this.db.exec(`INSERT INTO storage_probe (pad) VALUES (zeroblob(${PROBE_BYTES}))`);
      return undefined;
    } catch (error) {
      const kind = storageFaultOf(error, this.path);
      if (kind === undefined) throw error;
      if (kind === 'corrupt') markDamaged(this.path, messageOf(error));
      return kind;
    } finally {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
    }
  }
}
