// Preload for A/B experiments without touching the app's code: runs extra PRAGMAs on every
// node:sqlite connection the process opens (right after it is opened, before the app's own
// PRAGMAs), e.g. a bigger page cache.
//
//   SQLITE_PRAGMAS="cache_size=-262144" \
//     BENCH_APP_NODE_OPTIONS="--import ./bench/sqlite-pragmas.mjs" BENCH_SCALE_ONLY=B node bench/scale.mjs
//
// SQLITE_PRAGMAS: `;`-separated `name=value` pairs. Only for measuring what a setting would change.
import sqlite from 'node:sqlite';

const pragmas = (process.env.SQLITE_PRAGMAS ?? '')
  .split(';')
  .map((p) => p.trim())
  .filter(Boolean);
for (const p of pragmas) {
  if (!/^[a-z_]+\s*=\s*-?[A-Za-z0-9_]+$/.test(p)) throw new Error(`SQLITE_PRAGMAS: bad entry "${p}"`);
}

// Prototype patch (as bench/sqlite-timing.mjs does): the app destructures DatabaseSync at require
// time, so the class itself cannot be swapped. The PRAGMAs run on a connection's first exec/prepare,
// which openSqlite() issues right after opening it.
const { DatabaseSync } = sqlite;
const done = new WeakSet();
function once(db) {
  if (done.has(db)) return;
  done.add(db);
  for (const p of pragmas) origExec.call(db, `PRAGMA ${p}`);
}
const origExec = DatabaseSync.prototype.exec;
const origPrepare = DatabaseSync.prototype.prepare;
DatabaseSync.prototype.exec = function exec(sql, ...rest) {
  once(this);
  return origExec.call(this, sql, ...rest);
};
DatabaseSync.prototype.prepare = function prepare(sql, ...rest) {
  once(this);
  return origPrepare.call(this, sql, ...rest);
};
