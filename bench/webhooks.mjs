// `npm run bench:webhooks`: the webhook dispatcher against the real built app, with a baseline
// measured in the same run, on this machine.
//
//   baseline    a plain node:http keep-alive client (a worker thread of this process) POSTs a
//               ~600-byte signed JSON body (both signature headers computed per request) to the
//               same in-process receiver the app delivers to, 8 in flight (the dispatcher's
//               per-endpoint limit), N requests: the ceiling of the client + receiver pair here.
//   throughput  one webhook for `inventory.created`; N events produced as fast as possible by intake
//               pushes (sessions of WEBHOOK_BENCH_ROWS_PER_PUSH rows, filled before the clock
//               starts, then pushed back to back); production rate, delivery rate (overall and
//               p10–p90 of arrivals), drain after the last push, end-to-end lag (arrival −
//               envelope created_at), app CPU.
//   backlog     the same N events, but the receiver answers every first attempt 503 with
//               `Retry-After: <one HTTP-date T>` (schedule 0,1s,1s), so every delivery falls due
//               at the same instant T, after all first attempts; from T it answers 200: the drain
//               rate of an N-delivery backlog is what the dispatcher can push when production is
//               not the limit.
//   split       the throughput scenario with the production topology: the API with
//               RUN_WORKERS=false (HTTP only) and a worker process (dist/apps/worker: projections,
//               fan-out, deliveries) on the same DATA_DIR, so the two share the machine's cores;
//               CPU is the sum of both processes.
//   isolation   M events to `/fast` (200) while `/slow` (never answers; WEBHOOK_TIMEOUT_MS=2000)
//               subscribes to the same events, three fresh apps: /fast alone (control), /slow on
//               the same host:port as /fast, /slow on another port of 127.0.0.1 (a different
//               origin). /fast's rate and lag against the control; /slow's attempts and concurrency.
//
// The receiver (node:http, in this process) answers 'ok', verifies each `x-service-signature`
// (and the Standard Webhooks `webhook-signature`) with node:crypto, counts bad ones and
// duplicates (a 2xx for a `webhook-id` that already had one). Each scenario runs on a fresh app
// (temp DATA_DIR, random port, workspace + key through the CLI), from a snapshot of dist/ taken at
// the start (others may rebuild during the run); the app's output goes to a log file under
// $TMPDIR/bench-webhooks-<stamp>/ (kept, path printed) and its error/warn lines are reported.
// It runs `npm run build` first (BENCH_SKIP_BUILD=1 to skip), waits briefly for a quiet machine
// before each measurement and reports the CPU others used during it; a scenario whose app is
// stopped from outside (others share the machine) is run once more, and the retry is reported.
// Output: a markdown summary on stdout, the two goals judged (≥ 1,000 deliveries/s; /fast keeps
// flowing, i.e. all delivered at ≥ half its rate alone), the full figures in a JSON file. Exit 1 on
// any bad signature, duplicate delivery or envelope/header id mismatch (or a crash); goals not met
// are results, not failures.
//
// Env:
//   WEBHOOK_BENCH_EVENTS             20000  N: events of throughput and backlog, requests of baseline
//   WEBHOOK_BENCH_ISOLATION_EVENTS   2000   M: events per isolation app
//   WEBHOOK_BENCH_ROWS_PER_PUSH      1000   rows per intake session (one push each)
//   WEBHOOK_BENCH_ONLY               baseline,throughput,split,backlog,isolation
//   WEBHOOK_BENCH_DRAIN_TIMEOUT      150    s: how long throughput / backlog wait for their deliveries
//   WEBHOOK_BENCH_ISOLATION_WAIT     30     s: how long an isolation app waits for /fast's deliveries
//   WEBHOOK_BENCH_HOLD_SECONDS       0      backlog: T − start in s (0: from the throughput scenario's rate)
//   WEBHOOK_BENCH_QUIET_WAIT         20     s: before each measurement, wait up to this long for the
//                                           machine to be quiet (< 0.25 core used by others)
//   WEBHOOK_BENCH_SLOW_TIMEOUT_MS    2000   the app's WEBHOOK_TIMEOUT_MS in the isolation apps
//   WEBHOOK_BENCH_OUT                $TMPDIR/bench-webhooks-<stamp>/results.json
//   BENCH_TIMEOUT                    600    s: hard limit for the whole run (watchdog)
//   BENCH_APP_ROOT                   this repo: a directory holding dist/ + node_modules/
//   BENCH_SKIP_BUILD                 ''     1 = use dist/ as it is (default: `npm run build` first)
// Other app settings in the environment (e.g. WEBHOOK_POLL_MS, SQLITE_*) reach the apps as they are
// (recorded under inheritedAppEnv); the bench sets WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS,
// WEBHOOK_CONCURRENCY_PER_ENDPOINT=8, the rate limits (lifted), and per scenario
// WEBHOOK_RETRY_SCHEDULE (backlog) / WEBHOOK_TIMEOUT_MS (isolation).
//
// The parts, under webhooks/: config, signing, stats, receiver, app (processes), machine (CPU, quiet
// waits, build), api (calls on the app), scenarios (baseline, throughput, split, backlog), isolation,
// report, and baseline-client (the baseline's worker thread); shared helpers in lib/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname } from 'node:path';

import { gitCommit, runMain } from './lib/common.mjs';
import { cleanup, cleanupOnExit, snapshotBuild } from './lib/resources.mjs';
import { rowMaker } from './webhooks/api.mjs';
import { AppExited } from './webhooks/app.mjs';
import { LOG_DIR, log, OUT, ROOT, settings, SOURCE_ROOT } from './webhooks/config.mjs';
import { scenarioIsolation } from './webhooks/isolation.mjs';
import { build, webhooksBuildHash } from './webhooks/machine.mjs';
import { Receiver } from './webhooks/receiver.mjs';
import { goals, summaryLines } from './webhooks/report.mjs';
import { scenarioBacklog, scenarioBaseline, scenarioThroughput } from './webhooks/scenarios.mjs';
import { round } from './webhooks/stats.mjs';

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:webhooks puts it on PATH)`);
  const started = Date.now();
  if (!settings.skipBuild && SOURCE_ROOT === ROOT) {
    log('npm run build …');
    build();
  }
  const appRoot = snapshotBuild(SOURCE_ROOT, 'bench-webhooks-app-', ['dist/apps/api/src/main.js', 'dist/apps/worker/src/main.js', 'dist/apps/cli/src/main.js', 'dist/libs/webhooks/src/delivery/delivery-worker.js']);
  const cpu = cpus();
  const report = {
    date: new Date().toISOString(),
    command: process.env.npm_lifecycle_event === 'bench:webhooks' ? 'npm run bench:webhooks' : 'node bench/webhooks.mjs',
    node: process.versions.node,
    appCommit: gitCommit(SOURCE_ROOT),
    webhooksBuild: webhooksBuildHash(appRoot),
    machine: {
      cpuModel: cpu[0]?.model ?? 'unknown',
      cpus: cpu.length,
      platform: `${platform()} ${release()}`,
      memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      loadavgBefore: loadavg().map((x) => round(x, 2)),
    },
    settings,
    // App settings inherited from this process's environment (they override the app's defaults).
    inheritedAppEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(WEBHOOK_(?!BENCH_)|SQLITE_|SUBSCRIPTION_|RUN_WORKERS)/.test(k))),
    results: {},
    failures: [],
    incomplete: [],
  };
  log(`settings: N=${settings.events}, M=${settings.isolationEvents}, ${settings.rowsPerPush} rows per push, scenarios ${settings.only.join(',')}; logs in ${LOG_DIR}`);
  const receiver = await new Receiver().start();
  const nextRow = await rowMaker();
  const want = (s) => settings.only.includes(s);

  // Others share this machine: an app stopped from outside the bench gets one more try, recorded.
  const retried = [];
  const once = async (name, fn) => {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof AppExited)) throw error;
      log(`${name}: ${error.message}; running the scenario again`);
      retried.push(`${name}: ${error.message}`);
      return fn();
    }
  };
  if (want('baseline')) report.results.baseline = await scenarioBaseline(receiver);
  if (want('throughput')) report.results.throughput = await once('throughput', () => scenarioThroughput(appRoot, receiver, nextRow));
  if (want('split')) report.results.split = await once('split', () => scenarioThroughput(appRoot, receiver, nextRow, { split: true }));
  if (want('backlog')) {
    const rate = report.results.throughput?.deliveries.deliveriesPerSecondOverall ?? 200;
    report.results.backlog = await once('backlog', () => scenarioBacklog(appRoot, receiver, nextRow, rate));
  }
  if (want('isolation')) report.results.isolation = await once('isolation', () => scenarioIsolation(appRoot, receiver, nextRow));
  report.retried = retried;
  await receiver.stop();

  // Correctness: every scenario's receiver must have seen 0 bad signatures, 0 duplicates, and all deliveries.
  const check = (name, rc, complete) => {
    if (rc.badSignatures || rc.badStandardSignatures) report.failures.push(`${name}: ${rc.badSignatures} bad x-service-signature, ${rc.badStandardSignatures} bad webhook-signature`);
    if (rc.duplicates) report.failures.push(`${name}: ${rc.duplicates} duplicate deliveries`);
    if (rc.idMismatches) report.failures.push(`${name}: ${rc.idMismatches} bodies whose id is not the webhook-id header`);
    if (complete === false) report.incomplete.push(name);
  };
  const r = report.results;
  if (r.baseline) check('baseline', r.baseline.receiver, r.baseline.receiver.distinctDelivered === r.baseline.requests);
  if (r.throughput) check('throughput', r.throughput.receiver, r.throughput.deliveries.complete);
  if (r.split) check('split', r.split.receiver, r.split.deliveries.complete);
  if (r.backlog) check('backlog', r.backlog.receiver, r.backlog.drain.complete);
  for (const [k, v] of Object.entries(r.isolation ?? {})) {
    check(`isolation ${k} /fast`, v.fast.receiver, v.fast.complete);
    if (v.slow) check(`isolation ${k} /slow`, { ...v.slow.receiver, duplicates: 0 }, null);
  }
  report.goals = goals(report);
  report.machine.loadavgAfter = loadavg().map((x) => round(x, 2));
  report.totalSeconds = round((Date.now() - started) / 1000, 1);

  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  const lines = summaryLines(report);
  lines.push('');
  for (const g of report.goals) lines.push(`goal: ${g.text} → ${g.met === null ? 'n/a' : g.met ? 'MET' : 'NOT MET'}`);
  if (report.incomplete.length) lines.push(`incomplete (not every delivery arrived in the wait): ${report.incomplete.join(', ')}`);
  lines.push('');
  const appLogs = [r.throughput, r.backlog, ...Object.values(r.isolation ?? {})].filter(Boolean).map((x) => x.appLog);
  for (const a of appLogs) if (a.errorLines || a.warnLines) lines.push(`app log ${a.log}: ${a.errorLines} error line(s), ${a.warnLines} warn line(s), e.g. ${a.sample[0]?.slice(0, 240)}`);
  for (const x of report.retried) lines.push(`retried: ${x}`);
  if (report.failures.length) lines.push(`FAILURES:\n  ${report.failures.join('\n  ')}`);
  lines.push(`results: ${OUT} (total ${report.totalSeconds} s)`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (report.failures.length) throw new Error(`${report.failures.length} check(s) failed (see above)`);
}

cleanupOnExit(log);
runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
