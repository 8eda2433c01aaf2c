// One measurement of bench/webhooks-idle.mjs, in its own process: a build's WebhookDispatcher (from
// <appRoot>/dist) over a copy of the fixture's events.db, with no webhook anywhere. Prints one JSON
// line on stdout. Not meant to be run by hand (see the parent's header).
//
//   argv: <appRoot> <fixture events.db> <scenario: catchup | live | appender> <work dir>
//
// The dispatcher gets the real event store (the app's SQLite settings, but no automatic WAL
// checkpoint, so the WAL's frame count is every page written), the real read store (an empty
// `webhooks` collection in a read.db of its own), the real public-event catalogue, and stand-ins for
// the projection runner (caught up: waitFor answers at once, appliedPosition is the log's head) and
// the delivery worker (never called: nobody listens).
import { copyFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sqlite from 'node:sqlite';

const [appRoot, fixture, scenario, work] = process.argv.slice(2);
const require = createRequire(join(appRoot, 'package.json'));
const dist = (p) => require(join(appRoot, 'dist', p));

const GROUP = 'webhook-dispatcher';
const LIVE_RATE = Number(process.env.IDLE_BENCH_LIVE_RATE ?? 500); // appends per second
const LIVE_SECONDS = Number(process.env.IDLE_BENCH_LIVE_SECONDS ?? 6);
const LIVE_PER_APPEND = Number(process.env.IDLE_BENCH_LIVE_EVENTS_PER_APPEND ?? 2);

// Counts what the event store's connection runs: statements by kind, transactions, and the poll
// of this script (excluded).
const { DatabaseSync, StatementSync } = sqlite;
const dbOf = new WeakMap();
let watched = null;
const counts = { begin: 0, insert: 0, update: 0, delete: 0, select: 0, other: 0 };
const origPrepare = DatabaseSync.prototype.prepare;
DatabaseSync.prototype.prepare = function prepare(sql, ...rest) {
  const stmt = origPrepare.call(this, sql, ...rest);
  dbOf.set(stmt, this);
  return stmt;
};
const kindOf = (sql) => {
  const s = sql.trimStart().slice(0, 16).toUpperCase();
  if (s.startsWith('BEGIN')) return 'begin';
  for (const k of ['INSERT', 'UPDATE', 'DELETE', 'SELECT']) if (s.startsWith(k)) return k.toLowerCase();
  return 'other';
};
for (const method of ['run', 'get', 'all']) {
  const orig = StatementSync.prototype[method];
  StatementSync.prototype[method] = function patched(...args) {
    if (watched && dbOf.get(this) === watched && !this.sourceSQL.includes('/*bench*/')) counts[kindOf(this.sourceSQL)] += 1;
    return orig.apply(this, args);
  };
}

const { SqliteEventStore } = dist('libs/platform/src/event-store/sqlite-event-store.js');
const { AppendBatcher } = dist('libs/platform/src/event-store/append-batcher.js');
const { SqliteReadStore } = dist('libs/platform/src/read-store/sqlite-read-store.js');
const { PublicEventCatalogue } = dist('libs/platform/src/public-events/public-event-catalogue.js');
const { PUBLIC_EVENTS } = dist('apps/composition/public-events.js');
const { WebhookDispatcher } = dist('libs/webhooks/src/delivery/dispatcher.js');
const { WEBHOOKS } = dist('libs/webhooks/src/subscriptions/webhook.projection.js');

const path = join(work, 'events.db');
copyFileSync(fixture, path);
for (const ext of ['-wal', '-shm']) if (existsSync(fixture + ext)) copyFileSync(fixture + ext, path + ext);
const sqliteOptions = { synchronous: 'NORMAL', busyTimeoutMs: 5000, cacheSizeMiB: 64, mmapSizeMiB: 1024, walAutocheckpointPages: 1000 };
const store = new SqliteEventStore(path, { ...sqliteOptions, pollIntervalMs: 100 });
const reads = new SqliteReadStore(join(work, 'read.db'), sqliteOptions);
reads.collection(WEBHOOKS);
const db = store.db;
// The fixture's dispatcher already went through the log: forget the group (every table of the
// build's persistent subscriptions that names groups).
const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'persistent_subscription%' /*bench*/`).all();
for (const { name } of tables) db.exec(`DELETE FROM ${name} WHERE group_name = '${GROUP}'`);
const head = () => db.prepare('SELECT coalesce(max(position), 0) AS p FROM events /*bench*/').get().p;
const headAtStart = head();
if (scenario !== 'catchup') {
  // Live: the group exists at the end of the log, so only the events appended during the run count.
  db.prepare(
    `INSERT INTO persistent_subscription_groups (group_name, checkpoint, read_position, created_at) VALUES (?, ?, ?, ?) /*bench*/`,
  ).run(GROUP, headAtStart, headAtStart, new Date().toISOString());
}
db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
db.exec('PRAGMA wal_autocheckpoint = 0');

let readQueries = 0;
const countingReads = {
  collection: (spec) => {
    const c = reads.collection(spec);
    return new Proxy(c, { get: (t, k) => (k === 'find' ? (...a) => ((readQueries += 1), t.find(...a)) : typeof t[k] === 'function' ? t[k].bind(t) : t[k]) });
  },
};
const projections = { waitFor: async () => true, appliedPosition: async () => store.headPositionSync() };
const worker = { submit: () => { throw new Error('nobody listens: nothing to submit'); } };
const settings = { schedule: [0, 60_000], maxPerWorkspace: 100 };
const dispatcher = new WebhookDispatcher(store, new AppendBatcher(store), countingReads, { now: () => new Date() }, settings, new PublicEventCatalogue(PUBLIC_EVENTS), projections, worker);

const checkpointOf = db.prepare('SELECT checkpoint FROM persistent_subscription_groups WHERE group_name = ? /*bench*/');
// Settled: the stored checkpoint, or (a build whose subscription skips without writing) how far it
// scanned by skipping alone; its write follows within moments, off the clock.
const checkpoint = () => Math.max(checkpointOf.get(GROUP)?.checkpoint ?? 0, store.persistent?.cursors?.get(GROUP) ?? 0);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const walFrames = () => db.prepare('PRAGMA wal_checkpoint(PASSIVE) /*bench*/').get();

async function catchup() {
  // Warm: the catalogue, the statements (one event appended and dispatched before the clock).
  const target = headAtStart;
  watched = db;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  dispatcher.start();
  while (checkpoint() < target) await sleep(5);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  watched = null;
  await dispatcher.stop();
  const wal = walFrames();
  const events = db.prepare('SELECT count(*) AS n FROM events WHERE position <= ? /*bench*/').get(target).n;
  return { events, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, walFrames: wal.log, counts: { ...counts }, readQueries };
}

async function live(withDispatcher) {
  // Templates: public events of the fixture, appended again to new streams at a fixed rate.
  const templates = db
    .prepare(`SELECT type, data, metadata FROM events WHERE type IN ('inventory.created', 'buyer_request.created', 'match.created') ORDER BY position LIMIT 2000 /*bench*/`)
    .all();
  if (templates.length === 0) throw new Error('the fixture holds no public event to replay');
  if (withDispatcher) dispatcher.start();
  await sleep(300);
  watched = db;
  const before = { ...counts };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const total = Math.round(LIVE_RATE * LIVE_SECONDS);
  let appended = 0;
  let appends = 0;
  let i = 0;
  while (appends < total) {
    const due = Math.floor(((performance.now() - t0) / 1000) * LIVE_RATE);
    while (appends < Math.min(due, total)) {
      const events = Array.from({ length: LIVE_PER_APPEND }, () => {
        const t = templates[i++ % templates.length];
        return { type: t.type, data: JSON.parse(t.data), metadata: JSON.parse(t.metadata) };
      });
      await store.append(`bench-live-${appends}`, events, { expectedRevision: 'no_stream' });
      appends += 1;
      appended += events.length;
    }
    await sleep(1);
  }
  const appendedHead = store.headPositionSync();
  if (withDispatcher) while (checkpoint() < appendedHead) await sleep(2);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  watched = null;
  const c = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v - before[k]]));
  if (withDispatcher) await dispatcher.stop();
  const wal = walFrames();
  return { events: appended, appends, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, walFrames: wal.log, counts: c, readQueries };
}

const result = scenario === 'catchup' ? await catchup() : await live(scenario === 'live');
await store.close();
await reads.close();
process.stdout.write(`${JSON.stringify({ scenario, appRoot, headAtStart, ...result })}\n`);
