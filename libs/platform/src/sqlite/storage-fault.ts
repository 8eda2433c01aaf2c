// Storage faults: SQLite refusing a write because the disk (or the database's size cap) is full, or
// the file system is read-only. They are not bugs but conditions of the machine: the write is
// rolled back (none of it is kept), the API answers 503 STORAGE_FULL / STORAGE_READ_ONLY with
// Retry-After, and the store's readiness check fails until a probe finds room again — no restart.
//
// node:sqlite throws `{ code: 'ERR_SQLITE_ERROR', errcode, errstr }` with SQLite's extended result
// code: 13 SQLITE_FULL ("database or disk is full", also what ENOSPC on a write gives), 8 and its
// variants SQLITE_READONLY; ENOSPC while growing the WAL index can surface as an I/O error (10,
// SQLITE_IOERR_*), which the file system's free space then tells apart from a failing disk.
import { accessSync, constants, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

export type StorageFaultKind = 'full' | 'read_only';

/** What a refused write tells the client to wait. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

/** Room a probe asks for (and free space the file system must have): a typical write fits in it. */
export const PROBE_BYTES = 64 * 1024;

const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;

export class StorageFaultError extends Error {
  override readonly name = 'StorageFaultError';
  constructor(
    readonly kind: StorageFaultKind,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(`${kind === 'full' ? 'storage is full' : 'storage is read-only'}: cannot write ${path}`, options);
  }
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
    if (stats.bavail * stats.bsize < PROBE_BYTES) return 'full';
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
    return this.current;
  }

  /** A write failed: a storage fault is remembered and comes back as a StorageFaultError. */
  failed(error: unknown): unknown {
    const kind = storageFaultOf(error, this.path);
    if (kind === undefined) return error;
    this.current = kind;
    return error instanceof StorageFaultError ? error : new StorageFaultError(kind, this.path, { cause: error });
  }

  /**
   * For readiness. Nothing to check while writes succeed; after a storage fault, throws a
   * StorageFaultError until a probe finds room again, so recovery shows without a client write.
   * The caller must not have a transaction open on this connection.
   */
  check(): void {
    if (this.current === undefined) return;
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
      return kind;
    } finally {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
    }
  }
}
