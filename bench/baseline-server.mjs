// The bare-Fastify baseline for `npm run bench`: the minimal durable write and the minimal indexed
// read on this machine, with the same fastify package and the same node:sqlite settings as the app
// (WAL, synchronous=NORMAL, busy_timeout). No framework, no validation beyond JSON parsing, no auth,
// no event log, no projection: one INSERT (its own implicit transaction) per POST, one indexed
// SELECT per GET.
//
//   node bench/baseline-server.mjs            (PORT=0 HOST=127.0.0.1 by default; DATA_DIR optional)
//
// Prints `listening on http://127.0.0.1:<port> (baseline, db <path>)` on stdout once ready.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import Fastify from 'fastify';

const PORT = Number(process.env.PORT ?? 0);
const HOST = process.env.HOST ?? '127.0.0.1';
const ownDir = !process.env.DATA_DIR;
const dataDir = process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-baseline-'));
mkdirSync(dataDir, { recursive: true });
const dbPath = join(dataDir, 'baseline.db');

// The same pragmas as libs/platform/src/sqlite/sqlite-database.ts (openSqlite).
const db = new DatabaseSync(dbPath);
db.exec('PRAGMA busy_timeout = 5000');
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = NORMAL');
db.exec(`
  CREATE TABLE IF NOT EXISTS buyer_requests (
    id         TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    doc        TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS buyer_requests_by_created ON buyer_requests (created_at DESC, id DESC);
`);

const insert = db.prepare('INSERT INTO buyer_requests (id, created_at, doc) VALUES (?, ?, ?)');
const newest = db.prepare('SELECT id, created_at, doc FROM buyer_requests ORDER BY created_at DESC, id DESC LIMIT ?');
const after = db.prepare(
  'SELECT id, created_at, doc FROM buyer_requests WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
);

const encodeCursor = (row) => Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');
function decodeCursor(cursor) {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string') ? v : null;
  } catch {
    return null;
  }
}

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });

app.post('/baseline/buyer-requests', async (request, reply) => {
  // Fastify has parsed the JSON already; that is all the validation the baseline does.
  const id = `br_${randomUUID()}`;
  const createdAt = new Date().toISOString();
  const body = request.body && typeof request.body === 'object' ? request.body : {};
  insert.run(id, createdAt, JSON.stringify({ ...body, id, createdAt }));
  reply.code(201);
  return { id, matchCount: 0 };
});

app.get('/baseline/buyer-requests', async (request, reply) => {
  const q = request.query ?? {};
  const limit = Math.min(100, Math.max(1, Math.trunc(Number(q.limit ?? 20)) || 20));
  let rows;
  if (q.cursor) {
    const c = decodeCursor(String(q.cursor));
    if (!c) {
      reply.code(400);
      return { error: { code: 'INVALID_CURSOR', message: 'Invalid cursor' } };
    }
    rows = after.all(c[0], c[1], limit + 1);
  } else {
    rows = newest.all(limit + 1);
  }
  const page = rows.slice(0, limit);
  return {
    data: page.map((r) => JSON.parse(r.doc)),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
  };
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  try {
    await app.close();
  } finally {
    if (db.isOpen) db.close();
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

const address = await app.listen({ port: PORT, host: HOST });
process.stdout.write(`listening on ${address.replace('localhost', '127.0.0.1')} (baseline, db ${dbPath})\n`);
