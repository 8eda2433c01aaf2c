// `npm run bench:scale`: matching at scale (issue 4), against the real built app.
//
//   A. 1,000,000 inventory items in one workspace (+ a small second workspace): POST
//      /api/v1/buyer-requests at 20 connections with a fresh generated body per request, target
//      p99 < 10 ms; beside the bare-Fastify baseline POST (bench/baseline-server.mjs) at the same
//      concurrency in the same run; the instant matchCount distribution of the answers.
//   B. 100,000 open buyer requests: an intake session of 10,000 rows (≈ 1 % with errors) added over
//      HTTP, then `POST …/push` timed, target < 5 s; pushed / skipped / matchedBuyerRequests, the
//      match events appended, and the time until every projection has applied them.
//
// How: for each scenario, a fresh temp DATA_DIR; workspace + key with the real CLI; the volumes
// seeded straight into the event log by bench/seed/seed-log.mjs (the app's own deciders and
// SqliteEventStore, appendMany batches of 1,000 streams); then the app is started on it and its
// projections and reverse-matching process manager catch up from the log (timed); the load runs
// once both are caught up. The build is snapshotted (dist/ copied to a temp dir) before anything
// starts, so a rebuild by someone else during the run cannot change what is measured.
//
// Env (defaults = the issue's volumes):
//   BENCH_SCALE_ONLY            A,B              scenarios to run
//   BENCH_SCALE_ITEMS           1000000          A: inventory items in the bench workspace
//   BENCH_SCALE_OTHER_ITEMS     5000             A: items in a second workspace (realism)
//   BENCH_SCALE_OTHER_REQUESTS  1000             A: buyer requests in the second workspace
//   BENCH_SCALE_REQUESTS        100000           B: open buyer requests
//   BENCH_SCALE_B_ITEMS         0                B: inventory items seeded before the push
//   BENCH_SCALE_PUSH_ROWS       10000            B: intake rows pushed
//   BENCH_SCALE_ERROR_RATE      0.01             B: share of intake rows with an error
//   BENCH_SCALE_SEED            1                generator seed
//   BENCH_SCALE_SKEW            0                card popularity skew (0 = uniform; see generator)
//   BENCH_DURATION 20, BENCH_CONNECTIONS 20, BENCH_WARMUP 3   A's autocannon settings
//   BENCH_SCALE_CATCHUP_TIMEOUT 3600 (s)        limit for the start-up catch-up of each scenario
//   BENCH_SCALE_QUIET_WAIT      300 (s)         before each measurement, wait up to this long for
//                                                the machine to be quiet (< 0.25 core used by others)
//   BENCH_TIMEOUT               7200 (s)        hard limit for the whole run
//   BENCH_SCALE_PROFILE         ''              'A', 'B' or 'A,B': CPU-profile the app during A's
//                                                measured load / B's push (inspector, 500 µs sampling),
//                                                .cpuprofile + summary next to the results
//   BENCH_SCALE_SQL_TIMING      ''              1 = time every SQLite call in the app (preload
//                                                bench/sqlite-timing-window.mjs) and report the SQL
//                                                cost per request (A) / of the push (B); adds overhead
//   BENCH_APP_NODE_OPTIONS      ''              extra node flags for the app processes
//   BENCH_APP_ROOT              this repo       build to benchmark (a dir holding dist/ + node_modules/)
//   BENCH_SCALE_KEEP            ''              1 = keep the DATA_DIRs (paths printed) instead of deleting them
//   BENCH_SCALE_A_DIR           ''              run A on a DATA_DIR kept by an earlier run (no seeding;
//                                                it holds that run's extra requests): for profiling only
//   BENCH_SCALE_OUT             scale-<n>.json  results file name under bench/results/
import { execFile, execFileSync, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

import { cpuSecondsOf, expectJson, fmt, intEnv, problems, runMain, summarize } from './lib/common.mjs';
import { children, cleanup, cleanupOnExit, keepTempDirs, machineBusySeconds, onCleanup, snapshotBuild, tempDir } from './lib/resources.mjs';

import { createGenerator, loadCatalog, requestBody } from './seed/generator.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const RESULTS_DIR = join(BENCH_DIR, 'results');
const SOURCE_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
const BASELINE_MAIN = join(BENCH_DIR, 'baseline-server.mjs');
const SEEDER = join(BENCH_DIR, 'seed', 'seed-log.mjs');
const PROFILE_SUMMARY = join(BENCH_DIR, 'profile-summary.mjs');
const UNLIMITED = {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_PER_SECOND: '1000000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000000',
  RATE_LIMIT_PUBLIC_PER_SECOND: '1000000000',
};
const PM_NAME = 'reverse-matching';
const PROFILE_DIR = join(tmpdir(), 'bench-scale-profiles');

function numEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0 (got "${raw}")`);
  return n;
}
const listEnv = (name, fallback) =>
  (process.env[name] ?? fallback).split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);

const settings = {
  only: listEnv('BENCH_SCALE_ONLY', 'A,B'),
  items: intEnv('BENCH_SCALE_ITEMS', 1_000_000, 1),
  otherItems: intEnv('BENCH_SCALE_OTHER_ITEMS', 5_000),
  otherRequests: intEnv('BENCH_SCALE_OTHER_REQUESTS', 1_000),
  requests: intEnv('BENCH_SCALE_REQUESTS', 100_000, 1),
  bItems: intEnv('BENCH_SCALE_B_ITEMS', 0),
  pushRows: intEnv('BENCH_SCALE_PUSH_ROWS', 10_000, 1),
  errorRate: numEnv('BENCH_SCALE_ERROR_RATE', 0.01),
  seed: intEnv('BENCH_SCALE_SEED', 1),
  skew: numEnv('BENCH_SCALE_SKEW', 0),
  durationSeconds: intEnv('BENCH_DURATION', 20, 1),
  connections: intEnv('BENCH_CONNECTIONS', 20, 1),
  // Fixed total rates (req/s) for the open-loop latency runs of A; empty to skip.
  rates: (process.env.BENCH_SCALE_RATES ?? '100,200').split(',').map((r) => r.trim()).filter(Boolean).map(Number),
  warmupSeconds: intEnv('BENCH_WARMUP', 3, 0),
  catchUpTimeoutSeconds: intEnv('BENCH_SCALE_CATCHUP_TIMEOUT', 3600, 10),
  quietWaitSeconds: intEnv('BENCH_SCALE_QUIET_WAIT', 300),
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 7200, 60),
  profile: listEnv('BENCH_SCALE_PROFILE', ''),
  sqlTiming: ['1', 'true', 'yes'].includes((process.env.BENCH_SCALE_SQL_TIMING ?? '').toLowerCase()),
  appNodeOptions: process.env.BENCH_APP_NODE_OPTIONS ?? '',
  appRoot: SOURCE_ROOT,
  keep: ['1', 'true', 'yes'].includes((process.env.BENCH_SCALE_KEEP ?? '').toLowerCase()),
  reuseA: process.env.BENCH_SCALE_A_DIR ? resolve(process.env.BENCH_SCALE_A_DIR) : null,
  bodyLimitBytes: 1024 * 1024,
  pipelining: 1,
};

const log = (msg) => process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n, digits = 2) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : n);

// ---------------------------------------------------------------------------------------------
// Processes and temp dirs: everything started here is killed on exit, failure or signal.

const openDbs = new Set();
onCleanup(() => {
  for (const db of openDbs) if (db.isOpen) db.close();
});
keepTempDirs((dir) => settings.keep && dir.includes('scale-data-'));
cleanupOnExit(log);

/**
 * Waits (up to `maxSeconds`) until the machine is quiet: other people's work on a shared machine
 * disturbs a latency run. Quiet = less than `threshold` cores busy over a 3 s window, beyond what
 * the given pids (our own idle servers) use. Returns what it saw, for the report.
 */
async function awaitQuiet(label, pids, maxSeconds, threshold = 0.25) {
  const t0 = performance.now();
  let busy = NaN;
  for (;;) {
    const m0 = machineBusySeconds();
    const c0 = pids.reduce((s, p) => s + cpuSecondsOf(p), 0);
    const w0 = performance.now();
    await sleep(3000);
    const wall = (performance.now() - w0) / 1000;
    busy = (machineBusySeconds() - m0 - (pids.reduce((s, p) => s + cpuSecondsOf(p), 0) - c0)) / wall;
    const waited = (performance.now() - t0) / 1000;
    if (!(busy >= threshold) || waited >= maxSeconds) {
      if (busy >= threshold) log(`${label}: machine still busy (${fmt(busy, 2)} cores by others) after ${fmt(waited, 0)} s; measuring anyway`);
      return { otherBusyCores: round(busy), waitedSeconds: round(waited, 1), quiet: !(busy >= threshold) };
    }
    if (waited < 4) log(`${label}: waiting for a quiet machine (others use ${fmt(busy, 2)} cores) …`);
  }
}

/** I/O counters of a process (/proc/<pid>/io): syscalls and bytes through read/write/pread/pwrite, and disk bytes. */
function ioOf(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8');
    return Object.fromEntries(text.trim().split('\n').map((l) => l.split(':').map((x) => x.trim())).map(([k, v]) => [k, Number(v)]));
  } catch {
    return null;
  }
}

/** The I/O a process did between two `ioOf` readings, per unit of work (e.g. per request). */
function ioDelta(a, b, per) {
  if (!a || !b) return null;
  const d = (k) => b[k] - a[k];
  return {
    readSyscallsPer: d('syscr') / per,
    writeSyscallsPer: d('syscw') / per,
    readKiBPer: d('rchar') / 1024 / per,
    writtenKiBPer: d('wchar') / 1024 / per,
    diskWrittenKiBPer: d('write_bytes') / 1024 / per,
    totalWrittenMiB: d('wchar') / 2 ** 20,
  };
}

function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: Math.round(kb('VmRSS') / 1024), peakRssMiB: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return { rssMiB: NaN, peakRssMiB: NaN };
  }
}

function startServer(name, args, env, { startTimeoutMs = 120_000 } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const proc = { name, child, output: '', url: null, inspector: null, linesAfterReady: [], spawnedAt: performance.now() };
  proc.exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  child.once('exit', () => children.delete(child));
  const wantInspector = args.some((a) => a.startsWith('--inspect'));
  child.once('exit', (code, signal) => {
    if (proc.url) log(`${name} exited (${code ?? signal})${proc.linesAfterReady.length ? `: ${proc.linesAfterReady.slice(-3).join(' | ').slice(0, 500)}` : ''}`);
  });
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${name} did not start within ${startTimeoutMs / 1000} s:\n${proc.output}`)), startTimeoutMs);
    const onData = (chunk) => {
      const text = chunk.toString();
      if (proc.url) {
        for (const line of text.split('\n')) if (line.trim() && proc.linesAfterReady.length < 200) proc.linesAfterReady.push(line);
        return;
      }
      proc.output += text;
      const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(proc.output);
      if (inspector) proc.inspector = inspector[1];
      const m = /listening on (http:\/\/\S+)/.exec(proc.output);
      if (m && (!wantInspector || proc.inspector)) {
        clearTimeout(timer);
        proc.url = m[1].replace('localhost', '127.0.0.1');
        proc.listeningAfterMs = performance.now() - proc.spawnedAt;
        res(proc);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!proc.url) rej(new Error(`${name} exited (${code ?? signal}) before listening:\n${proc.output}`));
    });
  });
}

async function stopServer(proc) {
  if (!proc) return;
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await proc.exited;
  clearTimeout(timer);
}

function runNode(args, { env = {}, timeoutMs = 60_000, maxBuffer = 64 * 1024 * 1024 } = {}) {
  return new Promise((res, rej) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, timeout: timeoutMs, maxBuffer },
      (error, stdout, stderr) => {
        children.delete(child);
        if (error) rej(new Error(`node ${args[0]} ${args.slice(1, 3).join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else res({ stdout, stderr });
      },
    );
    children.add(child);
    if (env.SCALE_STREAM_STDERR) child.stderr.on('data', (c) => process.stderr.write(c));
  });
}

const cli = async (appRoot, dataDir, args) =>
  JSON.parse((await runNode([join(appRoot, 'dist/apps/cli/src/main.js'), ...args], { env: { DATA_DIR: dataDir } })).stdout);

async function createWorkspace(appRoot, dataDir, slug) {
  const created = await cli(appRoot, dataDir, ['workspace', 'create', '--name', `Scale ${slug}`, '--slug', slug]);
  if (!created.apiKey || !created.workspace?.id) throw new Error(`CLI gave no workspace/key: ${JSON.stringify(created)}`);
  return { id: created.workspace.id, apiKey: created.apiKey, slug };
}

async function seedLog(appRoot, plan) {
  const t0 = performance.now();
  const { stdout } = await runNode([SEEDER, JSON.stringify({ ...plan, appRoot })], {
    timeoutMs: settings.catchUpTimeoutSeconds * 1000,
    env: { SCALE_STREAM_STDERR: '1' },
  });
  const summary = JSON.parse(stdout.trim().split('\n').pop());
  summary.wallSeconds = (performance.now() - t0) / 1000;
  return summary;
}

function dirSizes(dataDir) {
  const out = {};
  for (const f of readdirSync(dataDir)) out[f] = Math.round(statSync(join(dataDir, f)).size / 2 ** 20);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Catch-up: read the checkpoints straight from read.db (node:sqlite, read-only connection; the
// collections are tables `c_<name>` of JSON docs) and the log's head from events.db.

function openReadOnly(path) {
  const db = new DatabaseSync(path, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  openDbs.add(db);
  return db;
}

function pmEventTypes(appRoot) {
  try {
    const require = createRequire(join(appRoot, 'package.json'));
    require('reflect-metadata');
    const { ReverseMatching } = require(join(appRoot, 'dist/libs/matching/src/reverse/reverse-matching.js'));
    const types = new ReverseMatching().eventTypes;
    if (Array.isArray(types) && types.length > 0) return [...types];
  } catch {
    /* fall through */
  }
  return ['inventory.created', 'inventory.updated', 'buyer_request.created', 'buyer_request.updated'];
}

class LogWatch {
  constructor(appRoot, dataDir) {
    this.events = openReadOnly(join(dataDir, 'events.db'));
    this.dataDir = dataDir;
    this.reads = null;
    this.pmTypes = pmEventTypes(appRoot);
    this.headStmt = this.events.prepare('SELECT coalesce(max(position), 0) AS p FROM events');
    this.pmTargetStmt = this.events.prepare(
      `SELECT coalesce(max(position), 0) AS p FROM events WHERE type IN (${this.pmTypes.map(() => '?').join(', ')})`,
    );
  }

  head() {
    return this.headStmt.get().p;
  }

  pmTarget() {
    return this.pmTargetStmt.get(...this.pmTypes).p;
  }

  checkpoints() {
    this.reads ??= openReadOnly(join(this.dataDir, 'read.db'));
    const rows = (sql) => {
      try {
        return this.reads.prepare(sql).all();
      } catch {
        return []; // table not created yet
      }
    };
    const projections = Object.fromEntries(
      rows("SELECT id, json_extract(doc, '$.position') AS p FROM c_projection_checkpoints").map((r) => [r.id, r.p]),
    );
    const pm = rows(`SELECT json_extract(doc, '$.position') AS p FROM c_process_manager_checkpoints WHERE id = '${PM_NAME}'`)[0]?.p ?? 0;
    return { projections, pm };
  }

  /** One look: head, slowest projection, the process manager against its last event. */
  state() {
    const head = this.head();
    const pmTarget = this.pmTarget();
    const { projections, pm } = this.checkpoints();
    const names = Object.keys(projections);
    const minProjection = names.length ? Math.min(...names.map((n) => projections[n])) : 0;
    return { head, pmTarget, minProjection, pm, projectionCount: names.length, projectionsDone: names.length > 0 && minProjection >= head, pmDone: pm >= pmTarget };
  }

  count(sql, ...params) {
    return this.events.prepare(sql).get(...params);
  }
}

/**
 * Waits until the projections have applied the log's head and the process manager its last
 * event, polling read.db every `pollMs`; then confirms with the real CLI (`projections status`
 * lag 0 on two consecutive polls one second apart). Returns the timings (ms after `since`).
 */
async function waitCaughtUp(watch, { start = watch.state(), since, timeoutMs, pollMs = 1000, label, appRoot, dataDir, pid }) {
  const deadline = performance.now() + timeoutMs;
  let projectionsAt = null;
  let pmAt = null;
  let lastLog = 0;
  let s;
  for (;;) {
    s = watch.state();
    const now = performance.now();
    if (s.projectionsDone && projectionsAt === null) projectionsAt = now;
    if (!s.projectionsDone) projectionsAt = null; // the process manager appended more
    if (s.pmDone && pmAt === null) pmAt = now;
    if (s.projectionsDone && s.pmDone) break;
    if (now > deadline) throw new Error(`${label}: not caught up within ${timeoutMs / 1000} s: ${JSON.stringify(s)}`);
    if (now - lastLog > 15_000) {
      lastLog = now;
      log(`${label}: projections ${s.minProjection}/${s.head}, ${PM_NAME} ${s.pm}/${s.pmTarget}` + (pid ? `, app CPU ${fmt(cpuSecondsOf(pid), 0)} s` : ''));
    }
    await sleep(pollMs);
  }
  const caughtAt = performance.now();
  // Confirmation with the product's own tool.
  const polls = [];
  for (let ok = 0; ok < 2; ) {
    const status = await cli(appRoot, dataDir, ['projections', 'status']);
    const lag = Math.max(...status.projections.map((p) => p.lag));
    polls.push({ atMs: Math.round(performance.now() - since), maxLag: lag, head: status.projections[0]?.head });
    ok = lag === 0 ? ok + 1 : 0;
    if (performance.now() > deadline) throw new Error(`${label}: CLI projections status never showed lag 0 twice: ${JSON.stringify(polls)}`);
    if (ok < 2) await sleep(1000);
  }
  return {
    startHead: start.head,
    startMinProjection: start.minProjection,
    head: s.head,
    pmTarget: s.pmTarget,
    projectionsCaughtUpMs: Math.round((projectionsAt ?? caughtAt) - since),
    processManagerCaughtUpMs: Math.round((pmAt ?? caughtAt) - since),
    bothCaughtUpMs: Math.round(caughtAt - since),
    cliConfirmations: polls,
  };
}

// ---------------------------------------------------------------------------------------------
// CPU profiling through the inspector (only when BENCH_SCALE_PROFILE names the scenario).

class Profiler {
  static async connect(url) {
    const ws = new WebSocket(url);
    await new Promise((res, rej) => {
      ws.addEventListener('open', res, { once: true });
      ws.addEventListener('error', () => rej(new Error(`inspector ${url}: connection failed`)), { once: true });
    });
    return new Profiler(ws);
  }

  constructor(ws) {
    this.ws = ws;
    this.id = 0;
    this.pending = new Map();
    ws.addEventListener('message', (event) => {
      const msg = JSON.parse(String(event.data));
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.rej(new Error(JSON.stringify(msg.error)));
      else p.res(msg.result);
    });
  }

  send(method, params = {}) {
    const id = (this.id += 1);
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((res, rej) => this.pending.set(id, { res, rej }));
  }

  async start() {
    await this.send('Profiler.enable');
    await this.send('Profiler.setSamplingInterval', { interval: 500 });
    await this.send('Profiler.start');
  }

  /** Writes the .cpuprofile (big: to PROFILE_DIR, outside the repo) and its summary (to bench/results). */
  async stop(name) {
    const { profile } = await this.send('Profiler.stop');
    this.ws.close();
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = join(PROFILE_DIR, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const { stdout } = await runNode([PROFILE_SUMMARY, file, '30'], { timeoutMs: 120_000 });
    const summary = join(RESULTS_DIR, `${name}.profile.txt`);
    writeFileSync(summary, stdout);
    return { file, summary: summary.slice(ROOT.length + 1) };
  }
}

// ---------------------------------------------------------------------------------------------
// SQL timing windows (BENCH_SCALE_SQL_TIMING=1): SIGUSR2 makes the preload write its running totals.

const SQL_TIMING_PRELOAD = join(BENCH_DIR, 'sqlite-timing-window.mjs');

class SqlWindow {
  constructor(proc, prefix) {
    this.proc = proc;
    this.prefix = prefix;
    this.n = 0;
  }

  async snapshot() {
    this.n += 1;
    const file = `${this.prefix}.${this.n}.json`;
    this.proc.child.kill('SIGUSR2');
    const deadline = performance.now() + 10_000;
    while (!existsSync(file)) {
      if (performance.now() > deadline) throw new Error(`no SQL timing snapshot ${file}`);
      await sleep(20);
    }
    const { rows } = JSON.parse(readFileSync(file, 'utf8'));
    return new Map(rows.map((r) => [r.key, { calls: r.calls, ns: BigInt(r.ns) }]));
  }

  /** The SQL between two snapshots, per unit of work, the `top` costliest statements first. */
  static diff(before, after, per, top = 15) {
    const rows = [];
    let totalNs = 0n;
    for (const [key, a] of after) {
      const b = before.get(key) ?? { calls: 0, ns: 0n };
      const calls = a.calls - b.calls;
      const ns = a.ns - b.ns;
      if (calls === 0) continue;
      totalNs += ns;
      rows.push({ sql: key, callsPer: round(calls / per, 2), usPer: round(Number(ns) / 1e3 / per, 1), meanUs: round(Number(ns) / 1e3 / calls, 1) });
    }
    rows.sort((x, y) => y.usPer - x.usPer);
    return { totalUsPer: round(Number(totalNs) / 1e3 / per, 1), top: rows.slice(0, top) };
  }
}

// ---------------------------------------------------------------------------------------------
// Load.

function cannon(opts) {
  return new Promise((res, rej) => {
    const times = [];
    const instance = autocannon({ pipelining: settings.pipelining, timeout: 10, ...opts }, (err, result) => {
      if (err) return rej(err);
      times.sort((a, b) => a - b);
      result.preciseLatency = percentiles(times);
      return res(result);
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  });
}

function percentiles(sorted) {
  const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
  return {
    samples: sorted.length,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    p50: pct(50),
    p90: pct(90),
    p97_5: pct(97.5),
    p99: pct(99),
    p99_9: pct(99.9),
    max: sorted[sorted.length - 1],
  };
}

/**
 * Open-loop load at an even rate: request i is due at start + i / rate, over at most `connections`
 * keep-alive sockets. Latency counts from the due time (not from when a socket was free), so a
 * server that falls behind is charged for the wait (no coordinated omission). autocannon's own
 * `overallRate` sends each second's quota as one burst, which measures bursts, not a rate.
 */
async function openLoop(target, { rate, durationSeconds, connections, nextBody }) {
  const url = new URL(target.path, target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * durationSeconds);
  const latencies = [];
  const statuses = {};
  let errors = 0;
  const start = performance.now() + 50;
  const send = (due) =>
    new Promise((resolveSend) => {
      const body = nextBody();
      const req = httpRequest(
        url,
        { method: 'POST', agent, headers: { accept: 'application/json', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...target.headers } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            resolveSend();
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors += 1;
        resolveSend();
      });
      req.end(body);
    });
  const pending = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(due));
  }
  await Promise.all(pending);
  agent.destroy();
  const non2xx = Object.entries(statuses).filter(([code]) => !code.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  return { requestsTotal: total, statusCodes: statuses, non2xx, errors, latencyMs: percentiles(latencies.sort((a, b) => a - b)), duration: durationSeconds };
}

function postOptions(target, nextBody, onAnswer) {
  return {
    url: target.url,
    requests: [
      {
        method: 'POST',
        path: target.path,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...target.headers },
        setupRequest: (req) => {
          req.body = nextBody();
          return req;
        },
        ...(onAnswer ? { onResponse: (status, body) => onAnswer(status, body) } : {}),
      },
    ],
  };
}

/** Runs a warm-up (statuses checked) then the measured run; CPU of the server process beside it. */
async function measure(label, server, target, bodies, { onAnswer, profile, sql } = {}) {
  const failures = [];
  if (settings.warmupSeconds > 0) {
    const warm = await cannon({ ...postOptions(target, bodies.warm), connections: settings.connections, duration: settings.warmupSeconds });
    const bad = problems(warm);
    if (bad) failures.push(`${label} (warm-up): ${bad}`);
  }
  log(`${label}: ${settings.durationSeconds} s × ${settings.connections} connections …`);
  const quiet = await awaitQuiet(label, [server.child.pid], settings.quietWaitSeconds);
  const profiler = profile ? await Profiler.connect(server.inspector) : null;
  if (profiler) await profiler.start();
  const sql0 = sql ? await sql.snapshot() : null;
  const cpu0 = cpuSecondsOf(server.child.pid);
  const io0 = ioOf(server.child.pid);
  const gen0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  const wall0 = performance.now();
  const result = await cannon({ ...postOptions(target, bodies.measured, onAnswer), connections: settings.connections, duration: settings.durationSeconds });
  const wall = (performance.now() - wall0) / 1000;
  const serverCpu = cpuSecondsOf(server.child.pid) - cpu0;
  const io = ioDelta(io0, ioOf(server.child.pid), Math.max(1, result['2xx']));
  const gen = process.cpuUsage(gen0);
  const machineBusy = machineBusySeconds() - machine0;
  const sqlPerRequest = sql ? SqlWindow.diff(sql0, await sql.snapshot(), Math.max(1, result['2xx'])) : null;
  const prof = profiler ? await profiler.stop(profile) : null;
  const bad = problems(result);
  if (bad) failures.push(`${label}: ${bad}`);
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    failures.push(`${label}: the server process exited (${server.child.exitCode ?? server.child.signalCode}); its last output: ${server.linesAfterReady.slice(-5).join(' | ')}`);
  }
  const out = {
    label,
    ...summarize(result),
    serverCpuCores: serverCpu / wall,
    serverCpuUsPerRequest: (serverCpu * 1e6) / Math.max(1, result['2xx']),
    // The server's file I/O per 2xx request (/proc/<pid>/io: SQLite page reads/writes are pread/pwrite).
    serverIoPerRequest: io,
    loadGeneratorCpuCores: (gen.user + gen.system) / 1e6 / wall,
    // Everything else the machine did meanwhile (other people's work on a shared machine).
    otherCpuCores: (machineBusy - serverCpu - (gen.user + gen.system) / 1e6) / wall,
    quietBefore: quiet,
    wallSeconds: wall,
    failures,
    ...(prof ? { profile: { cpuprofile: prof.file, summary: prof.summary } } : {}),
    ...(sqlPerRequest ? { sqlPerRequest } : {}),
  };
  log(
    `${label}: ${fmt(out.reqPerSecMean)} req/s, p50 ${fmt(out.latencyMs.p50, 2)} ms, p99 ${fmt(out.latencyMs.p99, 2)} ms, ` +
      `max ${fmt(out.latencyMs.max, 1)} ms${bad ? `  !! ${bad}` : ''}`,
  );
  return out;
}

function bodyStream(gen) {
  return () => JSON.stringify(requestBody(gen.buyerRequest()));
}

function distribution(values, buckets) {
  const sorted = [...values].sort((a, b) => a - b);
  const out = {};
  for (const [name, lo, hi] of buckets) out[name] = sorted.filter((v) => v >= lo && v <= hi).length;
  const p = percentiles(sorted);
  return {
    answers: sorted.length,
    mean: p.mean,
    p50: p.p50,
    p90: p.p90,
    max: p.max,
    withMatches: sorted.filter((v) => v > 0).length,
    shareWithMatches: sorted.filter((v) => v > 0).length / Math.max(1, sorted.length),
    buckets: out,
  };
}

const MATCH_BUCKETS = [
  ['0', 0, 0],
  ['1', 1, 1],
  ['2-4', 2, 4],
  ['5-9', 5, 9],
  ['10-19', 10, 19],
  ['20-49', 20, 49],
  ['50-99', 50, 99],
  ['100', 100, Infinity],
];

function appArgs(appRoot, inspect) {
  return [
    ...(inspect ? ['--inspect=127.0.0.1:0'] : []),
    ...(settings.sqlTiming ? ['--import', SQL_TIMING_PRELOAD] : []),
    ...settings.appNodeOptions.split(/\s+/).filter(Boolean),
    join(appRoot, 'dist/apps/api/src/main.js'),
  ];
}

/** Starts the app on a seeded DATA_DIR and waits for its start-up catch-up; returns the app + timings. */
async function startAndCatchUp(label, appRoot, dataDir, inspect) {
  const watch = new LogWatch(appRoot, dataDir);
  const before = watch.state();
  const events = before.head;
  const cpu0 = 0;
  const since = performance.now();
  // The app may not listen before its catch-up is done (measured: it does not): allow the whole limit.
  const sqlPrefix = settings.sqlTiming ? join(tempDir('scale-sql-'), 'timing') : null;
  // Progress while the app starts (it does not listen before it has caught up): every second.
  const track = { projectionsAt: null, pmAt: null, samples: [] };
  let pid = null;
  const tracker = setInterval(() => {
    const st = watch.state();
    const ms = Math.round(performance.now() - since);
    if (st.projectionsDone) track.projectionsAt ??= ms;
    else track.projectionsAt = null;
    if (st.pmDone) track.pmAt ??= ms;
    if (track.samples.length === 0 || ms - track.samples[track.samples.length - 1][0] >= 10_000) {
      track.samples.push([ms, st.minProjection, st.pm, st.head]);
      if (track.samples.length > 1) {
        log(`${label} catch-up: projections ${st.minProjection}/${st.head}, ${PM_NAME} ${st.pm}/${st.pmTarget}` + (pid ? `, app CPU ${fmt(cpuSecondsOf(pid), 0)} s` : ''));
      }
    }
  }, 1000);
  let app;
  try {
    const starting = startServer(
      `app-${label}`,
      appArgs(appRoot, inspect),
      { DATA_DIR: dataDir, ...UNLIMITED, ...(sqlPrefix ? { SQLITE_TIMING_OUT: sqlPrefix } : {}) },
      { startTimeoutMs: settings.catchUpTimeoutSeconds * 1000 },
    );
    pid = [...children].at(-1)?.pid ?? null;
    app = await starting;
  } finally {
    clearInterval(tracker);
  }
  app.sql = sqlPrefix ? new SqlWindow(app, sqlPrefix) : null;
  log(`${label}: app ${app.url} listening after ${fmt(app.listeningAfterMs / 1000, 1)} s; checking the catch-up of ${events} events …`);
  const timings = await waitCaughtUp(watch, {
    start: before,
    since,
    timeoutMs: settings.catchUpTimeoutSeconds * 1000,
    label: `${label} catch-up`,
    appRoot,
    dataDir,
    pid: app.child.pid,
  });
  const cpu = cpuSecondsOf(app.child.pid) - cpu0;
  // The tracker saw the catch-up end while the app was still starting (1 s resolution).
  if (track.projectionsAt !== null) timings.projectionsCaughtUpMs = Math.min(timings.projectionsCaughtUpMs, track.projectionsAt);
  if (track.pmAt !== null) timings.processManagerCaughtUpMs = Math.min(timings.processManagerCaughtUpMs, track.pmAt);
  const catchUp = {
    logEventsAtStart: events,
    listeningAfterMs: Math.round(app.listeningAfterMs),
    ...timings,
    progress: track.samples,
    progressFormat: '[ms since spawn, slowest projection position, reverse-matching checkpoint, head] every 10 s while starting',
    projectionEventsPerSecond: (timings.startHead - timings.startMinProjection) / (timings.projectionsCaughtUpMs / 1000),
    appCpuSecondsAtCatchUp: cpu,
    memory: memoryOf(app.child.pid),
    eventsAppendedByProcessManager: timings.head - events,
    method:
      'polled read.db from the bench process (read-only node:sqlite) every 1 s from the spawn: c_projection_checkpoints, ' +
      `every projection ≥ events.db head; c_process_manager_checkpoints "${PM_NAME}" ≥ the position of the last event of its types; ` +
      'then, once the app listens, `projections status` (CLI) lag 0 on two consecutive polls 1 s apart',
  };
  log(
    `${label}: caught up — projections ${fmt(timings.projectionsCaughtUpMs / 1000, 1)} s ` +
      `(${fmt(catchUp.projectionEventsPerSecond, 0)} events/s), ${PM_NAME} ${fmt(timings.processManagerCaughtUpMs / 1000, 1)} s, ` +
      `app CPU ${fmt(cpu, 0)} s, peak RSS ${catchUp.memory.peakRssMiB} MiB`,
  );
  return { app, watch, catchUp };
}

// ---------------------------------------------------------------------------------------------
// Scenario A: POST /api/v1/buyer-requests against 1M items.

async function scenarioA(appRoot, catalog) {
  let dataDir;
  let bench;
  let other;
  let seeding;
  if (settings.reuseA) {
    // A DATA_DIR kept by an earlier run (BENCH_SCALE_KEEP=1): no seeding; it also holds the buyer
    // requests (and matches) that run's load created. For profiling iterations, not for the record.
    dataDir = settings.reuseA;
    ({ bench, other } = JSON.parse(readFileSync(join(dataDir, 'scale-bench.json'), 'utf8')));
    seeding = { reused: dataDir };
    log(`A: reusing ${dataDir} (no seeding)`);
  } else {
    dataDir = tempDir('scale-data-A-');
    bench = await createWorkspace(appRoot, dataDir, 'scale-a');
    other = settings.otherItems + settings.otherRequests > 0 ? await createWorkspace(appRoot, dataDir, 'scale-a-other') : null;
    writeFileSync(join(dataDir, 'scale-bench.json'), JSON.stringify({ bench, other }));
    log(`A: seeding ${settings.items} items${other ? ` (+ ${settings.otherItems} items, ${settings.otherRequests} requests in a second workspace)` : ''} into ${dataDir} …`);
    seeding = await seedLog(appRoot, {
      dataDir,
      workspaces: [
        ...(other
          ? [{ workspaceId: other.id, actor: 'bench:seed', items: settings.otherItems, requests: settings.otherRequests, seed: settings.seed + 100, skew: settings.skew, interleave: true }]
          : []),
        { workspaceId: bench.id, actor: 'bench:seed', items: settings.items, requests: 0, seed: settings.seed, skew: settings.skew },
      ],
    });
    seeding.dataDirMiB = dirSizes(dataDir);
    log(`A: seeded ${seeding.events} events in ${fmt(seeding.seconds, 1)} s (${fmt(seeding.eventsPerSecond, 0)} events/s)`);
  }

  const baselineDir = tempDir('scale-baseline-');
  const baseline = await startServer('baseline', [BASELINE_MAIN], { DATA_DIR: baselineDir });
  const { app, watch, catchUp } = await startAndCatchUp('A', appRoot, dataDir, settings.profile.includes('A'));
  catchUp.dataDirMiB = dirSizes(dataDir);

  const targets = {
    baseline: { url: baseline.url, path: '/baseline/buyer-requests', headers: {} },
    app: { url: app.url, path: '/api/v1/buyer-requests', headers: { authorization: `Bearer ${bench.apiKey}` } },
  };
  // Smoke: the shapes the run relies on, and one answer timed on its own (idle server).
  const smokeGen = createGenerator(catalog, { seed: settings.seed + 7 });
  const smoke = [];
  for (let i = 0; i < 20; i += 1) {
    const t0 = performance.now();
    const created = await expectJson(
      `${targets.app.url}${targets.app.path}`,
      { method: 'POST', headers: { ...targets.app.headers, 'content-type': 'application/json' }, body: JSON.stringify(requestBody(smokeGen.buyerRequest())) },
      201,
    );
    if (typeof created.id !== 'string' || !Number.isInteger(created.matchCount)) throw new Error(`unexpected POST answer ${JSON.stringify(created)}`);
    smoke.push({ ms: performance.now() - t0, matchCount: created.matchCount });
  }
  log(`A: smoke — 20 sequential POSTs, median ${fmt(smoke.map((s) => s.ms).sort((a, b) => a - b)[10], 2)} ms, matchCounts ${smoke.map((s) => s.matchCount).join(' ')}`);

  // Same body sequences for both servers.
  const bodies = () => ({
    warm: bodyStream(createGenerator(catalog, { seed: settings.seed + 1000 })),
    measured: bodyStream(createGenerator(catalog, { seed: settings.seed + 2000 })),
  });
  const baselineResult = await measure('POST baseline (bare Fastify + node:sqlite INSERT)', baseline, targets.baseline, bodies());
  await stopServer(baseline);

  const matchCounts = [];
  let unparsable = 0;
  const headBefore = watch.head();
  const profileFile = settings.profile.includes('A') ? `${outName().replace(/\.json$/, '')}-A` : null;
  const appResult = await measure(`POST app (${settings.items.toLocaleString('en')} items)`, app, targets.app, bodies(), {
    onAnswer: (status, body) => {
      if (status !== 201) return;
      try {
        matchCounts.push(JSON.parse(body).matchCount);
      } catch {
        unparsable += 1;
      }
    },
    profile: profileFile,
    sql: app.sql,
  });
  // The saturation run above measures queueing: 20 connections back to back on 2 cores (the
  // baseline misses 10 ms too). These runs keep up to 20 connections open but send evenly spaced
  // requests at a fixed total rate (open loop), so latency is the service time under that load.
  const atRates = [];
  for (const rate of settings.rates) {
    const gen = bodyStream(createGenerator(catalog, { seed: settings.seed + 3000 + rate }));
    const cpu0 = cpuSecondsOf(app.child.pid);
    const summary = await openLoop(targets.app, { rate, durationSeconds: settings.durationSeconds, connections: settings.connections, nextBody: gen });
    const bad = summary.non2xx || summary.errors ? `${summary.non2xx} non-2xx, ${summary.errors} errors` : '';
    const serverCpuCores = (cpuSecondsOf(app.child.pid) - cpu0) / summary.duration;
    atRates.push({ rate, connections: settings.connections, ...summary, serverCpuCores, failures: bad ? [bad] : [], p99Under10ms: summary.latencyMs.p99 < 10 && !bad });
    log(`A at ${rate} req/s over ${settings.connections} connections: p50 ${fmt(summary.latencyMs.p50, 2)} ms, p99 ${fmt(summary.latencyMs.p99, 2)} ms${bad ? `  !! ${bad}` : ''}`);
  }

  // What the requests left behind: reverse matching re-checks each new request; time the drain.
  const drainStart = performance.now();
  const drained = await waitCaughtUp(watch, {
    since: drainStart,
    timeoutMs: 600_000,
    pollMs: 100,
    label: 'A drain',
    appRoot,
    dataDir,
  });
  const headAfter = watch.head();
  const appended = watch.count(
    `SELECT count(*) AS events,
            sum(type = 'buyer_request.created') AS created,
            sum(type = 'buyer_request.matched') AS matched,
            sum(type = 'match.created') AS matches
       FROM events WHERE position > ?`,
    headBefore,
  );
  const memory = memoryOf(app.child.pid);
  await stopServer(app);
  watch.events.close();
  watch.reads?.close();

  return {
    dataDir: settings.keep ? dataDir : undefined,
    workspace: { id: bench.id, items: settings.items },
    otherWorkspace: other ? { id: other.id, items: settings.otherItems, requests: settings.otherRequests } : null,
    seeding,
    catchUp,
    smokeSequentialMs: percentiles(smoke.map((s) => s.ms).sort((a, b) => a - b)),
    baseline: baselineResult,
    app: appResult,
    ratioReqPerSec: appResult.reqPerSecMean / baselineResult.reqPerSecMean,
    matchCount: { ...distribution(matchCounts, MATCH_BUCKETS), unparsable },
    appendedDuringRun: appended,
    afterRun: { drainToLagZeroMs: drained.bothCaughtUpMs, processManagerDoneMs: drained.processManagerCaughtUpMs, headAfter, memory },
    target: { p99Ms: 10, p99: appResult.latencyMs.p99, met: appResult.latencyMs.p99 < 10 && appResult.non2xx === 0 && appResult.errors === 0 },
    atRates,
  };
}

// ---------------------------------------------------------------------------------------------
// Scenario B: push 10,000 intake rows against 100,000 open buyer requests.

/** Splits rows into JSON array bodies under the body limit (and the 10,000-row cap per call). */
function chunkRows(rows, maxBytes, maxRows = 10_000) {
  const chunks = [];
  let cur = [];
  let size = 2;
  for (const row of rows) {
    const len = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (cur.length > 0 && (size + len > maxBytes || cur.length >= maxRows)) {
      chunks.push(cur);
      cur = [];
      size = 2;
    }
    cur.push(row);
    size += len;
  }
  if (cur.length > 0) chunks.push(cur);
  return chunks;
}

async function scenarioB(appRoot, catalog) {
  const dataDir = tempDir('scale-data-B-');
  const bench = await createWorkspace(appRoot, dataDir, 'scale-b');
  log(`B: seeding ${settings.requests} open buyer requests${settings.bItems ? ` + ${settings.bItems} items` : ''} into ${dataDir} …`);
  const seeding = await seedLog(appRoot, {
    dataDir,
    workspaces: [{ workspaceId: bench.id, actor: 'bench:seed', items: settings.bItems, requests: settings.requests, seed: settings.seed + 500, skew: settings.skew, interleave: true }],
  });
  seeding.dataDirMiB = dirSizes(dataDir);
  log(`B: seeded ${seeding.events} events in ${fmt(seeding.seconds, 1)} s (${fmt(seeding.eventsPerSecond, 0)} events/s)`);
  const { app, watch, catchUp } = await startAndCatchUp('B', appRoot, dataDir, settings.profile.includes('B'));
  catchUp.dataDirMiB = dirSizes(dataDir);
  const headers = { authorization: `Bearer ${bench.apiKey}`, 'content-type': 'application/json' };
  const base = `${app.url}/api/v1/ingestion/sessions`;

  // The rows: the same card model as the requests (a different seed).
  const gen = createGenerator(catalog, { seed: settings.seed + 3000, skew: settings.skew });
  const generated = Array.from({ length: settings.pushRows }, () => gen.intakeRow(settings.errorRate));
  const rows = generated.map((g) => g.row);
  const generatedErrors = generated.filter((g) => g.error).length;
  const chunks = chunkRows(rows, Math.floor(settings.bodyLimitBytes * 0.95));

  const session = await expectJson(base, { method: 'POST', headers, body: JSON.stringify({ name: 'Scale bench push', source: 'bench:scale', defaultCurrency: 'USD' }) }, 201);
  const adds = [];
  let lastCounts = null;
  for (const chunk of chunks) {
    const body = JSON.stringify(chunk);
    const t0 = performance.now();
    const added = await expectJson(`${base}/${session.id}/items`, { method: 'POST', headers, body }, 200);
    adds.push({ rows: chunk.length, bytes: Buffer.byteLength(body), ms: Math.round(performance.now() - t0), added: added.added });
    if (added.added !== chunk.length) throw new Error(`add items: ${added.added} added for ${chunk.length} rows`);
    lastCounts = added.counts;
  }
  log(`B: added ${rows.length} rows in ${chunks.length} calls (${adds.map((a) => `${a.rows} rows/${Math.round(a.bytes / 1024)} KiB/${a.ms} ms`).join(', ')}); counts ${JSON.stringify(lastCounts)}`);
  // Settle anything the adds left for the projections before timing the push.
  await waitCaughtUp(watch, { since: performance.now(), timeoutMs: 600_000, pollMs: 100, label: 'B pre-push', appRoot, dataDir });

  const headBefore = watch.head();
  const quiet = await awaitQuiet('B push', [app.child.pid], settings.quietWaitSeconds);
  const machine0 = machineBusySeconds();
  const cpu0 = cpuSecondsOf(app.child.pid);
  const io0 = ioOf(app.child.pid);
  const profileFile = settings.profile.includes('B') ? `${outName().replace(/\.json$/, '')}-B` : null;
  const profiler = profileFile ? await Profiler.connect(app.inspector) : null;
  if (profiler) await profiler.start();
  const sql0 = app.sql ? await app.sql.snapshot() : null;
  log(`B: pushing session ${session.id} …`);
  const t0 = performance.now();
  // Where the push is, every 100 ms: the log's head, the slowest projection, reverse matching.
  const samples = [];
  const sampler = setInterval(() => {
    const st = watch.state();
    samples.push({ ms: Math.round(performance.now() - t0), head: st.head, projections: st.minProjection, pm: st.pm, pmTarget: st.pmTarget });
  }, 100);
  // Meanwhile, is the server still answering anything else? GET /api/v1/health, one at a time.
  const probes = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const p0 = performance.now();
      try {
        const res = await fetch(`${app.url}/api/v1/health`, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        probes.push({ at: Math.round(p0 - t0), ms: performance.now() - p0, status: res.status });
      } catch (error) {
        probes.push({ at: Math.round(p0 - t0), ms: performance.now() - p0, status: String(error?.name ?? error) });
      }
      await sleep(100);
    }
  })();
  let pushed;
  try {
    pushed = await expectJson(`${base}/${session.id}/push`, { method: 'POST', headers: { authorization: headers.authorization } }, 200, 600_000);
  } finally {
    clearInterval(sampler);
    probing = false;
  }
  const pushMs = performance.now() - t0;
  await prober;
  const probeMs = probes.map((p) => p.ms).sort((a, b) => a - b);
  const healthDuringPush = {
    probes: probes.length,
    non200: probes.filter((p) => p.status !== 200).length,
    ...percentiles(probeMs),
    longest: probes.sort((a, b) => b.ms - a.ms).slice(0, 3).map((p) => ({ startedAtMs: p.at, ms: Math.round(p.ms) })),
  };
  const prof = profiler ? await profiler.stop(profileFile) : null;
  const pushCpu = cpuSecondsOf(app.child.pid) - cpu0;
  const sqlOfPush = app.sql ? SqlWindow.diff(sql0, await app.sql.snapshot(), 1, 25) : null;
  const pushIo = ioDelta(io0, ioOf(app.child.pid), 1);
  const pushOthers = (machineBusySeconds() - machine0 - pushCpu) / (pushMs / 1000);
  log(`B: push answered in ${fmt(pushMs, 0)} ms: pushed ${pushed.pushed}, skipped ${pushed.skipped}, matchedBuyerRequests ${pushed.matchedBuyerRequests}`);
  // Until every event of the push (items + matches) is projected; t = 0 at the push's start.
  const settled = await waitCaughtUp(watch, { since: t0, timeoutMs: 600_000, pollMs: 50, label: 'B after push', appRoot, dataDir });
  const appended = watch.count(
    `SELECT count(*) AS events,
            sum(type = 'inventory.created') AS inventoryCreated,
            sum(type = 'buyer_request.matched') AS buyerRequestMatched,
            count(DISTINCT CASE WHEN type = 'buyer_request.matched' THEN stream_id END) AS requestsMatched,
            sum(type = 'match.created') AS matchCreated,
            sum(type = 'match.created' AND json_extract(data, '$.kind') = 'full') AS fullMatches,
            sum(type = 'match.created' AND json_extract(data, '$.kind') = 'near_miss') AS nearMisses,
            min(CASE WHEN type = 'match.created' THEN created_at END) AS firstMatchAt,
            max(CASE WHEN type = 'match.created' THEN created_at END) AS lastMatchAt
       FROM events WHERE position > ?`,
    headBefore,
  );
  // Milestones of the push from the samples (t = 0 at the request; resolution 100 ms).
  const lastItem = watch.count(`SELECT max(position) AS p FROM events WHERE position > ? AND type = 'inventory.created'`, headBefore).p;
  const first = (pred) => samples.find(pred)?.ms ?? null;
  const timeline = {
    lastItemPosition: lastItem,
    finalHead: settled.head ?? watch.head(),
    itemsAllAppendedMs: first((x) => x.head >= lastItem),
    itemsAllProjectedMs: first((x) => x.projections >= lastItem),
    reverseMatchingDoneMs: first((x) => x.pm >= lastItem),
    everythingProjectedMs: settled.projectionsCaughtUpMs,
    answeredMs: Math.round(pushMs),
    samples: samples.filter((_, i) => i % 5 === 0).map((x) => [x.ms, x.head - headBefore, x.projections - headBefore, x.pm - headBefore]),
    samplesFormat: '[ms since the push request, events appended, events projected by the slowest projection, reverse-matching checkpoint] (relative to the head before the push), every 500 ms',
  };
  const memory = memoryOf(app.child.pid);
  await stopServer(app);
  watch.events.close();
  watch.reads?.close();

  return {
    dataDir: settings.keep ? dataDir : undefined,
    workspace: { id: bench.id, openRequests: settings.requests, items: settings.bItems },
    timeline,
    seeding,
    catchUp,
    intake: {
      rows: rows.length,
      rowsGeneratedWithErrors: generatedErrors,
      addCalls: adds,
      sessionCounts: lastCounts,
      note: `JSON array bodies split to stay under the ${settings.bodyLimitBytes / 2 ** 20} MiB body limit`,
    },
    push: {
      wallMs: pushMs,
      answer: {
        pushed: pushed.pushed,
        skipped: pushed.skipped,
        matchedBuyerRequests: pushed.matchedBuyerRequests,
        rejections: pushed.rejections?.length ?? null,
        status: pushed.status,
      },
      appCpuSeconds: pushCpu,
      appIo: pushIo,
      healthDuringPush,
      ...(sqlOfPush ? { sql: sqlOfPush } : {}),
      otherCpuCores: pushOthers,
      quietBefore: quiet,
      untilLagZeroMs: settled.bothCaughtUpMs,
      projectionsDoneMs: settled.projectionsCaughtUpMs,
      processManagerDoneMs: settled.processManagerCaughtUpMs,
      cliConfirmations: settled.cliConfirmations,
      appendedByPush: appended,
      ...(prof ? { profile: { cpuprofile: prof.file, summary: prof.summary } } : {}),
    },
    memory,
    target: { pushMs: 5000, met: pushMs < 5000 },
  };
}

// ---------------------------------------------------------------------------------------------

let outFile = null;
function outName() {
  if (outFile) return outFile;
  if (process.env.BENCH_SCALE_OUT) return (outFile = process.env.BENCH_SCALE_OUT);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const taken = new Set(readdirSync(RESULTS_DIR));
  let n = 1;
  while (taken.has(`scale-${n}.json`)) n += 1;
  return (outFile = `scale-${n}.json`);
}

/** A content hash of the snapshotted dist/ (which build exactly was measured) and its file count. */
function distHash(appRoot) {
  const hash = createHash('sha256');
  let files = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        hash.update(path.slice(appRoot.length)).update(readFileSync(path));
        files += 1;
      }
    }
  };
  walk(join(appRoot, 'dist'));
  return { sha256: hash.digest('hex').slice(0, 16), jsFiles: files };
}

/** Source files that differ from HEAD (the build measured includes them). */
function uncommitted(dir) {
  try {
    return execFileSync('git', ['status', '--porcelain', '--', 'apps', 'libs'], { cwd: dir, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.trim());
  } catch {
    return [];
  }
}

function gitCommit(dir) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).trim();
    return dirty ? `${head} (with uncommitted changes: ${dirty.split('\n').length} paths)` : head;
  } catch {
    return 'unknown';
  }
}

function commandLine() {
  const envs = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .map(([k, v]) => `${k}=${v}`);
  const base = process.env.npm_lifecycle_event === 'bench:scale' ? 'npm run bench:scale' : 'node bench/scale.mjs';
  return [...envs, base].join(' ');
}

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:scale puts it on PATH)`);
  const started = Date.now();
  const loadBefore = loadavg();
  const appRoot = snapshotBuild(SOURCE_ROOT, 'scale-app-', ['dist/apps/api/src/main.js', 'dist/apps/cli/src/main.js', 'dist/libs/supply/src/index.js']);
  const catalog = loadCatalog();
  const name = outName();
  log(`settings: ${JSON.stringify({ ...settings, appRoot: undefined })}; build snapshot ${appRoot}; results → bench/results/${name}`);

  const report = {
    date: new Date().toISOString(),
    command: commandLine(),
    node: process.versions.node,
    appCommit: gitCommit(SOURCE_ROOT),
    appUncommittedSources: uncommitted(SOURCE_ROOT),
    appBuild: distHash(appRoot),
    machine: {
      cpuModel: cpus()[0]?.model ?? 'unknown',
      cpus: cpus().length,
      platform: `${platform()} ${release()}`,
      memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      loadavgBefore: loadBefore.map((x) => round(x)),
    },
    settings: { ...settings, appRoot: SOURCE_ROOT },
    generator: {
      catalogue: `${catalog.cards.length} cards, ${catalog.sets.length} sets from ${catalog.dataDir}`,
      model: 'bench/seed/generator.mjs (header comment)',
    },
    scenarios: {},
    ok: true,
    failures: [],
  };
  const write = () => {
    report.totalSeconds = Math.round((Date.now() - started) / 100) / 10;
    report.machine.loadavgAfter = loadavg().map((x) => round(x));
    writeFileSync(join(RESULTS_DIR, name), `${JSON.stringify(report, null, 2)}\n`);
  };

  for (const [id, run] of [['A', scenarioA], ['B', scenarioB]]) {
    if (!settings.only.includes(id)) continue;
    try {
      report.scenarios[id] = await run(appRoot, catalog);
      const f = report.scenarios[id].app?.failures ?? [];
      const fb = report.scenarios[id].baseline?.failures ?? [];
      report.failures.push(...f, ...fb);
    } catch (error) {
      report.ok = false;
      report.failures.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
      log(`${id} FAILED: ${error instanceof Error ? error.stack : String(error)}`);
      for (const child of [...children]) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    write();
  }
  if (report.failures.length > 0) report.ok = false;
  write();
  printSummary(report, name);
  if (!report.ok) throw new Error(`failures:\n  ${report.failures.join('\n  ')}`);
}

function printSummary(report, name) {
  const lines = [
    `Scale bench ${report.date} · node ${report.node} · ${report.machine.cpuModel} × ${report.machine.cpus} · app ${report.appCommit} · dist ${report.appBuild.sha256}`,
  ];
  const A = report.scenarios.A;
  if (A) {
    lines.push(
      '',
      `A: ${A.workspace.items.toLocaleString('en')} items — ` +
        (A.seeding.reused ? `reused ${A.seeding.reused}; ` : `seeded ${A.seeding.events} events in ${fmt(A.seeding.seconds, 1)} s; `) +
        `app listening ${fmt(A.catchUp.listeningAfterMs / 1000, 1)} s, projections caught up ${fmt(A.catchUp.projectionsCaughtUpMs / 1000, 1)} s ` +
        `(${fmt(A.catchUp.projectionEventsPerSecond, 0)} events/s), ${PM_NAME} ${fmt(A.catchUp.processManagerCaughtUpMs / 1000, 1)} s`,
      '',
      '| POST, 20 connections | req/s | p50 ms | p90 ms | p97.5 ms | p99 ms | max ms | requests | non-2xx | server CPU µs/req |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of [A.baseline, A.app]) {
      lines.push(
        `| ${r.label} | ${fmt(r.reqPerSecMean)} | ${fmt(r.latencyMs.p50, 2)} | ${fmt(r.latencyMs.p90, 2)} | ${fmt(r.latencyMs.p97_5, 2)} | ` +
          `${fmt(r.latencyMs.p99, 2)} | ${fmt(r.latencyMs.max, 1)} | ${r.requestsTotal} | ${r.non2xx} | ${fmt(r.serverCpuUsPerRequest, 0)} |`,
      );
    }
    const m = A.matchCount;
    lines.push(
      '',
      `matchCount over ${m.answers} answers: mean ${fmt(m.mean, 2)}, median ${m.p50}, p90 ${m.p90}, max ${m.max}; ` +
        `${fmt(100 * m.shareWithMatches, 1)} % with ≥ 1 match; buckets ${JSON.stringify(m.buckets)}`,
      `p99 < 10 ms: ${A.target.met ? 'yes' : '**no**'} (${fmt(A.target.p99, 2)} ms); app/baseline req/s ${fmt(A.ratioReqPerSec, 2)}`,
    );
    for (const r of A.atRates ?? []) {
      lines.push(
        `at a fixed ${r.rate} req/s over ${r.connections} connections: p50 ${fmt(r.latencyMs.p50, 2)} ms, p90 ${fmt(r.latencyMs.p90, 2)} ms, ` +
          `p99 ${fmt(r.latencyMs.p99, 2)} ms, max ${fmt(r.latencyMs.max, 1)} ms (${r.requestsTotal} requests, ${r.non2xx} non-2xx) — p99 < 10 ms: ${r.p99Under10ms ? 'yes' : '**no**'}`,
      );
    }
  }
  const B = report.scenarios.B;
  if (B) {
    const p = B.push;
    lines.push(
      '',
      `B: ${B.workspace.openRequests.toLocaleString('en')} open requests — seeded in ${fmt(B.seeding.seconds, 1)} s; caught up ${fmt(B.catchUp.bothCaughtUpMs / 1000, 1)} s`,
      `push of ${B.intake.rows} rows (${B.intake.addCalls.length} add calls): ${fmt(p.wallMs, 0)} ms — pushed ${p.answer.pushed}, skipped ${p.answer.skipped}, ` +
        `matchedBuyerRequests ${p.answer.matchedBuyerRequests}; match.created ${p.appendedByPush.matchCreated} (full ${p.appendedByPush.fullMatches}); ` +
        `lag 0 at ${fmt(p.untilLagZeroMs, 0)} ms after the push started`,
      `push < 5 s: ${B.target.met ? 'yes' : '**no**'}`,
    );
  }
  if (report.failures.length) lines.push('', `FAILURES: ${report.failures.join('; ')}`);
  lines.push('', `results: bench/results/${name} (total ${report.totalSeconds} s)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
