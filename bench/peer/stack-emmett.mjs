// The whole-stack peer of `npm run bench:peer-stack` (issue 33, item 6): the buyer-request POST and
// GETs as an application built on Emmett the way its samples build one
// (samples/webApi/expressjs-with-sqlite: emmett-expressjs's getApplication + on(), Emmett's
// CommandHandler over getSQLiteEventStore, an inline SQLite projection writing the read row inside
// the append's transaction, the GETs reading that row through the pool). Started by the bench as a
// child process:
//
//   PEER_WIRING=samples|leased DATA_DIR=… PORT=0 HOST=127.0.0.1 node bench/peer/stack-emmett.mjs
//
// Prints `listening on http://127.0.0.1:<port> (…)` and, on the line before, `pragmas {…}`: the
// journal mode and synchronous level read back on a connection the app uses.
//
// Two wirings (PEER_WIRING):
// - `samples`: the pool as the samples make it (`SQLiteConnectionPool({ fileName })` on a file): a new
//   sqlite3 connection opened for every store or read operation and closed after it (a POST opens two:
//   the command handler's stream read, then the append). The one change: each new connection is
//   set to `PRAGMA synchronous = NORMAL` (the samples leave SQLite's default, FULL), for the same
//   durability as ours — done by a pool of the same shape (the `pool` option of getSQLiteEventStore)
//   that opens connections exactly as SQLiteConnectionPool does and runs that pragma on each.
// - `leased`: the peer at its best — one connection opened at start and held for the app's life,
//   passed as the ambient connection of the pool (`connectionOptions: { singleton: true,
//   connection }`, the 0.42 API; bench/peer/emmett.mjs does the same for `bench:peer`), used by the
//   store, the projection and the reads. Appends made at the same time share one transaction (its
//   nesting counter), so a POST can be answered before the transaction holding its event commits
//   (ours answers only after its commit): durability per request is weaker on this side. And a POST
//   that starts while another's COMMIT is in flight sees the counter up, opens no transaction, runs
//   its statements in autocommit, then fails its own COMMIT ("cannot commit - no transaction is
//   active"): answered 500 though its stream, event and row were written (checked: 2,252 × 201 +
//   46 × 500 left 2,298 streams, events and rows). The bench counts those 500s; it does not fix them.
// Both: journal_mode WAL (emmett sets it on every connection), synchronous NORMAL, sqlite3's default
// busy timeout (1 s); express's json + urlencoded parsers and the problem-details middleware of
// getApplication; no auth (the samples have none; ours checks an API key and rate-limits).
//
// Routes, with the payloads and answers of ours (libs/demand/src/buyer-request/buyer-request.schemas.ts):
//   POST /buyer-requests      validates the body (fields, lengths, money with ≤ 2 decimals, ISO
//                             currency, optional source and buyer, no unknown keys), decides
//                             BuyerRequestCreated on a new stream with Emmett's CommandHandler
//                             (expected: the stream does not exist), 201 {id} (the samples' Created);
//   GET  /buyer-requests?limit=20[&cursor=…]   the newest rows, {data, nextCursor} (keyset cursor);
//   GET  /buyer-requests/:id  the row, or 404.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';

import {
  CommandHandler,
  IllegalStateError,
  projections,
  ValidationError,
} from '@event-driven-io/emmett';
import { Created, getApplication, NotFound, OK, on } from '@event-driven-io/emmett-expressjs';
import {
  getSQLiteEventStore,
  SQLiteConnectionPool,
  SQLiteEventStoreDefaultStreamVersion,
  sqliteConnection,
  sqliteProjection,
} from '@event-driven-io/emmett-sqlite';

const WIRING = process.env.PEER_WIRING ?? 'leased';
if (!['samples', 'leased'].includes(WIRING)) throw new Error(`PEER_WIRING must be samples or leased (got ${WIRING})`);
const SYNCHRONOUS = process.env.PEER_SYNCHRONOUS ?? 'NORMAL';
const DATA_DIR = process.env.DATA_DIR;
if (!DATA_DIR) throw new Error('DATA_DIR is required');
const fileName = join(DATA_DIR, 'emmett_event_store.db');

// ---- the pool --------------------------------------------------------------------------------

/** A connection as emmett opens one (it sets WAL itself), at the durability measured. */
async function openConnection() {
  const connection = sqliteConnection({ fileName });
  await connection.command(`PRAGMA synchronous = ${SYNCHRONOUS}`);
  return connection;
}

/**
 * The samples' pool (SQLiteConnectionPool({ fileName }) on a file: no singleton, a connection per
 * withConnection, closed after it), with the synchronous level set on each connection it opens.
 */
function perOperationPool() {
  return {
    connection: () => openConnection(),
    withConnection: async (handler) => {
      const connection = await openConnection();
      try {
        return await handler(connection);
      } finally {
        connection.close();
      }
    },
    close: () => Promise.resolve(),
  };
}

let leased = null;
if (WIRING === 'leased') leased = await openConnection();
const pool =
  WIRING === 'leased' ? SQLiteConnectionPool({ fileName, connectionOptions: { singleton: true, connection: leased } }) : perOperationPool();

// ---- the buyer request: decide + evolve (one event: created) ------------------------------------

const evolve = (state, { type, data }) => (type === 'BuyerRequestCreated' ? { status: 'open', id: data.buyerRequestId } : state);
const initialState = () => null;

function decideCreate(command, state) {
  if (state !== null) throw new IllegalStateError(`Buyer request ${command.buyerRequestId} already exists`);
  return { type: 'BuyerRequestCreated', data: command };
}

const handle = CommandHandler({ evolve, initialState });

// ---- validation: what ours checks (createBuyerRequestBody), by hand ------------------------------

const ALLOWED = new Set(['cardName', 'setName', 'condition', 'maxPrice', 'currency', 'source', 'buyer']);
const MAX_AMOUNT = 1_000_000_000;

function text(body, key, max, optional = false) {
  const v = body[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string') throw new ValidationError(`${key} must be a string`);
  const t = v.trim();
  if (t.length < 1 || t.length > max) throw new ValidationError(`${key} must have 1 to ${max} characters`);
  return t;
}

function validate(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The body must be a JSON object');
  for (const key of Object.keys(body)) if (!ALLOWED.has(key)) throw new ValidationError(`Unknown field ${key}`);
  const maxPrice = body.maxPrice;
  if (typeof maxPrice !== 'number' || !Number.isFinite(maxPrice) || maxPrice < 0 || maxPrice > MAX_AMOUNT) {
    throw new ValidationError('maxPrice must be a number from 0');
  }
  if (Math.abs(maxPrice * 100 - Math.round(maxPrice * 100)) >= 1e-6) throw new ValidationError('maxPrice must have at most 2 decimal places');
  let currency = 'USD';
  if (body.currency !== undefined) {
    if (typeof body.currency !== 'string' || !/^[A-Za-z]{3}$/.test(body.currency)) throw new ValidationError('currency must be an ISO 4217 code');
    currency = body.currency.toUpperCase();
  }
  let buyer = null;
  if (body.buyer !== undefined && body.buyer !== null) {
    const b = body.buyer;
    if (typeof b !== 'object' || Array.isArray(b)) throw new ValidationError('buyer must be an object');
    for (const key of Object.keys(b)) if (key !== 'externalId' && key !== 'displayName') throw new ValidationError(`Unknown field buyer.${key}`);
    const externalId = text(b, 'externalId', 200, true);
    const displayName = text(b, 'displayName', 200, true);
    if (externalId === undefined && displayName === undefined) throw new ValidationError('Give externalId, displayName or both');
    buyer = { externalId: externalId ?? null, displayName: displayName ?? null };
  }
  return {
    cardName: text(body, 'cardName', 200),
    setName: text(body, 'setName', 200),
    condition: text(body, 'condition', 60),
    maxPrice,
    currency,
    source: text(body, 'source', 100, true) ?? null,
    buyer,
  };
}

// ---- the read model: an inline projection writing the list row in the append's transaction ------

const TABLE = 'buyer_requests';
// The row: the answer as JSON, and the fields ours lists by as columns with indexes of the same
// kinds (newest first; by status, card, set; the match lookup).
const initSQL = [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
     id              TEXT PRIMARY KEY,
     status          TEXT NOT NULL,
     card_key        TEXT NOT NULL,
     set_key         TEXT NOT NULL,
     condition       TEXT NOT NULL,
     currency        TEXT NOT NULL,
     max_price_minor INTEGER NOT NULL,
     created_at      TEXT NOT NULL,
     doc             TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS ${TABLE}_by_created ON ${TABLE} (created_at DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS ${TABLE}_by_status_created ON ${TABLE} (status, created_at DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS ${TABLE}_by_card_created ON ${TABLE} (card_key, created_at DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS ${TABLE}_by_set_created ON ${TABLE} (set_key, created_at DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS ${TABLE}_by_match ON ${TABLE} (card_key, currency, status, max_price_minor)`,
];
const key = (s) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();

const buyerRequestsList = sqliteProjection({
  name: 'buyer_requests_list',
  canHandle: ['BuyerRequestCreated'],
  init: async ({ context }) => {
    for (const sql of initSQL) await context.connection.command(sql);
  },
  handle: async (events, { connection }) => {
    for (const { type, data } of events) {
      if (type !== 'BuyerRequestCreated') continue;
      const doc = {
        id: data.buyerRequestId,
        cardName: data.cardName,
        setName: data.setName,
        condition: data.condition,
        maxPrice: data.maxPrice,
        currency: data.currency,
        source: data.source,
        buyer: data.buyer,
        buyerId: null,
        contact: null,
        contactErased: false,
        status: 'open',
        matchCount: 0,
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        archivedAt: null,
      };
      await connection.command(
        `INSERT INTO ${TABLE} (id, status, card_key, set_key, condition, currency, max_price_minor, created_at, doc)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [doc.id, 'open', key(doc.cardName), key(doc.setName), doc.condition, doc.currency, Math.round(doc.maxPrice * 100), doc.createdAt, JSON.stringify(doc)],
      );
    }
  },
});

const eventStore = getSQLiteEventStore({
  fileName,
  projections: projections.inline([buyerRequestsList]),
  pool,
});
await eventStore.schema.migrate();

// ---- the API -------------------------------------------------------------------------------------

const encodeCursor = (row) => Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');
function decodeCursor(cursor) {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string')) return v;
  } catch {
    // not a cursor
  }
  throw new ValidationError('Invalid cursor');
}

const buyerRequestsApi = (router) => {
  router.post(
    '/buyer-requests',
    on(async (request) => {
      const fields = validate(request.body);
      const buyerRequestId = `br_${randomUUID()}`;
      const command = { buyerRequestId, ...fields, createdAt: new Date().toISOString() };
      // Expected: the stream does not exist. In its bigint form (0n, as bench/peer/emmett.mjs passes
      // it): the same check (the streams row's primary key), without the stream-position read the
      // STREAM_DOES_NOT_EXIST tag costs inside the append's transaction.
      await handle(eventStore, `buyer_request-${buyerRequestId}`, (state) => decideCreate(command, state), {
        expectedStreamVersion: SQLiteEventStoreDefaultStreamVersion,
      });
      return Created({ createdId: buyerRequestId });
    }),
  );

  router.get(
    '/buyer-requests',
    on(async (request) => {
      const raw = request.query.limit ?? '20';
      const limit = Number(raw);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ValidationError('limit must be an integer from 1 to 100');
      const cursor = request.query.cursor === undefined ? null : decodeCursor(String(request.query.cursor));
      const rows = await pool.withConnection((connection) =>
        cursor
          ? connection.query(
              `SELECT id, created_at, doc FROM ${TABLE} WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
              [cursor[0], cursor[1], limit + 1],
            )
          : connection.query(`SELECT id, created_at, doc FROM ${TABLE} ORDER BY created_at DESC, id DESC LIMIT ?`, [limit + 1]),
      );
      const page = rows.slice(0, limit);
      return OK({
        body: { data: page.map((r) => JSON.parse(r.doc)), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null },
      });
    }),
  );

  router.get(
    '/buyer-requests/:id',
    on(async (request) => {
      const id = String(request.params.id);
      if (id.length < 1 || id.length > 64) throw new ValidationError('Invalid id');
      const row = await pool.withConnection((connection) => connection.querySingle(`SELECT doc FROM ${TABLE} WHERE id = ?`, [id]));
      if (!row) return NotFound();
      return OK({ body: JSON.parse(row.doc) });
    }),
  );
};

const application = getApplication({ apis: [buyerRequestsApi] });

// What the app runs at, read back on a connection it uses (for `samples`, a fresh one, as each
// operation gets).
const pragmas = await pool.withConnection(async (connection) => ({
  journal_mode: Object.values(await connection.querySingle('PRAGMA journal_mode'))[0],
  synchronous: Object.values(await connection.querySingle('PRAGMA synchronous'))[0],
  busy_timeout: Object.values(await connection.querySingle('PRAGMA busy_timeout'))[0],
  sqlite_version: (await connection.querySingle('SELECT sqlite_version() AS v')).v,
}));

// startAPI as the samples call it, with the host given (startAPI itself listens on every interface).
const server = http.createServer(application);
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  process.stdout.write(`pragmas ${JSON.stringify(pragmas)}\n`);
  process.stdout.write(`listening on http://${address}:${port} (emmett ${WIRING}, ${fileName})\n`);
});

let closing = false;
function shutdown() {
  if (closing) return;
  closing = true;
  server.close(() => {
    if (leased) leased.close();
    process.exit(0);
  });
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
