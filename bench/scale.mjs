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
// Env (defaults = the volumes):
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
//
// The parts, under scale/: config (paths, settings), processes, system (/proc), catch-up (read.db
// checkpoints), app (start-up catch-up), instruments (profile, SQL timing), load, scenario-a,
// scenario-b, report; shared helpers in lib/, the data model in seed/.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { gitCommit, runMain } from './lib/common.mjs';
import { children, cleanup, cleanupOnExit, keepTempDirs, snapshotBuild } from './lib/resources.mjs';
import { loadCatalog } from './seed/generator.mjs';
import { log, outName, RESULTS_DIR, round, settings, SOURCE_ROOT } from './scale/config.mjs';
import { commandLine, distHash, printSummary, uncommitted } from './scale/report.mjs';
import { scenarioA } from './scale/scenario-a.mjs';
import { scenarioB } from './scale/scenario-b.mjs';

// Everything started here is killed on exit, failure or signal; BENCH_SCALE_KEEP keeps the DATA_DIRs.
keepTempDirs((dir) => settings.keep && dir.includes('scale-data-'));
cleanupOnExit(log);

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
    appCommit: gitCommit(SOURCE_ROOT, { countPaths: true }),
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

runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
