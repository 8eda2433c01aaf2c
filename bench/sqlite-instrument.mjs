// Shared by the two timing preloads (sqlite-timing.mjs, sqlite-timing-window.mjs): patches
// node:sqlite so every call (prepare, exec, StatementSync.run/get/all/iterate) is timed per SQL
// text and database file, into `stats` (key → {calls, ns}).
import { basename } from 'node:path';
import sqlite from 'node:sqlite';

const { DatabaseSync, StatementSync } = sqlite;
export const stats = new Map();
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
