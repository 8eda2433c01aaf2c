// The start's look at each embedded database: SQLite's `PRAGMA quick_check` (the b-tree structure
// of every page, in O(N), without the index-content cross-check of integrity_check). A small file
// is checked at once on the calling thread; a larger one on a worker thread of its own, so a start
// waits for them at most a bounded time. A check still running then goes on in the background:
// damage it finds is recorded as for any damaged file met at run time (writes to the file
// refused, readiness 503) and reported once.
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';

import { markDamaged } from '../sqlite/storage-fault';

type Answer = { ok: true } | { problem: string } | { unchecked: string };

/**
 * Opens the file and runs the check: { ok: true }, { problem: '…' } (damaged) or { unchecked: '…' }.
 * Self-contained (its source is also the worker's): it takes node:sqlite's DatabaseSync as given.
 */
function quickCheck(path: string, Database: typeof DatabaseSync): Answer {
  try {
    const db = new Database(path, { open: true });
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      const rows = db
        .prepare('PRAGMA quick_check(3)')
        .all()
        .map((row) => String(Object.values(row)[0]));
      // One line for the operator: SQLite's report spans lines and names the schema it checked.
      const said = rows.map((r) => r.replace(/[*]{3} in database \w+ [*]{3}/g, ' ').replace(/\s+/g, ' ').trim()).filter(Boolean);
      return rows.length === 1 && rows[0] === 'ok' ? { ok: true } : { problem: said.join('; ') };
    } finally {
      db.close();
    }
  } catch (error) {
    const message = String(error instanceof Error ? error.message : error);
    const errcode = (error as { errcode?: unknown } | null)?.errcode;
    const primary = typeof errcode === 'number' ? errcode & 0xff : undefined;
    // 11 SQLITE_CORRUPT, 26 SQLITE_NOTADB: damage. Anything else (no room for the -shm file, busy,
    // an I/O error) says nothing about the file's pages: unchecked.
    return primary === 11 || primary === 26 ? { problem: message } : { unchecked: message };
  }
}

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
parentPort.postMessage((${quickCheck.toString()})(workerData.path, DatabaseSync));
`;

/**
 * A file up to this size is checked on the calling thread: about a millisecond, where starting a
 * worker thread costs some 50 ms a file (a CLI command on a small DATA_DIR waited 150 ms for it).
 */
export const INLINE_CHECK_MAX_BYTES = 4 * 1024 * 1024;

export type CheckOutcome =
  | { file: string; state: 'ok' }
  | { file: string; state: 'damaged'; problem: string }
  /** Not finished within the start's budget: it goes on in the background. */
  | { file: string; state: 'running' }
  /** SQLite could not run the check (no room for its -shm file, an I/O error): nothing is known. */
  | { file: string; state: 'unchecked'; reason: string };

export interface DatabaseCheckOptions {
  /** How long the start waits for the checks. */
  budgetMs: number;
  /** Damage found by a check that finished after the budget (already recorded as damage). */
  onLateDamage: (file: string, problem: string) => void;
  /** Files up to this size are checked on the calling thread (default INLINE_CHECK_MAX_BYTES). */
  inlineMaxBytes?: number;
}

/**
 * Quick-checks the databases among `paths` that exist and hold something (a zero-byte file is an
 * empty database, which the log guard judges). Resolves once all are done or the budget is spent.
 */
export async function checkDatabases(paths: readonly string[], options: DatabaseCheckOptions): Promise<CheckOutcome[]> {
  const inlineMaxBytes = options.inlineMaxBytes ?? INLINE_CHECK_MAX_BYTES;
  const present = paths.map((path) => ({ path, size: statSync(path, { throwIfNoEntry: false })?.size ?? 0 })).filter((f) => f.size > 0);
  return Promise.all(present.map(({ path, size }) => (size <= inlineMaxBytes ? checkInline(path) : checkOne(path, options))));
}

function checkInline(path: string): Promise<CheckOutcome> {
  return Promise.resolve(outcomeOf(basename(path), quickCheck(path, DatabaseSync)));
}

function outcomeOf(file: string, answer: Answer): CheckOutcome {
  if ('ok' in answer) return { file, state: 'ok' };
  if ('problem' in answer) return { file, state: 'damaged', problem: answer.problem };
  return { file, state: 'unchecked', reason: answer.unchecked };
}

function checkOne(path: string, options: DatabaseCheckOptions): Promise<CheckOutcome> {
  const file = basename(path);
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path } });
    // A check past the budget must not keep the process alive (a CLI command that is done).
    worker.unref();
    const timer = setTimeout(() => {
      settled = true;
      resolve({ file, state: 'running' });
    }, options.budgetMs);
    const finish = (answer: Answer): void => {
      clearTimeout(timer);
      const outcome = outcomeOf(file, answer);
      if (!settled) {
        settled = true;
        resolve(outcome);
      } else if (outcome.state === 'damaged') {
        markDamaged(path, outcome.problem);
        options.onLateDamage(file, outcome.problem);
      }
    };
    worker.once('message', finish);
    worker.once('error', (error) => finish({ unchecked: error.message }));
  });
}
