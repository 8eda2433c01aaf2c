// Opens a node:sqlite database with the settings every embedded store shares.
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

import { createPrivateFile, makePrivateDirectory } from '../data-dir';
import { StorageFaults } from './storage-fault';

export type SqliteSynchronous = 'NORMAL' | 'FULL';

export interface SqliteOptions {
  /**
   * WAL + NORMAL survives a crash of the process (the default); FULL also survives power loss,
   * at the cost of an fsync per commit.
   */
  synchronous?: SqliteSynchronous;
  /** node:sqlite waits 0 ms by default; the CLI and the server share the files, so we wait. */
  busyTimeoutMs?: number;
  /**
   * Page cache per connection (MiB). SQLite's default is 2 MiB: with a read model of millions of
   * documents nearly every index page a write touches is a read syscall first.
   */
  cacheSizeMiB?: number;
  /**
   * Memory-mapped I/O (MiB; 0 = off, the default): reads of hot pages without a syscall or a copy,
   * but every mapped page counts in the process's RSS, and in WAL mode a connection drops its whole
   * map (and its page cache) on the first read after another connection's commit.
   */
  mmapSizeMiB?: number;
  /**
   * WAL pages before an automatic checkpoint (SQLite's default: 1000). A longer interval copies a
   * page rewritten by many commits back into the database once instead of every few commits.
   */
  walAutocheckpointPages?: number;
  /**
   * Checkpoint from a worker thread every this many ms (0 = off: SQLite checkpoints on the commit
   * that crosses `walAutocheckpointPages`, on this thread). When on, the autocheckpoint only acts
   * as a safety net at 10× the page count.
   */
  backgroundCheckpointMs?: number;
}

/** Each connection's storage faults, recorded by its transactions (see storageFaults). */
const FAULTS = new WeakMap<DatabaseSync, StorageFaults>();

/** The storage faults of a connection opened by openSqlite. */
export function storageFaults(db: DatabaseSync): StorageFaults | undefined {
  return FAULTS.get(db);
}

export function openSqlite(path: string, options: SqliteOptions = {}): DatabaseSync {
  if (path !== ':memory:') {
    makePrivateDirectory(dirname(path));
    // Created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
    createPrivateFile(path);
  }
  const db = new DatabaseSync(path);
  const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000));
  db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  // Two processes opening the same files at once (the API and a worker, two servers): switching to
  // WAL takes a lock for which SQLite may answer SQLITE_BUSY at once, without its busy handler.
  whileBusy(busyTimeoutMs, () => db.exec('PRAGMA journal_mode = WAL'));
  db.exec(`PRAGMA synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(`PRAGMA cache_size = ${-1024 * Math.max(1, Math.trunc(options.cacheSizeMiB ?? 64))}`);
  if (path !== ':memory:') db.exec(`PRAGMA mmap_size = ${1024 * 1024 * Math.max(0, Math.trunc(options.mmapSizeMiB ?? 0))}`);
  const pages = Math.max(1, Math.trunc(options.walAutocheckpointPages ?? 1000));
  db.exec(`PRAGMA wal_autocheckpoint = ${(options.backgroundCheckpointMs ?? 0) > 0 ? pages * 10 : pages}`);
  FAULTS.set(db, new StorageFaults(db, path));
  return db;
}

/** Runs `fn` again while SQLite answers SQLITE_BUSY, for up to `timeoutMs` (sleeping 5–50 ms between tries). */
function whileBusy(timeoutMs: number, fn: () => void): void {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 5; ; wait = Math.min(50, wait * 2)) {
    try {
      fn();
      return;
    } catch (error) {
      const busy = (error as { errcode?: number }).errcode === 5; // SQLITE_BUSY
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait); // a synchronous sleep: opening is synchronous
    }
  }
}

/**
 * Runs `fn` inside `BEGIN IMMEDIATE … COMMIT` (the write lock is taken up front, so concurrent
 * writers from other processes queue on busy_timeout instead of failing mid-transaction). A
 * storage fault (disk full, read-only) is recorded on the connection and thrown as a
 * StorageFaultError; the transaction is rolled back either way (SQLite may have done it already).
 * A file found damaged takes no transaction at all.
 */
export function immediateTransaction<R>(db: DatabaseSync, fn: () => R): R {
  const faults = FAULTS.get(db);
  faults?.assertWritable();
  try {
    const { begin, commit } = transactionStatements(db);
    begin.run();
    try {
      const result = fn();
      commit.run();
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } catch (error) {
    throw faults ? faults.failed(error) : error;
  }
}

/** BEGIN IMMEDIATE and COMMIT prepared once per connection: `exec` parses them on every transaction. */
const TRANSACTION_STATEMENTS = new WeakMap<DatabaseSync, { begin: StatementSync; commit: StatementSync }>();

function transactionStatements(db: DatabaseSync): { begin: StatementSync; commit: StatementSync } {
  let statements = TRANSACTION_STATEMENTS.get(db);
  if (!statements) {
    statements = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT') };
    TRANSACTION_STATEMENTS.set(db, statements);
  }
  return statements;
}
