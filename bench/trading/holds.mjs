// Scenario 2 of the trading bench: N holds (default 10,000) expiring at the same instant T are all
// released within 5 s.
//
// 1. Seeds pilot + N items of quantity 1 (intake push), a card of their own so the probe below
//    sees only them.
// 2. Pilot: places `pilot` holds (autocannon, the bench's connections; the last 60 % timed) expiring
//    5 s after it starts, to learn the rate at which holds are placed here, now;
//    T = now + N / rate × 1.1 + BENCH_HOLDS_MARGIN s (and ≥ 2 s after the pilot's expiry). The
//    pilot's holds expire (and release) while the N are being placed, and must all have by T.
// 3. Places the N holds, all with expiresAt = T (every answer 201, readable at once: the timers
//    projection has them when the last answer comes). Placing must end ≥ 1 s before T.
// 4. From T: polls, one request after the other every BENCH_HOLDS_POLL_MS (100 ms),
//    `GET /api/v1/holds?status=active&limit=1` and `GET /api/v1/inventory?status=reserved&cardName=…&limit=1`
//    (both on indexes, so the probe costs the server little) until both are empty: the time from T
//    to then is the figure (the read models show every hold expired and every unit available).
//    Beside it, read-only from the app's SQLite files (no load on its event loop): the number of
//    `hold.expired` events appended so far and the projections' checkpoints, every poll.
// 5. Afterwards: the append times of the `hold.expired` / `inventory.released` events (first,
//    median, last after T, per second), the app's CPU over the window, and a full count of the
//    expired holds through the API (pages of 100).
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { fmt, problems } from '../lib/common.mjs';
import { onCleanup } from '../lib/resources.mjs';
import { cannon } from '../run/load.mjs';
import { Profiler, SqlWindow } from '../scale/instruments.mjs';
import { percentiles } from '../scale/load.mjs';
import { cpuWindow } from '../webhooks/machine.mjs';

import { api, assertAlive } from './app.mjs';
import { log, round, settings, sleep } from './config.mjs';
import { seedItems } from './seed.mjs';

export const HOLD_CARD = { cardName: 'Pikachu', setName: 'Jungle' };
const PILOT_EXPIRY_MS = 5000;

// Read-only connections to the app's SQLite files, closed at cleanup.
const openDbs = new Set();
onCleanup(() => {
  for (const db of openDbs) if (db.isOpen) db.close();
});
function openReadOnly(path) {
  const db = new DatabaseSync(path, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  openDbs.add(db);
  return db;
}

/** The log and the projections' checkpoints, straight from events.db / read.db. */
class LogView {
  constructor(dataDir) {
    this.events = openReadOnly(join(dataDir, 'events.db'));
    this.reads = openReadOnly(join(dataDir, 'read.db'));
    this.headStmt = this.events.prepare('SELECT coalesce(max(position), 0) AS p FROM events');
    this.countStmt = this.events.prepare('SELECT count(*) AS n FROM events WHERE type = ? AND position > ?');
    this.timesStmt = this.events.prepare('SELECT created_at AS at FROM events WHERE type = ? AND position > ? ORDER BY position');
    this.checkpointsStmt = this.reads.prepare("SELECT id, json_extract(doc, '$.position') AS p FROM c_projection_checkpoints");
  }

  head() {
    return this.headStmt.get().p;
  }

  count(type, after) {
    return this.countStmt.get(type, after).n;
  }

  appendTimes(type, after) {
    return this.timesStmt.all(type, after).map((r) => Date.parse(r.at));
  }

  /** The slowest projection's checkpoint and the timers projection's. */
  checkpoints() {
    const rows = this.checkpointsStmt.all();
    return { min: Math.min(...rows.map((r) => r.p)), timers: rows.find((r) => r.id === 'timers')?.p ?? null };
  }
}

/**
 * Places `ids.length` holds on `ids` (one each), all expiring at `expiresAt`; returns the timing.
 * The rate is timed from the first answer to the last (autocannon's `amount` runs end on its
 * 1-second ticks, so its own duration is too coarse).
 */
async function placeHolds(app, ids, expiresAt) {
  let i = 0;
  let first = null;
  let last = null;
  const t0 = performance.now();
  const result = await cannon(
    {
      url: app.url,
      connections: settings.connections,
      amount: ids.length,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/holds',
          headers: app.headers,
          setupRequest: (req) => {
            req.body = JSON.stringify({ inventoryItemId: ids[i++], depositAmount: 0, expiresAt });
            return req;
          },
        },
      ],
    },
    {
      onResponse: () => {
        last = performance.now();
        first ??= last;
      },
    },
  );
  assertAlive(app);
  const bad = problems(result);
  if (bad || result['2xx'] !== ids.length) throw new Error(`placing holds: ${bad || `${result['2xx']} of ${ids.length} placed`}`);
  const l = result.preciseLatency;
  const seconds = (last - t0) / 1000;
  return {
    holds: ids.length,
    seconds: round(seconds, 2),
    perSec: round(ids.length / seconds, 1),
    perSecFirstToLast: round((ids.length - 1) / ((last - first) / 1000), 1),
    latencyMs: { p50: round(l.p50, 2), p99: round(l.p99, 2) },
  };
}

/** Probes until the read models show no active hold and no reserved unit of the hold items. */
async function probe(app) {
  const card = `cardName=${encodeURIComponent(HOLD_CARD.cardName)}&setName=${encodeURIComponent(HOLD_CARD.setName)}`;
  const [active, reserved] = [
    await api(app, '/api/v1/holds?status=active&limit=1'),
    await api(app, `/api/v1/inventory?status=reserved&${card}&limit=1`),
  ];
  return { active: active.data.length, reserved: reserved.data.length };
}

export async function holdsScenario(app) {
  const failures = [];
  const n = settings.holds;
  const pilotN = settings.pilotHolds;
  const view = new LogView(app.dataDir);
  const { ids, timing: seeding } = await seedItems(app, pilotN + n, HOLD_CARD, 'hold items');
  const pilotIds = ids.slice(0, pilotN);
  const holdIds = ids.slice(pilotN);

  // Pilot: the rate at which holds are placed here, now (its first 40 % warm the path up, untimed).
  // Its holds expire PILOT_EXPIRY_MS after it starts, and have all expired before T.
  const pilotStart = Date.now();
  const pilotExpiresAt = new Date(pilotStart + PILOT_EXPIRY_MS).toISOString();
  const headBeforePilot = view.head();
  const warmN = Math.floor(pilotN * 0.4);
  await placeHolds(app, pilotIds.slice(0, warmN), pilotExpiresAt);
  const pilot = await placeHolds(app, pilotIds.slice(warmN), pilotExpiresAt);
  const estimate = n / pilot.perSecFirstToLast;
  const tMs = Math.max(Date.now() + Math.ceil((estimate * 1.1 + settings.holdsMarginSeconds) * 1000), pilotStart + PILOT_EXPIRY_MS + 2000);
  const T = new Date(tMs).toISOString();
  log(`holds: pilot ${pilotN} (${pilot.holds} timed at ${fmt(pilot.perSecFirstToLast, 0)}/s) → placing ${n} holds (≈ ${fmt(estimate, 1)} s), all expiring at T = ${T} (in ${fmt((tMs - Date.now()) / 1000, 1)} s)`);

  const placing = await placeHolds(app, holdIds, T);
  const slackSeconds = (tMs - Date.now()) / 1000;
  log(`holds: placed ${n} in ${placing.seconds} s (${fmt(placing.perSec, 0)}/s, p50 ${placing.latencyMs.p50} ms, p99 ${placing.latencyMs.p99} ms); T in ${fmt(slackSeconds, 1)} s`);
  if (slackSeconds < 1) throw new Error(`holds: placing ended ${fmt(-slackSeconds, 1)} s after T − 1 s (raise BENCH_HOLDS_MARGIN)`);

  // The probe must see something before T, or its emptiness after T would prove nothing.
  const before = await probe(app);
  if (!before.active || !before.reserved) throw new Error(`holds: before T the probe sees ${JSON.stringify(before)} (expected an active hold and a reserved item)`);
  // The pilot's expiries are in the log before T, so that everything after T is the N's.
  while (view.count('hold.expired', headBeforePilot) < pilotN && Date.now() < tMs - 300) await sleep(50);
  const pilotExpired = view.count('hold.expired', headBeforePilot);
  if (pilotExpired !== pilotN) throw new Error(`holds: only ${pilotExpired} of the ${pilotN} pilot holds expired by T − 0.3 s`);

  const headAtT0 = view.head();
  await sleep(Math.max(0, tMs - Date.now() - 500));
  const profiler = settings.profile ? await Profiler.connect(app.inspector) : null;
  if (profiler) await profiler.start();
  const sql0 = app.sql ? await app.sql.snapshot() : null;
  await sleep(Math.max(0, tMs - Date.now()));

  // From T: the probe, and the log beside it.
  const window = cpuWindow([app.child.pid]);
  const samples = [];
  const deadline = tMs + settings.holdsReleaseTimeoutSeconds * 1000;
  let releasedMs = null;
  let lastNonEmpty = null;
  for (;;) {
    const p0 = Date.now();
    const seen = await probe(app);
    const p1 = Date.now();
    const cp = view.checkpoints();
    samples.push({
      ms: p1 - tMs,
      probeMs: p1 - p0,
      activeHolds: seen.active > 0,
      reservedItems: seen.reserved > 0,
      expiredAppended: view.count('hold.expired', headAtT0),
      head: view.head() - headAtT0,
      minProjection: cp.min - headAtT0,
      timersProjection: cp.timers === null ? null : cp.timers - headAtT0,
    });
    if (!seen.active && !seen.reserved) {
      // All released between the previous probe (still holding) and this one's answer: its end is
      // the figure (an upper bound, within one poll interval + one probe of the true instant).
      releasedMs = p1 - tMs;
      break;
    }
    lastNonEmpty = p0 - tMs;
    if (Date.now() > deadline) break;
    await sleep(Math.max(0, settings.holdsPollMs - (Date.now() - p0)));
  }
  const machine = window();
  const sql = sql0 ? SqlWindow.diff(sql0, await app.sql.snapshot(), n, 25) : null;
  const profile = profiler ? await profiler.stop(`trading-holds-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`) : null;
  assertAlive(app);

  // The log: when each hold.expired / inventory.released was appended (after T: the pilot's came earlier).
  const appendsOf = (type) => {
    const times = view.appendTimes(type, headAtT0).map((t) => t - tMs);
    const p = percentiles([...times].sort((a, b) => a - b));
    const perSecond = [];
    for (const t of times) {
      const i = Math.max(0, Math.floor(t / 1000));
      while (perSecond.length <= i) perSecond.push(0);
      perSecond[i] += 1;
    }
    return { count: times.length, firstMs: p.samples ? Math.round(Math.min(...times)) : null, p50Ms: round(p.p50, 0), lastMs: p.samples ? Math.round(p.max) : null, perSecond };
  };
  const expired = appendsOf('hold.expired');
  const released = appendsOf('inventory.released');
  if (expired.count !== n) failures.push(`holds: ${expired.count} hold.expired appended after T, expected ${n}`);
  if (released.count !== n) failures.push(`holds: ${released.count} inventory.released appended after T, expected ${n}`);

  // Every hold expired, through the API: the pilot's and the N.
  let expiredListed = 0;
  let cursor = null;
  do {
    const page = await api(app, `/api/v1/holds?status=expired&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expiredListed += page.data.length;
    cursor = page.nextCursor;
  } while (cursor);
  if (expiredListed !== n + pilotN) failures.push(`holds: the API lists ${expiredListed} expired holds, expected ${n + pilotN}`);
  const sample = await api(app, `/api/v1/inventory/${holdIds[holdIds.length - 1]}`);
  if (sample.availableQuantity !== 1 || sample.reservedQuantity !== 0) failures.push(`holds: item ${sample.id} reads available ${sample.availableQuantity}, reserved ${sample.reservedQuantity}`);

  const met = releasedMs !== null && releasedMs <= settings.holdsTargetSeconds * 1000;
  if (releasedMs === null) failures.push(`holds: not all released ${settings.holdsReleaseTimeoutSeconds} s after T`);
  log(
    `holds: ${n} expiring at T all released (read models) ${releasedMs === null ? 'NOT within the time-out' : `${fmt(releasedMs / 1000, 2)} s after T`} ` +
      `(last probe still holding at ${fmt(lastNonEmpty / 1000, 2)} s); hold.expired appended ${expired.firstMs}–${expired.lastMs} ms after T; ` +
      `app ${fmt(machine.appCores, 2)} cores, others ${fmt(machine.otherCores, 2)} → target ≤ ${settings.holdsTargetSeconds} s ${met ? 'met' : 'MISSED'}`,
  );
  return {
    holds: n,
    T,
    seeding,
    pilot,
    placing: { ...placing, slackBeforeTSeconds: round(slackSeconds, 2) },
    release: {
      allReleasedAfterTMs: releasedMs,
      lastProbeStillHoldingMs: lastNonEmpty,
      resolutionMs: settings.holdsPollMs,
      targetSeconds: settings.holdsTargetSeconds,
      met,
      holdExpiredAppends: expired,
      inventoryReleasedAppends: released,
      projectionLagAfterLastAppendMs: releasedMs === null || expired.lastMs === null ? null : releasedMs - expired.lastMs,
      expiredListedByApi: expiredListed,
      machine,
      samples,
    },
    profile,
    // SQL of the window per hold expiry (BENCH_TRADING_SQL_TIMING=1): µs and calls per hold, by statement.
    sqlPerHold: sql,
    failures,
  };
}
