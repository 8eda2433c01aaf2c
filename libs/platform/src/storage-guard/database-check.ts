// The start's look at each embedded database: SQLite's `PRAGMA quick_check` (the b-tree structure
// of every page, in O(N), without the index-content cross-check of integrity_check) on a worker
// thread per file, so a start waits for them at most a bounded time. A check still running then
// goes on in the background: damage it finds is recorded as for any damaged file met at run time
// (writes to the file refused, readiness 503) and reported once.
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';

import { markDamaged } from '../sqlite/storage-fault';

// Opens the file and answers { ok: true }, { problem: '…' } (damaged) or { unchecked: '…' }.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
let answer;
try {
  const db = new DatabaseSync(workerData.path, { open: true });
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const rows = db.prepare('PRAGMA quick_check(3)').all().map((row) => String(Object.values(row)[0]));
    // One line for the operator: SQLite's report spans lines and names the schema it checked.
    const said = rows.map((r) => r.replace(/[*]{3} in database \\w+ [*]{3}/g, ' ').replace(/\\s+/g, ' ').trim()).filter(Boolean);
    answer = rows.length === 1 && rows[0] === 'ok' ? { ok: true } : { problem: said.join('; ') };
  } finally {
    db.close();
  }
} catch (error) {
  const message = String(error && error.message ? error.message : error);
  const primary = typeof error?.errcode === 'number' ? error.errcode & 0xff : undefined;
  // 11 SQLITE_CORRUPT, 26 SQLITE_NOTADB: damage. Anything else (no room for the -shm file, busy, an
  // I/O error) says nothing about the file's pages: unchecked.
  answer = primary === 11 || primary === 26 ? { problem: message } : { unchecked: message };
}
parentPort.postMessage(answer);
`;

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
}

/**
 * Quick-checks the databases among `paths` that exist and hold something (a zero-byte file is an
 * empty database, which the log guard judges). Resolves once all are done or the budget is spent.
 */
export async function checkDatabases(paths: readonly string[], options: DatabaseCheckOptions): Promise<CheckOutcome[]> {
  const present = paths.filter((path) => existsSync(path) && statSync(path).size > 0);
  return Promise.all(present.map((path) => checkOne(path, options)));
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
    const finish = (answer: { ok?: boolean; problem?: string; unchecked?: string }): void => {
      clearTimeout(timer);
      const outcome: CheckOutcome = answer.ok
        ? { file, state: 'ok' }
        : answer.problem !== undefined
          ? { file, state: 'damaged', problem: answer.problem }
          : { file, state: 'unchecked', reason: answer.unchecked ?? 'unknown' };
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
