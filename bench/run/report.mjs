// What `npm run bench` reports: the app / baseline ratios against their targets, the JSON report
// (bench/results/latest.json) and the markdown tables printed on stdout.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { fmt, gitCommit } from '../lib/common.mjs';

import { APP_ROOT, RESULTS_DIR, settings } from './config.mjs';

/** The report of a run: `app` is the app's server process, `loadBefore` the load average at the start. */
export function buildReport({ started, loadBefore, seeded, results, failures, app }) {
  const ratio = (a, b) => (results[a] && results[b] ? results[a].reqPerSecMean / results[b].reqPerSecMean : null);
  const ratios = {
    post: ratio('post-app', 'post-baseline'),
    get: ratio('get-app', 'get-baseline'),
    // What authentication + rate limiting cost on the same route: 1.0 = nothing.
    getWithAuthVsWithout: ratio('get-app', 'get-app-noauth'),
  };
  const TARGET = 0.5;
  const targets_ = {
    post: { target: TARGET, ratio: ratios.post, met: ratios.post === null ? null : ratios.post >= TARGET },
    get: { target: TARGET, ratio: ratios.get, met: ratios.get === null ? null : ratios.get >= TARGET },
  };

  const appLog = app.linesAfterReady.slice();
  const cpu = cpus();
  const report = {
    date: new Date().toISOString(),
    command: process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : 'node bench/run.mjs',
    ok: failures.length === 0,
    failures,
    node: process.versions.node,
    appCommit: gitCommit(APP_ROOT, { untracked: false }),
    machine: {
      cpuModel: cpu[0]?.model ?? 'unknown',
      cpus: cpu.length,
      platform: `${platform()} ${release()}`,
      memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      loadavgBefore: loadBefore.map((x) => Math.round(x * 100) / 100),
      loadavgAfter: loadavg().map((x) => Math.round(x * 100) / 100),
    },
    settings: {
      ...settings,
      sqlite: 'WAL, synchronous=NORMAL, busy_timeout=5000 (both servers)',
      loadGenerator: 'autocannon (in the bench/run.mjs process, same machine)',
      appEnv:
        'LOG_LEVEL=warn, embedded SQLite stores, workers in-process (defaults); RATE_LIMIT_* = 1e9 (lifted, still counted)',
      appNoAuth: 'same build, same DATA_DIR, node --import bench/no-auth-preload.mjs (global guard = fixed caller)',
    },
    seeded,
    results,
    ratios,
    targets: targets_,
    appLogLinesDuringRun: appLog.length,
    appLogSample: appLog.slice(0, 10),
    totalSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
  return report;
}

export function writeReport(report) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
}

/** The markdown tables of a report, on stdout. */
export function printReport(report) {
  const { results, ratios, targets: targets_ } = report;
  const appLog = report.appLogSample;
  const appLogLines = report.appLogLinesDuringRun;
  const lines = [];
  lines.push(
    `Bench ${report.date} · node ${report.node} · ${report.machine.cpuModel} × ${report.machine.cpus} · ` +
      `${settings.durationSeconds} s × ${settings.connections} connections (warm-up ${settings.warmupSeconds} s) · ` +
      `${settings.seedRows} seed rows · limit=${settings.listLimit}`,
  );
  lines.push('');
  lines.push('| scenario | req/s (mean) | ± stddev | p50 ms | p99 ms | requests | non-2xx | errors | server CPU (cores) | server CPU µs/req |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const id of ['post-baseline', 'post-app', 'get-baseline', 'get-app', 'get-app-noauth']) {
    const r = results[id];
    if (!r) continue;
    lines.push(
      `| ${r.label} | ${fmt(r.reqPerSecMean)} | ${fmt(r.reqPerSecStddev)} | ${fmt(r.latencyMs.p50, 2)} | ${fmt(r.latencyMs.p99, 2)} | ` +
        `${r.requestsTotal} | ${r.non2xx} | ${r.errors} | ${fmt(r.serverCpuCores, 2)} | ${fmt(r.serverCpuUsPerRequest, 0)} |`,
    );
  }
  lines.push('');
  lines.push('| ratio app / baseline (req/s) | value | target | met? |');
  lines.push('|---|---:|---:|---|');
  for (const [k, v] of Object.entries(targets_)) {
    if (v.ratio === null) continue;
    lines.push(`| ${k.toUpperCase()} | ${fmt(v.ratio, 2)} | ≥ ${v.target} | ${v.met ? 'yes' : '**no**'} |`);
  }
  if (ratios.getWithAuthVsWithout !== null) {
    const a = results['get-app'];
    const b = results['get-app-noauth'];
    lines.push('');
    lines.push('| auth + rate limiting on GET | req/s ratio with / without | server CPU µs/req with / without |');
    lines.push('|---|---:|---:|');
    lines.push(
      `| GET /api/v1/buyer-requests | ${fmt(ratios.getWithAuthVsWithout, 2)} | ` +
        `${fmt(a.serverCpuUsPerRequest, 0)} / ${fmt(b.serverCpuUsPerRequest, 0)} |`,
    );
  }
  lines.push('');
  if (appLogLines > 0) lines.push(`app logged ${appLogLines} line(s) during the run, e.g. ${appLog[0].slice(0, 200)}`);
  lines.push(`results: bench/results/latest.json (total ${report.totalSeconds} s)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
