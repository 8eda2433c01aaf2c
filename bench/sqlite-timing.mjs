// Preload for profiling the app without touching its code: times every node:sqlite call
// (prepare, exec, StatementSync.run/get/all/iterate) per SQL text and database file, and writes the
// totals as JSON to $SQLITE_TIMING_OUT when the process exits.
//
//   SQLITE_TIMING_OUT=/tmp/sqlite-timing.json BENCH_ONLY=post-app \
//     BENCH_APP_NODE_OPTIONS="--import ./bench/sqlite-timing.mjs" node bench/run.mjs
import { writeFileSync } from 'node:fs';
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

const norm = (sql) => sql.replace(/\s+/g, ' ').trim().slice(0, 160);

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

const started = process.hrtime.bigint();
function dump() {
  const out = process.env.SQLITE_TIMING_OUT;
  if (!out) return;
  const rows = [...stats]
    .map(([key, s]) => ({ key, calls: s.calls, totalMs: Number(s.ns) / 1e6, meanUs: Number(s.ns) / 1e3 / s.calls }))
    .sort((a, b) => b.totalMs - a.totalMs);
  writeFileSync(out, JSON.stringify({ wallMs: Number(process.hrtime.bigint() - started) / 1e6, rows }, null, 2));
}
process.on('exit', dump);
// Nest re-raises SIGTERM after its shutdown hooks; dump first so the numbers survive either way.
process.prependListener('SIGTERM', dump);
