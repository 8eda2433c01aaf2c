// A read-model layout experiment (issue 20, what would close the push): the embedded read store
// keeps each document as JSON with expression indexes on its fields, so any write of a document
// rewrites every index entry, changed or not. This measures, on one table shaped like
// buyer_requests (six indexes over ten fields, ~1 KB documents, a transaction per 10 writes):
//
//   expr       today's layout: (id, doc) + indexes on json_extract(doc, …)
//   cols-all   the indexed fields copied into columns, every column set on each upsert
//   cols-diff  the same columns, but an update sets only the columns whose value changed (read
//              first), so SQLite rewrites only the indexes over those columns
//
// for inserts, an update that changes one indexed field (status), and one that changes none.
//
//   node bench/read-store-layout.mjs [rows=100000]      (Node 24: node_modules/.bin/node)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const ROWS = Number(process.argv[2] ?? 100_000);
const FIELDS = ['workspaceId', 'createdAt', 'status', 'cardKey', 'setKey', 'buyerId', 'matchKey', 'currency', 'conditionClass', 'maxPriceMinor'];
const INDEXES = {
  by_ws_created: ['workspaceId', 'createdAt', 'id'],
  by_ws_status_created: ['workspaceId', 'status', 'createdAt', 'id'],
  by_ws_card_created: ['workspaceId', 'cardKey', 'createdAt', 'id'],
  by_ws_set_created: ['workspaceId', 'setKey', 'createdAt', 'id'],
  by_ws_buyer_created: ['workspaceId', 'buyerId', 'createdAt', 'id'],
  by_match: ['workspaceId', 'matchKey', 'currency', 'conditionClass', 'status', 'maxPriceMinor'],
};
const col = (f) => `"f_${f}"`;

function doc(i, status = 'open', matched = 0) {
  return {
    id: `br_${String(i).padStart(8, '0')}`,
    workspaceId: 'ws_1',
    createdAt: new Date(1e12 + i * 1000).toISOString(),
    status,
    cardKey: `card${i % 5000}`,
    setKey: `set${i % 200}`,
    buyerId: i % 3 ? `buyer${i % 977}` : null,
    matchKey: `set${i % 200}|card${i % 5000}`,
    currency: 'USD',
    conditionClass: 'raw',
    maxPriceMinor: 1000 + (i % 5000),
    matchedItemIds: Array.from({ length: matched }, (_, k) => `it_${k}`),
    notes: 'x'.repeat(900),
    revision: matched,
  };
}

function open(layout, dir) {
  const db = new DatabaseSync(join(dir, `${layout}.db`));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536');
  if (layout === 'expr') {
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
    for (const [name, fields] of Object.entries(INDEXES)) {
      db.exec(`CREATE INDEX ${name} ON t (${fields.map((f) => (f === 'id' ? 'id' : `json_extract(doc, '$.${f}')`)).join(', ')})`);
    }
  } else {
    db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY, doc TEXT NOT NULL, ${FIELDS.map(col).join(', ')})`);
    for (const [name, fields] of Object.entries(INDEXES)) db.exec(`CREATE INDEX ${name} ON t (${fields.map((f) => (f === 'id' ? 'id' : col(f))).join(', ')})`);
  }
  return db;
}

function writer(layout, db) {
  if (layout === 'expr') {
    const upsert = db.prepare('INSERT INTO t (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc');
    return (d) => upsert.run(d.id, JSON.stringify(d));
  }
  const upsert = db.prepare(
    `INSERT INTO t (id, doc, ${FIELDS.map(col).join(', ')}) VALUES (?, ?, ${FIELDS.map(() => '?').join(', ')})
     ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, ${FIELDS.map((f) => `${col(f)} = excluded.${col(f)}`).join(', ')}`,
  );
  if (layout === 'cols-all') return (d) => upsert.run(d.id, JSON.stringify(d), ...FIELDS.map((f) => d[f] ?? null));
  const current = db.prepare(`SELECT ${FIELDS.map(col).join(', ')} FROM t WHERE id = ?`);
  const updates = new Map();
  return (d) => {
    const values = FIELDS.map((f) => d[f] ?? null);
    const old = current.get(d.id);
    if (!old) return upsert.run(d.id, JSON.stringify(d), ...values);
    const changed = FIELDS.filter((f, i) => old[`f_${f}`] !== values[i]);
    const key = changed.join(',');
    let update = updates.get(key);
    if (!update) updates.set(key, (update = db.prepare(`UPDATE t SET doc = ?${changed.map((f) => `, ${col(f)} = ?`).join('')} WHERE id = ?`)));
    return update.run(JSON.stringify(d), ...changed.map((f) => d[f] ?? null), d.id);
  };
}

function measure(layout, dir) {
  const db = open(layout, dir);
  const put = writer(layout, db);
  const timed = (n, write) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i += 10) {
      db.exec('BEGIN IMMEDIATE');
      for (let k = i; k < i + 10 && k < n; k += 1) write(k);
      db.exec('COMMIT');
    }
    return Number(process.hrtime.bigint() - started) / 1e3 / n;
  };
  const spread = (k) => (k * 7919) % ROWS;
  const insert = timed(ROWS, (i) => put(doc(i)));
  const status = timed(20_000, (k) => put(doc(spread(k), 'matched', 1)));
  const none = timed(20_000, (k) => put(doc(spread(k + 50_000), 'matched', 2)));
  db.close();
  return { layout, insert, status, none };
}

const dir = mkdtempSync(join(tmpdir(), 'read-store-layout-'));
try {
  console.log(`${ROWS} rows, µs per write (a transaction per 10 writes), two rounds`);
  console.log('| layout | insert | update: status changes | update: no indexed field changes |\n|---|---:|---:|---:|');
  for (let round = 0; round < 2; round += 1) {
    for (const layout of ['expr', 'cols-all', 'cols-diff']) {
      const r = measure(layout, dir);
      rmSync(join(dir, `${layout}.db`), { force: true });
      rmSync(join(dir, `${layout}.db-wal`), { force: true });
      rmSync(join(dir, `${layout}.db-shm`), { force: true });
      console.log(`| ${r.layout} | ${r.insert.toFixed(1)} | ${r.status.toFixed(1)} | ${r.none.toFixed(1)} |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
