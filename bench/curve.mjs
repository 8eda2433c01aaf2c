// `npm run bench:curve`: how cost grows (issue 20, item 6) — the write and read paths of the real
// built app at 10k, 100k and 1M inventory items and at rising fixed rates, drawn as curves.
//
// For each size: a fresh temp DATA_DIR, a workspace + key with the real CLI, N items seeded straight
// into the event log (bench/seed/seed-log.mjs, as bench:scale A; plus a small second workspace),
// the app started on it and caught up (bench/scale/app.mjs). Then, for each path —
//   write   POST /api/v1/buyer-requests, a fresh generated body per request (as bench:scale A)
//   read    GET /api/v1/buyer-requests?limit=20 (as bench:run's GET)
//   search  GET /api/v1/inventory?cardName=<card>&limit=20 (the read whose work grows with items)
// — a short warm-up, then open-loop runs at each fixed rate in turn (even spacing, latency from each
// request's due time: bench/scale/load.mjs `openLoop`), stopping after the first rate the app does
// not keep up with (achieved < 90 % of offered: the knee), then a saturated closed loop
// (autocannon, BENCH_CURVE_CONNECTIONS connections). Per point: p50/p90/p99, the achieved rate and
// the app's CPU µs per 2xx answer (user + system, from /proc, counted until its projections and
// process managers are caught up again, so a write's asynchronous work is in it; the figure inside
// the load window alone beside it). Every point starts on a caught-up app after a quiet-machine wait.
// The bare-Fastify baseline (bench/baseline-server.mjs) is swept the same way once per run.
// Any non-2xx answer or socket error fails the run (after the report is written).
//
// Writes bench/results/curve/<run>.json and <run>.svg (bench/curve/svg.mjs; redraw with notes:
// `node bench/curve/svg.mjs bench/results/curve/<run>.json <notes.txt>`).
//
// Env:
//   BENCH_CURVE_SIZES        10000,100000,1000000   inventory items, one app per size
//   BENCH_CURVE_RATES        50,100,200,400,800      fixed rates (req/s), in rising order
//   BENCH_CURVE_PATHS        write,read,search
//   BENCH_CURVE_SECONDS      6                       per point
//   BENCH_CURVE_WARMUP       2                       s of warm-up per path, at the lowest rate
//   BENCH_CURVE_CONNECTIONS  20                      open loop: at most this many sockets; saturated: this many
//   BENCH_CURVE_QUIET_WAIT   20                      s to wait, before each point, for a quiet machine
//   BENCH_CURVE_BASELINE     1                       0 = no baseline sweep
//   BENCH_CURVE_OTHER_ITEMS  5000, BENCH_CURVE_OTHER_REQUESTS 1000   the second workspace
//   BENCH_CURVE_SEED         1
//   BENCH_CURVE_OUT          curve-<n>               run name (files under bench/results/curve/)
//   BENCH_TIMEOUT            5400                    s, hard limit for the whole run
//   BENCH_APP_ROOT           this repo               build to benchmark; BENCH_SCALE_CATCHUP_TIMEOUT as bench:scale
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { runBaseline, runSize } from './curve/sizes.mjs';
import { drawCurve } from './curve/svg.mjs';
import { fmt, gitCommit, intEnv, runMain } from './lib/common.mjs';
import { cleanup, cleanupOnExit, snapshotBuild } from './lib/resources.mjs';
import { RESULTS_DIR, SOURCE_ROOT } from './scale/config.mjs';
import { distHash, uncommitted } from './scale/report.mjs';
import { loadCatalog } from './seed/generator.mjs';

const list = (name, fallback) => (process.env[name] || fallback).split(',').map((s) => s.trim()).filter(Boolean);
const numbers = (name, fallback) =>
  list(name, fallback).map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: "${s}" is not a positive integer`);
    return n;
  });

const settings = {
  sizes: numbers('BENCH_CURVE_SIZES', '10000,100000,1000000'),
  rates: numbers('BENCH_CURVE_RATES', '50,100,200,400,800').sort((a, b) => a - b),
  paths: list('BENCH_CURVE_PATHS', 'write,read,search'),
  durationSeconds: intEnv('BENCH_CURVE_SECONDS', 6, 1),
  warmupSeconds: intEnv('BENCH_CURVE_WARMUP', 2, 0),
  connections: intEnv('BENCH_CURVE_CONNECTIONS', 20, 1),
  quietWaitSeconds: intEnv('BENCH_CURVE_QUIET_WAIT', 20, 0),
  baseline: process.env.BENCH_CURVE_BASELINE !== '0',
  otherItems: intEnv('BENCH_CURVE_OTHER_ITEMS', 5000),
  otherRequests: intEnv('BENCH_CURVE_OTHER_REQUESTS', 1000),
  seed: intEnv('BENCH_CURVE_SEED', 1),
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 5400, 60),
};
const CURVE_DIR = join(RESULTS_DIR, 'curve');
const log = (msg) => process.stderr.write(`[curve ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

function runName() {
  if (process.env.BENCH_CURVE_OUT) return process.env.BENCH_CURVE_OUT;
  mkdirSync(CURVE_DIR, { recursive: true });
  const taken = new Set(readdirSync(CURVE_DIR));
  let n = 1;
  while (taken.has(`curve-${n}.json`)) n += 1;
  return `curve-${n}`;
}

function printTable(report) {
  const rows = ['| size | path | rates kept up (req/s) | fell behind at | p99 at the lowest rate | saturated req/s | saturated p99 | CPU µs/req saturated |', '|---|---|---|---|---|---|---|---|'];
  const add = (size, sw) =>
    rows.push(
      `| ${size} | ${sw.path} | ${sw.points.filter((p) => p.keptUp).map((p) => p.offeredRate).join(', ') || '—'} | ${sw.kneeRate ?? '—'} | ` +
        `${fmt(sw.points[0]?.latencyMs.p99, 2)} ms | ${fmt(sw.saturated.achievedRate, 0)} | ${fmt(sw.saturated.latencyMs.p99, 1)} ms | ${sw.saturated.cpuUsPerRequest} |`,
    );
  for (const s of report.sizes) for (const sw of Object.values(s.sweeps)) add(s.items.toLocaleString('en'), sw);
  for (const sw of Object.values(report.baseline?.sweeps ?? {})) add('baseline', sw);
  process.stdout.write(`\n${rows.join('\n')}\n`);
}

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:curve puts it on PATH)`);
  const started = Date.now();
  const appRoot = snapshotBuild(SOURCE_ROOT, 'curve-app-', ['dist/apps/api/src/main.js', 'dist/apps/cli/src/main.js']);
  const catalog = loadCatalog();
  const name = runName();
  mkdirSync(CURVE_DIR, { recursive: true });
  log(`settings ${JSON.stringify(settings)}; build snapshot ${appRoot}; results → bench/results/curve/${name}.{json,svg}`);
  const report = {
    runName: name,
    date: new Date().toISOString(),
    command: [
      ...Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')).map(([k, v]) => `${k}=${v}`),
      process.env.npm_lifecycle_event === 'bench:curve' ? 'npm run bench:curve' : 'node bench/curve.mjs',
    ].join(' '),
    node: process.versions.node,
    appCommit: gitCommit(SOURCE_ROOT, { countPaths: true }),
    appUncommittedSources: uncommitted(SOURCE_ROOT),
    appBuild: distHash(appRoot),
    machine: { cpuModel: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${platform()} ${release()}`, memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10, loadavgBefore: loadavg() },
    settings,
    method: 'bench/curve.mjs (header comment)',
    baseline: null,
    sizes: [],
    ok: true,
    failures: [],
  };
  const write = () => {
    report.totalSeconds = Math.round((Date.now() - started) / 1000);
    report.machine.loadavgAfter = loadavg();
    writeFileSync(join(CURVE_DIR, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    if (report.sizes.length > 0) writeFileSync(join(CURVE_DIR, `${name}.svg`), drawCurve(report));
  };
  try {
    if (settings.baseline) {
      report.baseline = await runBaseline(catalog, { settings, log });
      report.failures.push(...Object.values(report.baseline.sweeps).flatMap((s) => s.failures));
      write();
    }
    for (const items of settings.sizes) {
      const size = await runSize(appRoot, catalog, items, { settings, log });
      report.sizes.push(size);
      report.failures.push(...Object.values(size.sweeps).flatMap((s) => s.failures));
      write();
    }
  } catch (error) {
    report.failures.push(error instanceof Error ? error.message : String(error));
    log(`FAILED: ${error instanceof Error ? error.stack : String(error)}`);
  }
  report.ok = report.failures.length === 0;
  write();
  printTable(report);
  log(`bench/results/curve/${name}.json, .svg; ${report.totalSeconds} s`);
  if (!report.ok) throw new Error(`failures:\n  ${report.failures.join('\n  ')}`);
}

cleanupOnExit(log);
runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
