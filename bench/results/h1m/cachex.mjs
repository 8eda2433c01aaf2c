// Scratch experiment of run h1m (paths are that session's): see README.md here.
// Does a commit by another connection cost the next read its page cache? Instant-match queries on
// the kept 1M read.db: reader after no commit / after a writer's commit / on the writer itself.
import { DatabaseSync } from 'node:sqlite';
const mmapMiB = Number(process.argv[2] ?? 0);
const N = Number(process.argv[3] ?? 300);
const f = (await import('/tmp/snap-1m-bg/dist/libs/platform/src/read-store/sqlite-filter.js')).default;
const path = '/tmp/scale-data-A-3JiTuo/read.db';
const open = () => { const db = new DatabaseSync(path); db.exec('PRAGMA busy_timeout = 5000'); db.exec('PRAGMA cache_size = -65536'); db.exec(`PRAGMA mmap_size = ${mmapMiB * 1048576}`); return db; };
const W = open(), R = open();
W.exec('CREATE TABLE IF NOT EXISTS h1m_scratch (id INTEGER PRIMARY KEY, v TEXT)');
const ins = W.prepare('INSERT INTO h1m_scratch (v) VALUES (?)');
// sample requests: random items of the 1M workspace, bound = their price + 20 %, score - 1
const n = W.prepare('SELECT max(rowid) m FROM c_inventory_items').get().m;
const picks = [];
let seed = 7; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
while (picks.length < N) { const r = W.prepare('SELECT doc FROM c_inventory_items WHERE rowid = ?').get(1 + Math.floor(rnd() * n)); if (r) picks.push(JSON.parse(r.doc)); }
const queries = picks.map((it) => {
  const w = f.whereClause({ workspaceId: it.workspaceId, matchKey: it.matchKey, status: 'available', currency: it.currency, conditionClass: it.conditionClass, priceMinor: { $lte: Math.round(it.priceMinor * 1.2) }, conditionScore: { $gte: it.conditionScore - 1 } });
  return { sql: `SELECT doc FROM "c_inventory_items" WHERE ${w.sql} ORDER BY ${f.orderByClause([['priceMinor', 1], ['id', 1]])} LIMIT ?`, params: [...w.params, 101] };
});
const stmts = new Map();
const run = (db, q) => { const k = db === W ? 'W' + q.sql : 'R' + q.sql; let s = stmts.get(k); if (!s) stmts.set(k, (s = db.prepare(q.sql))); return s.all(...q.params).length; };
const cpu = () => { const c = process.cpuUsage(); return c.user + c.system; };
function pass(label, db, commitBefore) {
  let rows = 0, wall = 0, us = 0;
  for (const q of queries) {
    if (commitBefore) ins.run('x');
    const c0 = cpu(), t0 = process.hrtime.bigint();
    rows += run(db, q);
    wall += Number(process.hrtime.bigint() - t0) / 1000; us += cpu() - c0;
  }
  console.log(`${label.padEnd(40)} mmap ${mmapMiB}: ${(wall / N).toFixed(0)} µs wall, ${(us / N).toFixed(0)} µs CPU per query, ${(rows / N).toFixed(1)} rows`);
}
pass('warm-up reader', R, false);
pass('reader, no commit between', R, false);
pass('reader, writer commits before each', R, true);
pass('reader, no commit between (again)', R, false);
pass('warm-up writer', W, false);
pass('writer, its own commit before each', W, true);
pass('reader, writer commits before each', R, true);
W.exec('DROP TABLE h1m_scratch');
