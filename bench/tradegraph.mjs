// `npm run bench:tradegraph`: the tradegraph routes (issue 16, item 8) at scale, against the real
// built app, beside the bare-Fastify baseline GET in the same run; and the rebuild rate of the
// tradegraph read models.
//
// Target: each of GET /api/v1/tradegraph/summary, /supply, /pricing and /routing answers with
// p99 < 50 ms for a workspace of 1,000,000 inventory items, 200,000 buyer requests and 100,000
// settled trades, seeded through the log.
//
// How:
// 1. the build is snapshotted (dist/ copied to a temp dir: a rebuild by someone else during the run
//    changes nothing measured); a fresh temp DATA_DIR; the bench workspace and a small second one
//    (realism: another workspace's rows in the same tables) with their keys, made by the real CLI;
// 2. the volumes seeded straight into the event log by bench/seed/seed-log.mjs: inventory.created
//    and buyer_request.created from the app's own deciders, interleaved, dated over the last
//    BENCH_TG_SPAN_DAYS days in log order; and the settled trades, each step through the app's own
//    trading write path (openTrade / decideOnTrade under handleCommands: inventory.reserved +
//    trade.initiated, paid, shipped, delivered, completed + inventory.sold, settled — see
//    bench/seed/seed-trades.mjs), each appended at its time among the creations;
// 3. the app started on it: its start-up catch-up timed (every projection, tradegraph among them,
//    applies the log in shared batches; reverse matching matches the seeded requests and items and
//    appends the matches, which the projections apply too), then a wait until the app is idle
//    (the other process managers — trust scoring, timers — done too);
// 4. real ids and names from the app's own list route (GET /api/v1/inventory: the newest available
//    items, then those of 30 of their cards, and sold ones); 20 sequential requests per route (the
//    time of one request on an idle server, and the route's own `tookMs`);
// 5. per route, an autocannon run (BENCH_WARMUP s warm-up, then BENCH_DURATION s × BENCH_CONNECTIONS
//    connections) over a deterministic mix of realistic query strings:
//      summary  windowDays 7 / 30 (or absent) / 90 × groupBy card / set
//      supply   windowDays 7 / 30 (or absent) / 90, staleDays 14 / 30 (or absent) / 60
//      pricing  windowDays × no filter (20 %) / card (40 %) / set (30 %) / card + condition (10 %),
//               names as the seeded items have them
//      routing  windowDays × a page of the longest-listed items (50 %) / one real item (50 %:
//               mostly available ones, some sold)
//    and the baseline (bench/baseline-server.mjs, 2,000 rows): GET /baseline/buyer-requests?limit=20
//    at the same settings, first. Per run: req/s, p50/p90/p99/max of the 2xx answers (exact, from
//    every answer), per query kind too, non-2xx (any fails the run), the app's CPU µs per request;
// 6. the app stopped, `projections rebuild tradegraph` run with the real CLI on the same DATA_DIR,
//    timed: events/s = events of the projection's types in the log ÷ seconds of the rebuild (the CLI's
//    own tookMs), and log events scanned/s;
// 7. bench/results/tradegraph-latest.json (BENCH_TG_OUT) and markdown tables on stdout.
//
// Env (defaults = the issue's volumes):
//   BENCH_TG_ITEMS 1000000, BENCH_TG_REQUESTS 200000, BENCH_TG_TRADES 100000   the bench workspace
//   BENCH_TG_OTHER_ITEMS 5000, BENCH_TG_OTHER_REQUESTS 1000, BENCH_TG_OTHER_TRADES 500   the second one
//   BENCH_TG_SPAN_DAYS 90          the seeded data's time span (ending at the seed's now)
//   BENCH_TG_SEED 1                generator seed
//   BENCH_DURATION 10, BENCH_CONNECTIONS 10, BENCH_WARMUP 3   autocannon per route
//   BENCH_TG_RATE 100              then a second run per route, open loop at this even rate (req/s; 0: none)
//   BENCH_TG_ONLY                  comma list of baseline,summary,supply,pricing,routing,rebuild (default all)
//   BENCH_TG_QUIET_WAIT 120 (s)    before each measured run, wait up to this long for a quiet machine
//   BENCH_TG_CATCHUP_TIMEOUT 14400 (s), BENCH_TG_REBUILD_TIMEOUT 3600 (s), BENCH_TIMEOUT 21600 (s)
//                                  (at the full volumes on 2 cores: seeding ≈ 4.5 min, the start-up catch-up
//                                  well over an hour — reverse matching matches the whole log — and the rebuild ≈ 15 min)
//   BENCH_TG_PROFILE               comma list of routes to CPU-profile during their measured run
//                                  (inspector, 500 µs sampling; summary in bench/results/tradegraph-<route>.profile.txt)
//                                  and/or `rebuild` (--cpu-prof of the CLI; bench/results/tradegraph-rebuild.profile.txt)
//   BENCH_TG_SQL_TIMING=1          time every SQLite call of the app (preload bench/sqlite-timing-window.mjs):
//                                  the SQL cost per request of each route, top statements (adds overhead)
//   BENCH_APP_NODE_OPTIONS         extra node flags for the app process
//   BENCH_APP_ROOT                 build to benchmark (a dir holding dist/ + node_modules/)
//   BENCH_TG_KEEP=1                keep the DATA_DIR (path printed) instead of deleting it
//   BENCH_TG_DATA_DIR              run on a DATA_DIR kept by an earlier run (no seeding; its projections
//                                  are caught up already, so no catch-up figure): for profiling iterations
//   BENCH_TG_OUT                   results file under bench/results/ (default tradegraph-latest.json)
//   BENCH_TG_API_ONLY=1            skip the start-up catch-up of everything else: the rebuild runs first
//                                  (it is the tradegraph read models built from the seeded log), then the
//                                  app starts with RUN_WORKERS=false — the API alone, no projection, process
//                                  manager or timer running — and the routes are loaded on what the rebuild
//                                  built; the sample of names and ids is read from those read models. What the
//                                  full volumes need on 2 cores: the start-up catch-up takes hours (reverse
//                                  matching matches the whole seeded log; trust scoring), none of which the
//                                  tradegraph reads depend on.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

import { cpuSecondsOf, expectJson, fmt, gitCommit, intEnv, runMain, UNLIMITED_RATE_LIMITS } from './lib/common.mjs';
import { children, cleanup, cleanupOnExit, keepTempDirs, snapshotBuild, tempDir } from './lib/resources.mjs';
import { startAndCatchUp } from './scale/app.mjs';
import { LogWatch } from './scale/catch-up.mjs';
import { settings as scaleSettings } from './scale/config.mjs';
import { Profiler, SqlWindow } from './scale/instruments.mjs';
import { bodyStream, openLoop, percentiles } from './scale/load.mjs';
import { createWorkspace, runNode, startServer, stopServer } from './scale/processes.mjs';
import { distHash, uncommitted } from './scale/report.mjs';
import { awaitQuiet, dirSizes, memoryOf } from './scale/system.mjs';
import { createGenerator, loadCatalog, prng } from './seed/generator.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const SOURCE_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
const RESULTS_DIR = join(BENCH_DIR, 'results');
const SEEDER = join(BENCH_DIR, 'seed', 'seed-log.mjs');
const BASELINE_MAIN = join(BENCH_DIR, 'baseline-server.mjs');
const PROFILE_SUMMARY = join(BENCH_DIR, 'profile-summary.mjs');
const ROUTES = ['summary', 'supply', 'pricing', 'routing'];
const PARTS = ['baseline', ...ROUTES, 'rebuild'];
const TARGET_P99_MS = 50;

const list = (name) => (process.env[name] ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
const flag = (name) => ['1', 'true', 'yes'].includes((process.env[name] ?? '').toLowerCase());
const only = list('BENCH_TG_ONLY');
for (const p of only) if (!PARTS.includes(p)) throw new Error(`BENCH_TG_ONLY: unknown part "${p}" (${PARTS.join(', ')})`);
const profile = list('BENCH_TG_PROFILE');
for (const p of profile) if (![...ROUTES, 'rebuild'].includes(p)) throw new Error(`BENCH_TG_PROFILE: unknown "${p}" (${[...ROUTES, 'rebuild'].join(', ')})`);

const settings = {
  items: intEnv('BENCH_TG_ITEMS', 1_000_000, 1),
  requests: intEnv('BENCH_TG_REQUESTS', 200_000),
  trades: intEnv('BENCH_TG_TRADES', 100_000),
  otherItems: intEnv('BENCH_TG_OTHER_ITEMS', 5_000),
  otherRequests: intEnv('BENCH_TG_OTHER_REQUESTS', 1_000),
  otherTrades: intEnv('BENCH_TG_OTHER_TRADES', 500),
  spanDays: intEnv('BENCH_TG_SPAN_DAYS', 90, 1),
  seed: intEnv('BENCH_TG_SEED', 1),
  durationSeconds: intEnv('BENCH_DURATION', 10, 1),
  connections: intEnv('BENCH_CONNECTIONS', 10, 1),
  // A second measured run per route at a fixed overall rate (req/s; 0: none) — the latency a
  // dashboard's reads see on a loaded but not saturated API (the first run saturates the thread).
  rate: intEnv('BENCH_TG_RATE', 100, 0),
  warmupSeconds: intEnv('BENCH_WARMUP', 3, 0),
  parts: only.length ? PARTS.filter((p) => only.includes(p)) : PARTS,
  baselineRows: 2_000,
  quietWaitSeconds: intEnv('BENCH_TG_QUIET_WAIT', 120),
  catchUpTimeoutSeconds: intEnv('BENCH_TG_CATCHUP_TIMEOUT', 14_400, 10),
  rebuildTimeoutSeconds: intEnv('BENCH_TG_REBUILD_TIMEOUT', 3600, 10),
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 21_600, 60),
  profile,
  sqlTiming: flag('BENCH_TG_SQL_TIMING'),
  appNodeOptions: process.env.BENCH_APP_NODE_OPTIONS ?? '',
  appRoot: SOURCE_ROOT,
  keep: flag('BENCH_TG_KEEP'),
  reuseDir: process.env.BENCH_TG_DATA_DIR ? resolve(process.env.BENCH_TG_DATA_DIR) : null,
  apiOnly: process.env.BENCH_TG_API_ONLY === '1',
  out: process.env.BENCH_TG_OUT || 'tradegraph-latest.json',
  targetP99Ms: TARGET_P99_MS,
  pipelining: 1,
};
if (settings.trades > settings.items || settings.otherTrades > settings.otherItems) throw new Error('BENCH_TG_*TRADES: a trade needs an item of its own (trades ≤ items)');

// The scale bench's start-up catch-up (scale/app.mjs) reads these from its own settings.
Object.assign(scaleSettings, {
  sqlTiming: settings.sqlTiming,
  appNodeOptions: settings.appNodeOptions,
  catchUpTimeoutSeconds: settings.catchUpTimeoutSeconds,
});

const started = Date.now();
const log = (msg) => process.stderr.write(`[tradegraph +${((Date.now() - started) / 1000).toFixed(0)}s] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n, digits = 2) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null);
keepTempDirs((dir) => settings.keep && dir.includes('tg-data-'));
cleanupOnExit(log);

// ---------------------------------------------------------------------------------------------
// Seeding.

async function seed(appRoot) {
  const dataDir = tempDir('tg-data-');
  const bench = await createWorkspace(appRoot, dataDir, 'tg-bench');
  const other = settings.otherItems + settings.otherRequests > 0 ? await createWorkspace(appRoot, dataDir, 'tg-other') : null;
  writeFileSync(join(dataDir, 'tg-bench.json'), JSON.stringify({ bench, other }));
  const plan = {
    dataDir,
    appRoot,
    spanDays: settings.spanDays,
    workspaces: [
      ...(other
        ? [{ workspaceId: other.id, actor: 'bench:seed', items: settings.otherItems, requests: settings.otherRequests, trades: settings.otherTrades, seed: settings.seed + 100, interleave: true }]
        : []),
      { workspaceId: bench.id, actor: 'bench:seed', items: settings.items, requests: settings.requests, trades: settings.trades, seed: settings.seed, interleave: true },
    ],
  };
  log(
    `seeding ${settings.items} items, ${settings.requests} requests, ${settings.trades} settled trades` +
      (other ? ` (+ ${settings.otherItems} / ${settings.otherRequests} / ${settings.otherTrades} in a second workspace)` : '') +
      ` over ${settings.spanDays} days into ${dataDir} …`,
  );
  const t0 = performance.now();
  const { stdout } = await runNode([SEEDER, JSON.stringify(plan)], { timeoutMs: settings.catchUpTimeoutSeconds * 1000, env: { SCALE_STREAM_STDERR: '1' } });
  const summary = JSON.parse(stdout.trim().split('\n').pop());
  summary.wallSeconds = (performance.now() - t0) / 1000;
  summary.dataDirMiB = dirSizes(dataDir);
  log(`seeded ${summary.events} events in ${fmt(summary.seconds, 1)} s (${fmt(summary.eventsPerSecond, 0)} events/s; trade steps ${fmt(summary.tradeStepsMs / 1000, 1)} s of it)`);
  return { dataDir, bench, other, seeding: summary };
}

/** The event types the tradegraph projection consumes, from the build measured. */
function tradegraphTypes(appRoot) {
  const require = createRequire(join(appRoot, 'package.json'));
  require('reflect-metadata');
  const { tradegraphProjection } = require(join(appRoot, 'dist/libs/tradegraph/src/tradegraph.projection.js'));
  return { name: tradegraphProjection.name, version: tradegraphProjection.version, eventTypes: [...tradegraphProjection.eventTypes] };
}

function countEvents(watch, types, afterPosition = 0) {
  const byType = watch.events.prepare('SELECT type, count(*) AS n FROM events WHERE position > ? GROUP BY type ORDER BY n DESC').all(afterPosition);
  const all = byType.reduce((s, r) => s + r.n, 0);
  const ofProjection = byType.filter((r) => types.includes(r.type)).reduce((s, r) => s + r.n, 0);
  return { all, ofProjection, byType: Object.fromEntries(byType.map((r) => [r.type, r.n])) };
}

/** After the catch-up: until the app uses < 5 % of a core over 3 s with the log's head still (other process managers, timers). */
async function awaitAppIdle(app, watch, maxSeconds = 600) {
  const t0 = performance.now();
  for (;;) {
    const c0 = cpuSecondsOf(app.child.pid);
    const h0 = watch.head();
    await sleep(3000);
    const cores = (cpuSecondsOf(app.child.pid) - c0) / 3;
    const h1 = watch.head();
    const waited = (performance.now() - t0) / 1000;
    if ((cores < 0.05 && h1 === h0) || waited > maxSeconds) {
      return { afterMs: Math.round(performance.now() - t0), appCores: round(cores, 3), head: h1, idle: cores < 0.05 && h1 === h0 };
    }
  }
}

/** The process managers' checkpoints: in eventual.db, or in read.db for a build from before it. */
function processManagerCheckpoints(dataDir) {
  const found = {};
  for (const file of ['read.db', 'eventual.db']) {
    if (!existsSync(join(dataDir, file))) continue;
    const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
    try {
      for (const r of db.prepare("SELECT id, json_extract(doc, '$.position') AS p FROM c_process_manager_checkpoints").all()) found[r.id] = Math.max(found[r.id] ?? 0, r.p);
    } catch {
      // no such table in this file
    } finally {
      db.close();
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// What the load asks: real ids and names, and the query mixes.

async function sampleCatalogue(app, headers) {
  const get = (path) => expectJson(`${app.url}${path}`, { headers }, 200, 60_000);
  const newest = (await get('/api/v1/inventory?status=available&limit=100')).data;
  if (newest.length === 0) throw new Error('no available item in the bench workspace');
  const cardsSeen = [];
  for (const it of newest) if (!cardsSeen.some((c) => c.cardName === it.cardName && c.setName === it.setName)) cardsSeen.push({ cardName: it.cardName, setName: it.setName });
  const cards = cardsSeen.slice(0, 30);
  const available = [...newest];
  for (const c of cards) {
    const page = await get(`/api/v1/inventory?status=available&limit=20&cardName=${encodeURIComponent(c.cardName)}&setName=${encodeURIComponent(c.setName)}`);
    for (const it of page.data) if (!available.some((a) => a.id === it.id)) available.push(it);
  }
  const sold = (await get('/api/v1/inventory?status=sold&limit=50')).data;
  const conditions = [...new Set(available.map((i) => i.condition))];
  const sets = [...new Set(available.map((i) => i.setName))];
  return {
    available: available.map((i) => ({ id: i.id, cardName: i.cardName, setName: i.setName, condition: i.condition })),
    sold: sold.map((i) => ({ id: i.id })),
    cards: available.map((i) => ({ cardName: i.cardName, setName: i.setName, condition: i.condition })),
    sets,
    conditions,
  };
}

const qs = (params) => {
  const parts = Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
};

/** A window: 7, 30 (half the time left to the default) or 90 days. */
function windowParam(rnd) {
  const w = [7, 30, 90][Math.floor(rnd() * 3)];
  return w === 30 && rnd() < 0.5 ? undefined : w;
}

/** Per route, a function giving the next {variant, path} of a deterministic mix. */
function queryMix(route, sample, seed) {
  const rnd = prng(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const base = `/api/v1/tradegraph/${route}`;
  switch (route) {
    case 'summary':
      return () => {
        const groupBy = rnd() < 0.5 ? 'card' : 'set';
        return { variant: `groupBy=${groupBy}`, path: base + qs({ windowDays: windowParam(rnd), groupBy: groupBy === 'card' && rnd() < 0.5 ? undefined : groupBy }) };
      };
    case 'supply':
      return () => {
        const windowDays = windowParam(rnd);
        const staleDays = pick([14, 30, 60, undefined]);
        return { variant: `windowDays=${windowDays ?? 30}`, path: base + qs({ windowDays, staleDays }) };
      };
    case 'pricing':
      return () => {
        const x = rnd();
        const c = pick(sample.cards);
        if (x < 0.2) return { variant: 'no filter', path: base + qs({ windowDays: windowParam(rnd) }) };
        if (x < 0.6) return { variant: 'card', path: base + qs({ windowDays: windowParam(rnd), card: rnd() < 0.2 ? c.cardName.toLowerCase() : c.cardName }) };
        if (x < 0.9) return { variant: 'set', path: base + qs({ windowDays: windowParam(rnd), set: pick(sample.sets) }) };
        return { variant: 'card + condition', path: base + qs({ windowDays: windowParam(rnd), card: c.cardName, condition: c.condition }) };
      };
    case 'routing':
      return () => {
        if (rnd() < 0.5) return { variant: 'page', path: base + qs({ windowDays: windowParam(rnd) }) };
        const item = sample.sold.length > 0 && rnd() < 0.1 ? pick(sample.sold) : pick(sample.available);
        return { variant: 'one item', path: base + qs({ windowDays: windowParam(rnd), inventoryItemId: item.id }) };
      };
    default:
      throw new Error(`no query mix for ${route}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Load.

/** One closed-loop autocannon run over `next()`'s paths; every answer's status and time, per variant. */
function cannon(url, headers, next, { duration, connections }) {
  return new Promise((res, rej) => {
    const times = [];
    const byVariant = {};
    const statuses = {};
    let bytes = 0;
    const first = next();
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        pipelining: settings.pipelining,
        timeout: 10,
        requests: [
          {
            method: 'GET',
            path: first.path,
            headers,
            setupRequest: (req, context) => {
              const q = next();
              context.variant = q.variant;
              req.path = q.path;
              return req;
            },
          },
        ],
      },
      (err, result) => (err ? rej(err) : res({ result, times, byVariant, statuses, bytes })),
    );
    instance.on('response', (client, status, resBytes, ms) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      bytes += resBytes;
      if (status < 200 || status >= 300) return;
      times.push(ms);
      // The variant of the request answered (autocannon keeps the request's context until the next is built).
      const v = client.requestIterator?.context?.variant ?? 'unknown';
      (byVariant[v] ??= []).push(ms);
    });
  });
}

/**
 * Open loop at an even `rate` (bench/scale/load.mjs: latency from each request's due time; autocannon's
 * `overallRate` sends each second's quota as one burst), in cannon()'s shape.
 */
async function paced(url, headers, next, rate) {
  const r = await openLoop({ url, headers }, { rate, durationSeconds: settings.durationSeconds, connections: settings.connections, nextRequest: () => ({ method: 'GET', ...next() }), raw: true });
  return {
    result: { requests: { total: r.requestsTotal }, duration: r.duration, non2xx: r.non2xx, errors: r.errors, timeouts: 0 },
    times: r.latencies,
    byVariant: r.byVariant,
    statuses: r.statusCodes,
    bytes: r.bytes,
  };
}

function problemsOf(run) {
  const bad = Object.entries(run.statuses).filter(([s]) => !s.startsWith('2')).map(([s, n]) => `${n} × HTTP ${s}`);
  if (run.result.errors) bad.push(`${run.result.errors} socket errors`);
  if (run.result.timeouts) bad.push(`${run.result.timeouts} timeouts`);
  return bad.join(', ');
}

const latency = (sorted) => {
  const p = percentiles(sorted);
  return { samples: p.samples, mean: round(p.mean), p50: round(p.p50), p90: round(p.p90), p99: round(p.p99), max: round(p.max) };
};

/** Warm-up, quiet wait, then the measured run of one route (or the baseline), with the server's CPU (and profile / SQL) beside it. */
async function measure(label, server, headers, nextFor, { profileName, sql, rate = 0 } = {}) {
  const failures = [];
  if (settings.warmupSeconds > 0) {
    const warm = await cannon(server.url, headers, nextFor(1), { duration: settings.warmupSeconds, connections: settings.connections });
    const bad = problemsOf(warm);
    if (bad) failures.push(`${label} (warm-up): ${bad}`);
  }
  const quiet = await awaitQuiet(label, [server.child.pid], settings.quietWaitSeconds);
  log(`${label}: ${settings.durationSeconds} s × ${settings.connections} connections${rate ? ` at ${rate} req/s` : ''} …`);
  const profiler = profileName ? await Profiler.connect(server.inspector) : null;
  if (profiler) await profiler.start();
  const sql0 = sql ? await sql.snapshot() : null;
  const cpu0 = cpuSecondsOf(server.child.pid);
  const gen0 = process.cpuUsage();
  const wall0 = performance.now();
  const run = rate > 0 ? await paced(server.url, headers, nextFor(2), rate) : await cannon(server.url, headers, nextFor(2), { duration: settings.durationSeconds, connections: settings.connections });
  const wall = (performance.now() - wall0) / 1000;
  const cpu = cpuSecondsOf(server.child.pid) - cpu0;
  const gen = process.cpuUsage(gen0);
  const sqlPerRequest = sql ? SqlWindow.diff(sql0, await sql.snapshot(), Math.max(1, run.times.length), 12) : null;
  const prof = profiler ? await profiler.stop(profileName) : null;
  const bad = problemsOf(run);
  if (bad) failures.push(`${label}: ${bad}`);
  if (server.child.exitCode !== null || server.child.signalCode !== null) failures.push(`${label}: the server exited (${server.child.exitCode ?? server.child.signalCode})`);
  run.times.sort((a, b) => a - b);
  const ok = run.times.length;
  const out = {
    label,
    reqPerSec: round(run.result.requests.total / run.result.duration, 1),
    requests: run.result.requests.total,
    ok2xx: ok,
    non2xx: run.result.non2xx,
    errors: run.result.errors,
    timeouts: run.result.timeouts,
    statuses: run.statuses,
    latencyMs: latency(run.times),
    byQuery: Object.fromEntries(
      Object.entries(run.byVariant)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([v, ts]) => [v, latency(ts.sort((a, b) => a - b))]),
    ),
    meanResponseKiB: round(run.bytes / Math.max(1, run.result.requests.total) / 1024, 1),
    serverCpuUsPerRequest: round((cpu * 1e6) / Math.max(1, ok), 0),
    serverCpuCores: round(cpu / wall),
    loadGeneratorCpuCores: round((gen.user + gen.system) / 1e6 / wall),
    durationSeconds: run.result.duration,
    quietBefore: quiet,
    failures,
    ...(sqlPerRequest ? { sqlPerRequest } : {}),
    ...(prof ? { profile: { cpuprofile: prof.file, summary: prof.summary } } : {}),
  };
  log(`${label}: ${fmt(out.reqPerSec, 1)} req/s, p50 ${fmt(out.latencyMs.p50, 2)} ms, p99 ${fmt(out.latencyMs.p99, 2)} ms, max ${fmt(out.latencyMs.max, 1)} ms, ${out.serverCpuUsPerRequest} µs CPU/req${bad ? `  !! ${bad}` : ''}`);
  return out;
}

/** One request at a time on the idle app: its time and the route's own tookMs, per query kind. */
async function sequential(app, headers, next, n = 20) {
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const q = next();
    const t0 = performance.now();
    const res = await fetch(`${app.url}${q.path}`, { headers, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`GET ${q.path} → ${res.status}: ${text.slice(0, 500)}`);
    const body = JSON.parse(text);
    rows.push({ variant: q.variant, ms, tookMs: body.tookMs, kiB: text.length / 1024, entries: (body.clusters ?? body.cards ?? body.items ?? []).length });
  }
  const by = {};
  for (const r of rows) (by[r.variant] ??= []).push(r);
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  return {
    requests: n,
    clientMs: latency(sorted(rows.map((r) => r.ms))),
    tookMs: latency(sorted(rows.map((r) => r.tookMs))),
    byQuery: Object.fromEntries(
      Object.entries(by).map(([v, rs]) => [v, { n: rs.length, clientMsMedian: round(sorted(rs.map((r) => r.ms))[rs.length >> 1]), tookMsMedian: round(sorted(rs.map((r) => r.tookMs))[rs.length >> 1]), kiBMedian: round(sorted(rs.map((r) => r.kiB))[rs.length >> 1], 1), entriesMedian: sorted(rs.map((r) => r.entries))[rs.length >> 1] }]),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Rebuild.

/** `projections rebuild tradegraph` with the real CLI on the stopped app's DATA_DIR, timed, with its progress and memory. */
async function rebuild(appRoot, dataDir, watch, projection) {
  const profDir = settings.profile.includes('rebuild') ? tempDir('tg-rebuild-prof-') : null;
  const args = [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), join(appRoot, 'dist/apps/cli/src/main.js'), 'projections', 'rebuild', projection.name];
  const head = watch.head();
  const consumed = countEvents(watch, projection.eventTypes);
  log(`rebuild: ${args.slice(-3).join(' ')} over ${head} events (${consumed.ofProjection} of its types) …`);
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  let peakRssMiB = 0;
  const samples = [];
  let lastLog = 0;
  const sampler = setInterval(() => {
    const m = memoryOf(child.pid);
    if (Number.isFinite(m.peakRssMiB)) peakRssMiB = Math.max(peakRssMiB, m.peakRssMiB);
    const position = watch.checkpoints().projections[projection.name] ?? null;
    const ms = Math.round(performance.now() - t0);
    samples.push([ms, position]);
    if (ms - lastLog >= 30_000) {
      lastLog = ms;
      log(`rebuild: ${position ?? '?'} / ${head} after ${fmt(ms / 1000, 0)} s, CLI CPU ${fmt(cpuSecondsOf(child.pid), 0)} s, RSS ${m.rssMiB} MiB`);
    }
  }, 1000);
  const timer = setTimeout(() => child.kill('SIGKILL'), settings.rebuildTimeoutSeconds * 1000);
  const { code, signal } = await new Promise((r) => child.once('exit', (c, s) => r({ code: c, signal: s })));
  clearInterval(sampler);
  clearTimeout(timer);
  children.delete(child);
  const wallMs = performance.now() - t0;
  if (code !== 0) throw new Error(`rebuild exited ${code ?? signal}: ${stderr.slice(-2000)}`);
  const answer = JSON.parse(stdout);
  const status = answer.projections.find((p) => p.name === projection.name);
  if (!status || status.lag !== 0) throw new Error(`after the rebuild, ${projection.name} is not at the head: ${JSON.stringify(status)}`);
  const seconds = answer.tookMs / 1000;
  let profileSummary = null;
  if (profDir) {
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const { stdout: summary } = await runNode([PROFILE_SUMMARY, join(profDir, file), '30'], { timeoutMs: 300_000 });
      profileSummary = join(RESULTS_DIR, 'tradegraph-rebuild.profile.txt');
      writeFileSync(profileSummary, summary);
      profileSummary = profileSummary.slice(ROOT.length + 1);
    }
  }
  const out = {
    command: `DATA_DIR=<dir> node dist/apps/cli/src/main.js projections rebuild ${projection.name}`,
    projection: { name: projection.name, version: projection.version },
    logEvents: head,
    eventsOfItsTypes: consumed.ofProjection,
    cliTookMs: answer.tookMs,
    wallMs: Math.round(wallMs),
    eventsPerSecond: round(consumed.ofProjection / seconds, 0),
    logEventsScannedPerSecond: round(head / seconds, 0),
    cliPeakRssMiB: peakRssMiB || null,
    progress: samples.filter((_, i) => i % 10 === 0),
    progressFormat: '[ms since spawn, tradegraph checkpoint] every 10 s (0 until the first batch commits: a reset clears the documents first)',
    ...(profileSummary ? { profile: profileSummary } : {}),
  };
  log(`rebuild: ${fmt(seconds, 1)} s (CLI tookMs; ${fmt(wallMs / 1000, 1)} s wall with the CLI's start) — ${fmt(out.eventsPerSecond, 0)} events/s of its types, ${fmt(out.logEventsScannedPerSecond, 0)} log events/s, peak RSS ${peakRssMiB} MiB`);
  return out;
}

// ---------------------------------------------------------------------------------------------

function commandLine() {
  const envs = Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')).map(([k, v]) => `${k}=${v}`);
  return [...envs, process.env.npm_lifecycle_event === 'bench:tradegraph' ? 'npm run bench:tradegraph' : 'node bench/tradegraph.mjs'].join(' ');
}

function printReport(report) {
  const lines = [];
  const s = report.seeding;
  const c = report.catchUp;
  lines.push(`Tradegraph bench ${report.date} · node ${report.node} · ${report.machine.cpuModel} × ${report.machine.cpus} · app ${report.appCommit} · dist ${report.appBuild.sha256}`);
  lines.push('');
  if (s?.events) {
    lines.push(
      `Workspace: ${settings.items.toLocaleString('en')} items, ${settings.requests.toLocaleString('en')} buyer requests, ${settings.trades.toLocaleString('en')} settled trades over ${settings.spanDays} days ` +
        `(+ ${settings.otherItems} / ${settings.otherRequests} / ${settings.otherTrades} in a second workspace) — seeded ${s.events.toLocaleString('en')} events in ${fmt(s.seconds, 1)} s (${fmt(s.eventsPerSecond, 0)} events/s).`,
    );
  } else if (s?.reused) lines.push(`Workspace: reused ${s.reused} (no seeding).`);
  if (c?.skipped) lines.push(`Start-up catch-up: skipped — ${c.skipped}.`);
  else if (c) {
    lines.push(
      `Start-up catch-up: ${c.eventsApplied.toLocaleString('en')} events (${c.eventsAppendedByApp.toLocaleString('en')} of them appended by the app meanwhile: matches, trust) by every projection in ${fmt(c.projectionsCaughtUpMs / 1000, 1)} s = ` +
        `${fmt(c.eventsPerSecond, 0)} events/s (${fmt(c.tradegraphTypedEventsPerSecond, 0)} events/s of tradegraph's types); reverse matching ${fmt(c.processManagerCaughtUpMs / 1000, 1)} s; idle after ${fmt(c.idle.afterMs / 1000, 1)} s more; peak RSS ${c.memory?.peakRssMiB} MiB.`,
    );
  }
  const z = report.sanity;
  if (z) {
    lines.push(
      `Sanity (GET supply?windowDays=${z.windowDays}): ${z.tradegraph.soldUnits} units sold` +
        (z.seededUnitsSold === null ? '' : ` (the seed sold ${z.seededUnitsSold}: ${z.soldUnitsAgree ? 'agree' : '**differ**'})`) +
        `, ${z.tradegraph.availableUnits} available, ${z.tradegraph.listedUnits} listed.`,
    );
  }
  const r = report.rebuild;
  if (r) {
    lines.push(
      `Rebuild (\`projections rebuild ${r.projection.name}\`, CLI, app stopped): ${r.eventsOfItsTypes.toLocaleString('en')} events of its types (${r.logEvents.toLocaleString('en')} in the log) in ${fmt(r.cliTookMs / 1000, 1)} s = ` +
        `**${fmt(r.eventsPerSecond, 0)} events/s** (${fmt(r.logEventsScannedPerSecond, 0)} log events/s scanned); peak RSS ${r.cliPeakRssMiB} MiB.`,
    );
  }
  lines.push('');
  lines.push(`| GET, ${settings.connections} connections, ${settings.durationSeconds} s | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | KiB/answer | app CPU µs/req | target | met? |`);
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
  for (const [name, m] of Object.entries(report.load)) {
    const target = name === 'baseline' ? '—' : `p99 < ${TARGET_P99_MS} ms`;
    const met = name === 'baseline' ? '—' : m.target.met ? 'yes' : '**no**';
    lines.push(`| ${m.label} | ${fmt(m.reqPerSec, 0)} | ${fmt(m.latencyMs.p50, 2)} | ${fmt(m.latencyMs.p90, 2)} | ${fmt(m.latencyMs.p99, 2)} | ${fmt(m.latencyMs.max, 1)} | ${m.non2xx} | ${fmt(m.meanResponseKiB, 1)} | ${m.serverCpuUsPerRequest} | ${target} | ${met} |`);
  }
  if (report.loadAtRate) {
    lines.push('', `| GET at ${settings.rate} req/s (open loop, evenly spaced, ≤ ${settings.connections} connections), ${settings.durationSeconds} s | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | app CPU µs/req | p99 < ${TARGET_P99_MS} ms |`);
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const m of Object.values(report.loadAtRate)) {
      lines.push(`| ${m.label} | ${fmt(m.reqPerSec, 0)} | ${fmt(m.latencyMs.p50, 2)} | ${fmt(m.latencyMs.p90, 2)} | ${fmt(m.latencyMs.p99, 2)} | ${fmt(m.latencyMs.max, 1)} | ${m.non2xx} | ${m.serverCpuUsPerRequest} | ${m.target.met ? 'yes' : '**no**'} |`);
    }
  }
  lines.push('');
  lines.push('| route: query kind | answers | p50 ms | p99 ms | max ms | alone: client ms (median) | alone: tookMs (median) | entries |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, m] of Object.entries(report.load)) {
    if (name === 'baseline') continue;
    const seq = report.sequential?.[name]?.byQuery ?? {};
    for (const [v, l] of Object.entries(m.byQuery)) {
      lines.push(`| ${name}: ${v} | ${l.samples} | ${fmt(l.p50, 2)} | ${fmt(l.p99, 2)} | ${fmt(l.max, 1)} | ${fmt(seq[v]?.clientMsMedian, 2)} | ${fmt(seq[v]?.tookMsMedian, 2)} | ${seq[v]?.entriesMedian ?? 'n/a'} |`);
    }
  }
  if (report.failures.length) lines.push('', `FAILURES: ${report.failures.join('; ')}`);
  lines.push('', `results: bench/results/${settings.out} (total ${report.totalSeconds} s)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:tradegraph puts it on PATH)`);
  const loadBefore = loadavg();
  const appRoot = snapshotBuild(SOURCE_ROOT, 'tg-app-', ['dist/apps/api/src/main.js', 'dist/apps/cli/src/main.js', 'dist/libs/tradegraph/src/tradegraph.projection.js']);
  const projection = tradegraphTypes(appRoot);
  log(`settings: ${JSON.stringify({ ...settings, appRoot: undefined })}; build of ${SOURCE_ROOT} copied to ${appRoot}; results → bench/results/${settings.out}`);
  const report = {
    date: new Date().toISOString(),
    command: commandLine(),
    node: process.versions.node,
    appCommit: gitCommit(SOURCE_ROOT, { countPaths: true }),
    appUncommittedSources: uncommitted(SOURCE_ROOT),
    appBuild: distHash(appRoot),
    machine: { cpuModel: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${platform()} ${release()}`, memGiB: round(totalmem() / 2 ** 30, 1), loadavgBefore: loadBefore.map((x) => round(x)) },
    settings: { ...settings, appRoot: SOURCE_ROOT },
    target: `each tradegraph route p99 < ${TARGET_P99_MS} ms (2xx answers; any non-2xx fails)`,
    projection,
    load: {},
    failures: [],
    ok: true,
  };
  const write = () => {
    report.totalSeconds = round((Date.now() - started) / 1000, 1);
    report.machine.loadavgAfter = loadavg().map((x) => round(x));
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, settings.out), `${JSON.stringify(report, null, 2)}\n`);
  };

  // 1-2. The data.
  let dataDir;
  let bench;
  let other;
  if (settings.reuseDir) {
    dataDir = settings.reuseDir;
    ({ bench, other } = JSON.parse(readFileSync(join(dataDir, 'tg-bench.json'), 'utf8')));
    report.seeding = { reused: dataDir };
    log(`reusing ${dataDir} (no seeding)`);
  } else {
    const seeded = await seed(appRoot);
    ({ dataDir, bench, other } = seeded);
    report.seeding = seeded.seeding;
    write();
  }
  report.workspaces = { bench: bench.id, other: other?.id ?? null };

  // 3. The app, its start-up catch-up, then idle (API only: the rebuild first, then the app without workers).
  const inspect = settings.profile.some((p) => ROUTES.includes(p));
  if (settings.apiOnly) {
    await apiOnly({ appRoot, dataDir, bench, report, write, inspect, projection });
    return;
  }
  const { app, watch, catchUp } = await startAndCatchUp('tradegraph', appRoot, dataDir, inspect);
  const applied = watch.head() - catchUp.startMinProjection;
  const typed = countEvents(watch, projection.eventTypes, catchUp.startMinProjection);
  const idle = await awaitAppIdle(app, watch);
  report.catchUp = {
    ...catchUp,
    eventsApplied: applied,
    eventsAppendedByApp: watch.head() - catchUp.logEventsAtStart,
    eventsPerSecond: round(applied / (catchUp.projectionsCaughtUpMs / 1000), 0),
    tradegraphTypedEvents: typed.ofProjection,
    tradegraphTypedEventsPerSecond: round(typed.ofProjection / (catchUp.projectionsCaughtUpMs / 1000), 0),
    note: 'every projection applies the same batches in one transaction each: the rate is that of all of them together; `rebuild` isolates tradegraph',
    idle,
    processManagerCheckpoints: processManagerCheckpoints(dataDir),
    logByType: typed.byType,
    dataDirMiB: dirSizes(dataDir),
  };
  log(`caught up: ${applied} events in ${fmt(catchUp.projectionsCaughtUpMs / 1000, 1)} s (${fmt(report.catchUp.eventsPerSecond, 0)} events/s); idle ${fmt(idle.afterMs / 1000, 1)} s later (${idle.idle ? 'idle' : `still ${idle.appCores} cores`})`);
  write();

  const headers = { authorization: `Bearer ${bench.apiKey}`, accept: 'application/json' };
  try {
    // Does tradegraph count what was seeded? The workspace's units sold over the whole span.
    const all = Math.min(365, settings.spanDays + 1);
    const supply = await expectJson(`${app.url}/api/v1/tradegraph/supply?windowDays=${all}&limit=1`, { headers }, 200, 120_000);
    const seededUnits = report.seeding.trades?.byWorkspace?.[bench.id]?.units ?? null;
    const w = supply.workspace;
    report.sanity = {
      windowDays: all,
      tradegraph: { availableUnits: w.availableUnits, listedUnits: w.listedUnits, soldUnits: w.soldUnits, sellThrough: w.sellThrough, stockValue: w.stockValue },
      seededUnitsSold: seededUnits,
      soldUnitsAgree: seededUnits === null ? null : w.soldUnits === seededUnits,
    };
    log(`sanity: tradegraph counts ${w.soldUnits} units sold in ${all} days` + (seededUnits === null ? '' : ` — the seed sold ${seededUnits}${w.soldUnits === seededUnits ? '' : '  !! they differ'}`) + `; ${w.availableUnits} available, ${w.listedUnits} listed`);
    // 4. Real ids and names; one request at a time.
    const sample = await sampleCatalogue(app, headers);
    report.sample = { availableItems: sample.available.length, soldItems: sample.sold.length, cards: new Set(sample.cards.map((c) => `${c.cardName}|${c.setName}`)).size, sets: sample.sets.length, conditions: sample.conditions };
    await loadRoutes({ app, headers, sample, report, write, sql: app.sql });
  } finally {
    await stopServer(app);
  }

  // 6. The rebuild, the app stopped.
  if (settings.parts.includes('rebuild')) {
    report.rebuild = await rebuild(appRoot, dataDir, watch, projection);
    write();
  }
  watch.events.close();
  watch.reads?.close();
  if (settings.keep && !settings.reuseDir) report.dataDir = dataDir;
  finish(report, write);
}

/** Which routes met the target; the report written and printed; a failed run throws. */
function finish(report, write) {
  const missed = Object.entries(report.load).filter(([k, m]) => k !== 'baseline' && !m.target.met).map(([k]) => k);
  report.summary = {
    routesMeetingTarget: Object.keys(report.load).filter((k) => k !== 'baseline' && !missed.includes(k)),
    routesMissingTarget: missed,
  };
  if (report.failures.length > 0) report.ok = false;
  write();
  printReport(report);
  if (!report.ok) throw new Error(`failures:\n  ${report.failures.join('\n  ')}`);
}

/** The bare-Fastify baseline (bench/baseline-server.mjs), seeded with BENCH rows of buyer requests. */
async function startBaseline() {
  const baseline = await startServer('baseline', [BASELINE_MAIN], { DATA_DIR: tempDir('tg-baseline-') });
  const gen = createGenerator(loadCatalog(), { seed: settings.seed + 42 });
  const next = bodyStream(gen);
  await new Promise((res, rej) =>
    autocannon(
      { url: baseline.url, connections: settings.connections, amount: settings.baselineRows, requests: [{ method: 'POST', path: '/baseline/buyer-requests', headers: { 'content-type': 'application/json' }, setupRequest: (req) => { req.body = next(); return req; } }] },
      (err, result) => (err ? rej(err) : result.non2xx || result.errors ? rej(new Error(`seeding the baseline: ${result.non2xx} non-2xx, ${result.errors} errors`)) : res(result)),
    ),
  );
  return baseline;
}

/** GET /baseline/buyer-requests?limit=20 under the same load settings as the routes. */
function measureBaseline(baseline) {
  return measure('GET baseline (bare Fastify + node:sqlite, ?limit=20)', baseline, { accept: 'application/json' }, () => () => ({ variant: 'limit=20', path: '/baseline/buyer-requests?limit=20' }));
}

/**
 * Steps 4–5, shared by both paths: each route alone (20 sequential requests), the baseline (started
 * and stopped here), then each route under load.
 */
async function loadRoutes({ app, headers, sample, report, write, sql = null }) {
  const routes = ROUTES.filter((r) => settings.parts.includes(r));
  report.sequential = {};
  for (const route of routes) {
    report.sequential[route] = await sequential(app, headers, queryMix(route, sample, settings.seed + 7));
    log(`${route} alone: median ${fmt(report.sequential[route].clientMs.p50, 2)} ms (tookMs ${fmt(report.sequential[route].tookMs.p50, 2)}), max ${fmt(report.sequential[route].clientMs.max, 1)} ms`);
  }
  if (settings.parts.includes('baseline')) {
    const baseline = await startBaseline();
    try {
      report.load.baseline = await measureBaseline(baseline);
      report.failures.push(...report.load.baseline.failures);
    } finally {
      await stopServer(baseline);
    }
    write();
  }
  for (const route of routes) {
    const m = await measure(`GET /api/v1/tradegraph/${route}`, app, headers, (phase) => queryMix(route, sample, settings.seed * 1000 + phase * 100 + ROUTES.indexOf(route)), {
      profileName: settings.profile.includes(route) ? `tradegraph-${route}` : null,
      sql,
    });
    m.target = { p99Ms: TARGET_P99_MS, p99: m.latencyMs.p99, met: m.latencyMs.p99 < TARGET_P99_MS && m.non2xx === 0 && m.errors === 0 && m.timeouts === 0 };
    if (report.load.baseline) m.ratioToBaselineReqPerSec = round(m.reqPerSec / report.load.baseline.reqPerSec, 3);
    report.load[route] = m;
    report.failures.push(...m.failures);
    write();
    if (settings.rate > 0) {
      const r = await measure(`GET /api/v1/tradegraph/${route} at ${settings.rate} req/s`, app, headers, (phase) => queryMix(route, sample, settings.seed * 1000 + phase * 100 + 50 + ROUTES.indexOf(route)), { sql, rate: settings.rate });
      r.target = { p99Ms: TARGET_P99_MS, p99: r.latencyMs.p99, met: r.latencyMs.p99 < TARGET_P99_MS && r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 };
      (report.loadAtRate ??= {})[route] = r;
      report.failures.push(...r.failures);
      write();
    }
  }
  report.appMemoryAfterLoad = memoryOf(app.child.pid);
}

/**
 * BENCH_TG_API_ONLY: the rebuild (timed) builds the tradegraph read models from the seeded log; then
 * the API alone (RUN_WORKERS=false) answers the routes from them, under the same load as the full path.
 */
async function apiOnly({ appRoot, dataDir, bench, report, write, inspect, projection }) {
  const watch = new LogWatch(appRoot, dataDir);
  if (settings.parts.includes('rebuild')) {
    report.rebuild = await rebuild(appRoot, dataDir, watch, projection);
    write();
  }
  report.catchUp = { skipped: 'BENCH_TG_API_ONLY: the app runs without workers on the read models the rebuild built' };
  const app = await startServer('app-tradegraph', [...(inspect ? ['--inspect=127.0.0.1:0'] : []), ...settings.appNodeOptions.split(/\s+/).filter(Boolean), join(appRoot, 'dist/apps/api/src/main.js')], {
    DATA_DIR: dataDir,
    RUN_WORKERS: 'false',
    ...UNLIMITED_RATE_LIMITS,
  });
  const headers = { authorization: `Bearer ${bench.apiKey}`, accept: 'application/json' };
  try {
    const sample = sampleFromReadModels(dataDir, bench.id);
    report.sample = { availableItems: sample.available.length, soldItems: sample.sold.length, cards: new Set(sample.cards.map((c) => `${c.cardName}|${c.setName}`)).size, sets: sample.sets.length, conditions: sample.conditions };
    await loadRoutes({ app, headers, sample, report, write });
  } finally {
    await stopServer(app);
    watch.events.close();
    watch.reads?.close();
  }
  if (settings.keep && !settings.reuseDir) report.dataDir = dataDir;
  finish(report, write);
}

/** Names and ids as the tradegraph read models hold them (the inventory read model is not built in API-only mode). */
function sampleFromReadModels(dataDir, workspaceId) {
  const file = existsSync(join(dataDir, 'eventual.db')) ? 'eventual.db' : 'read.db'; // read.db: a build from before eventual.db
  const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
  try {
    const j = (f) => `json_extract(doc, '$.${f}')`;
    const rows = (status, limit) =>
      db.prepare(`SELECT id, ${j('cardName')} AS cardName, ${j('setName')} AS setName, ${j('condition')} AS condition FROM c_tg_items WHERE ${j('workspaceId')} = ? AND ${j('status')} = ? ORDER BY ${j('listedAt')} DESC LIMIT ?`).all(workspaceId, status, limit);
    const newest = rows('available', 100);
    if (newest.length === 0) throw new Error('no available item in the bench workspace (tg_items)');
    const cards = [];
    for (const it of newest) if (!cards.some((c) => c.cardName === it.cardName && c.setName === it.setName)) cards.push({ cardName: it.cardName, setName: it.setName });
    const available = [...newest];
    for (const c of cards.slice(0, 30)) {
      const more = db
        .prepare(`SELECT id, ${j('cardName')} AS cardName, ${j('setName')} AS setName, ${j('condition')} AS condition FROM c_tg_items INDEXED BY c_tg_items__by_workspace_status_listed WHERE ${j('workspaceId')} = ? AND ${j('status')} = 'available' AND ${j('cardName')} = ? AND ${j('setName')} = ? LIMIT 20`)
        .all(workspaceId, c.cardName, c.setName);
      for (const it of more) if (!available.some((a) => a.id === it.id)) available.push(it);
    }
    const sold = rows('sold', 50);
    return {
      available: available.map((i) => ({ id: i.id, cardName: i.cardName, setName: i.setName, condition: i.condition })),
      sold: sold.map((i) => ({ id: i.id })),
      cards: available.map((i) => ({ cardName: i.cardName, setName: i.setName, condition: i.condition })),
      sets: [...new Set(available.map((i) => i.setName))],
      conditions: [...new Set(available.map((i) => i.condition))],
    };
  } finally {
    db.close();
  }
}

runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
