// Preload for the scale bench: like bench/sqlite-timing.mjs (times every node:sqlite call per SQL
// text and database file, without touching the app's code), but the totals can be snapshotted
// while the process runs, so a measurement window (a load run, a push) can be isolated by
// difference: each SIGUSR2 writes the running totals to `$SQLITE_TIMING_OUT.<n>.json` (n = 1, 2, …).
//
//   BENCH_SCALE_SQL_TIMING=1 node bench/scale.mjs      (scale.mjs adds the preload and the signals)
import { renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import sqlite from 'node:sqlite';

const { DatabaseSync, StatementSync } = sqlite;
const stats = new Map();
const dbOf = new WeakMap();
const fileOf = (db) => {
  try {
    return basename(db.location() ?? ':memory:');
  } catch {
    return '?';
  }
};

function record(key, ns) {
  let s = stats.get(key);
  if (!s) stats.set(key, (s = { calls: 0, ns: 0n }));
  s.calls += 1;
  s.ns += ns;
}

const norm = (sql) => sql.replace(/\s+/g, ' ').trim().slice(0, 200);

const origPrepare = DatabaseSync.prototype.prepare;
DatabaseSync.prototype.prepare = function prepare(sql, ...rest) {
  const t = process.hrtime.bigint();
  const stmt = origPrepare.call(this, sql, ...rest);
  const file = fileOf(this);
  dbOf.set(stmt, file);
  record(`${file} prepare ${norm(sql)}`, process.hrtime.bigint() - t);
  return stmt;
};

const origExec = DatabaseSync.prototype.exec;
DatabaseSync.prototype.exec = function exec(sql, ...rest) {
  const t = process.hrtime.bigint();
  try {
    return origExec.call(this, sql, ...rest);
  } finally {
    record(`${fileOf(this)} exec ${norm(sql)}`, process.hrtime.bigint() - t);
  }
};

for (const method of ['run', 'get', 'all', 'iterate']) {
  const orig = StatementSync.prototype[method];
  if (typeof orig !== 'function') continue;
  StatementSync.prototype[method] = function timed(...args) {
    const t = process.hrtime.bigint();
    try {
      return orig.apply(this, args);
    } finally {
      record(`${dbOf.get(this) ?? '?'} ${method} ${norm(this.sourceSQL)}`, process.hrtime.bigint() - t);
    }
  };
}

let n = 0;
process.on('SIGUSR2', () => {
  const out = process.env.SQLITE_TIMING_OUT;
  if (!out) return;
  n += 1;
  const rows = [...stats].map(([key, s]) => ({ key, calls: s.calls, ns: s.ns.toString() }));
  const file = `${out}.${n}.json`;
  // Written under another name first: the reader polls for the final name.
  writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), rows }));
  renameSync(`${file}.tmp`, file);
});
