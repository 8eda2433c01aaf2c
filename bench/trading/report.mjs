// What `npm run bench:trading` reports: bench/results/trading-latest.json and markdown tables on stdout.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';

import { fmt, gitCommit } from '../lib/common.mjs';

import { RESULTS_DIR, RESULTS_FILE, settings } from './config.mjs';

const la = (l) => l.map((x) => Math.round(x * 100) / 100);

export function buildReport({ started, loadBefore, parts, failures, app }) {
  const cpu = cpus();
  return {
    date: new Date().toISOString(),
    command: process.env.npm_lifecycle_event === 'bench:trading' ? 'npm run bench:trading' : 'node bench/trading.mjs',
    ok: failures.length === 0,
    failures,
    node: process.versions.node,
    appCommit: gitCommit(settings.appRoot, { untracked: false }),
    machine: {
      cpuModel: cpu[0]?.model ?? 'unknown',
      cpus: cpu.length,
      platform: `${platform()} ${release()}`,
      memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      loadavgBefore: la(loadBefore),
      loadavgAfter: la(loadavg()),
    },
    settings: {
      ...settings,
      sqlite: 'WAL, synchronous=NORMAL, busy_timeout=5000 (both servers)',
      loadGenerator: 'autocannon (in the bench/trading.mjs process, same machine), pipelining 1',
      appEnv: `LOG_LEVEL=warn, embedded SQLite stores, workers in-process (defaults), TIMER_POLL_MS=${settings.timerPollMs}; RATE_LIMIT_* = 1e9 (lifted, still counted)`,
    },
    ...parts,
    appLogLinesDuringRun: app?.linesAfterReady.length ?? 0,
    appLogSample: app?.linesAfterReady.slice(0, 10) ?? [],
    totalSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

export function writeReport(report) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
}

export function printReport(report) {
  const lines = [];
  const m = report.machine;
  lines.push(
    `Trading bench ${report.date} · node ${report.node} · app ${report.appCommit} · ${m.cpuModel} × ${m.cpus} · ` +
      `load average before ${m.loadavgBefore.join(' ')}, after ${m.loadavgAfter.join(' ')}`,
  );
  const L = report.lifecycles;
  if (L) {
    const f = L.lifecycles;
    lines.push('');
    lines.push(
      `${f ? 'Lifecycles' : 'POST'}: ${settings.durationSeconds} s × ${settings.connections} connections (warm-up ${settings.warmupSeconds} s)` +
        (L.seeding ? `; ${L.seeding.items} items seeded in ${L.seeding.totalSeconds} s, ${L.seeding.used} used` : ''),
    );
    lines.push('');
    lines.push('| scenario | req/s (mean) | lifecycles/s | p50 ms | p99 ms | requests | non-2xx | server CPU (cores) | server CPU µs/req | server CPU ms/lifecycle | other load (cores) |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, b] of [['POST baseline', L.baselinePost], ['POST app (buyer request)', L.appPost]]) {
      if (!b) continue;
      lines.push(
        `| ${name} | ${fmt(b.reqPerSecMean)} | — | ${fmt(b.latencyMs.p50, 2)} | ${fmt(b.latencyMs.p99, 2)} | ${b.requestsTotal} | ${b.non2xx} | ` +
          `${fmt(b.serverCpuCores, 2)} | ${fmt(b.serverCpuUsPerRequest, 0)} | — | ${fmt(b.machine.otherCores, 2)} |`,
      );
    }
  }
  if (L?.lifecycles) {
    const f = L.lifecycles;
    lines.push(
      `| trade lifecycles (app) | ${fmt(f.reqPerSecMean)} | ${fmt(f.lifecyclesPerSec)} | ${fmt(f.latencyMs.p50, 2)} | ${fmt(f.latencyMs.p99, 2)} | ${f.requestsTotal} | ${f.non2xx} | ` +
        `${fmt(f.serverCpuCores, 2)} | ${fmt(f.serverCpuUsPerRequest, 0)} | ${fmt(f.serverCpuMsPerLifecycle, 2)} | ${fmt(f.machine.otherCores, 2)} |`,
    );
    lines.push('');
    lines.push('| request | p50 ms | p99 ms | samples |');
    lines.push('|---|---:|---:|---:|');
    lines.push(`| POST /api/v1/trades (create) | ${fmt(f.createLatencyMs.p50, 2)} | ${fmt(f.createLatencyMs.p99, 2)} | ${f.createLatencyMs.samples} |`);
    lines.push(`| POST /api/v1/trades/:id/transitions (all 5) | ${fmt(f.transitionLatencyMs.p50, 2)} | ${fmt(f.transitionLatencyMs.p99, 2)} | ${f.transitionLatencyMs.samples} |`);
    for (const to of ['paid', 'shipped', 'delivered', 'completed', 'settled']) {
      const k = f.perKind[to];
      lines.push(`| → ${to} | ${fmt(k.p50, 2)} | ${fmt(k.p99, 2)} | ${k.samples} |`);
    }
    lines.push('');
    lines.push(`ratio app req/s during lifecycles ÷ baseline POST req/s: **${fmt(L.ratio.appLifecycleReqPerSecOverBaselinePost, 2)}**`);
    const s = L.perStep;
    if (s) {
      lines.push('');
      lines.push('| per step (issue 20: ≤ 2× a buyer-request POST) | lifecycle step | buyer-request POST | step ÷ POST |');
      lines.push('|---|---:|---:|---:|');
      lines.push(`| app CPU µs / request | ${fmt(s.appCpuUsPerRequest.step, 0)} | ${fmt(s.appCpuUsPerRequest.post, 0)} | **${fmt(s.appCpuUsPerRequest.ratio, 2)}** |`);
      lines.push(`| p50 ms | ${fmt(s.p50Ms.step, 2)} | ${fmt(s.p50Ms.post, 2)} | **${fmt(s.p50Ms.ratio, 2)}** |`);
      lines.push(`| p99 ms | ${fmt(s.p99Ms.step, 2)} | ${fmt(s.p99Ms.post, 2)} | **${fmt(s.p99Ms.ratio, 2)}** |`);
      lines.push(`| req/s | ${fmt(s.reqPerSec.step)} | ${fmt(s.reqPerSec.post)} | ${fmt(1 / s.reqPerSec.postOverStep, 2)} |`);
      lines.push('');
      lines.push(
        `create ÷ POST: p50 ${fmt(s.create.p50Ratio, 2)}, p99 ${fmt(s.create.p99Ratio, 2)}; transition ÷ POST: p50 ${fmt(s.transition.p50Ratio, 2)}, p99 ${fmt(s.transition.p99Ratio, 2)}; ` +
          `goal ≤ 2× (CPU, p50, p99): ${s.met ? 'met' : '**missed**'}`,
      );
    }
    for (const p of [L.appPost?.profile, f.profile].filter(Boolean)) lines.push(`profile: ${p.summary}`);
  }
  const H = report.holds;
  if (H) {
    const r = H.release;
    lines.push('');
    lines.push(
      `Holds: ${H.holds} holds expiring at ${H.T}; items seeded in ${H.seeding.totalSeconds} s; pilot ${settings.pilotHolds} (last ${H.pilot.holds} timed: ${fmt(H.pilot.perSecFirstToLast, 0)}/s); ` +
        `placed in ${H.placing.seconds} s (${fmt(H.placing.perSec, 0)}/s, p50 ${H.placing.latencyMs.p50} ms, p99 ${H.placing.latencyMs.p99} ms), ${fmt(H.placing.slackBeforeTSeconds, 1)} s before T`,
    );
    lines.push('');
    lines.push('| from T to … | ms |');
    lines.push('|---|---:|');
    lines.push(`| first hold.expired appended | ${r.holdExpiredAppends.firstMs ?? 'n/a'} |`);
    lines.push(`| half appended | ${r.holdExpiredAppends.p50Ms ?? 'n/a'} |`);
    lines.push(`| last hold.expired appended | ${r.holdExpiredAppends.lastMs ?? 'n/a'} |`);
    lines.push(`| **all released in the read models** (probe every ${r.resolutionMs} ms) | **${r.allReleasedAfterTMs ?? 'not within the time-out'}** |`);
    lines.push('');
    lines.push(
      `hold.expired per second after T: ${r.holdExpiredAppends.perSecond.join(', ')}; app CPU over the window ${fmt(r.machine.appCores, 2)} cores, ` +
        `other load ${fmt(r.machine.otherCores, 2)} cores; expired holds listed by the API: ${r.expiredListedByApi}`,
    );
    lines.push(`target: all ${H.holds} released ≤ ${r.targetSeconds} s after T — ${r.met ? 'met' : '**missed**'}`);
    if (H.profile) lines.push(`profile of the window: ${H.profile.summary}`);
    if (H.sqlPerHold) {
      lines.push('');
      lines.push(`SQL over the window per hold expiry: ${fmt(H.sqlPerHold.totalUsPer, 1)} µs (BENCH_TRADING_SQL_TIMING=1; the costliest statements):`);
      lines.push('');
      lines.push('| µs / hold | calls / hold | mean µs | statement |');
      lines.push('|---:|---:|---:|---|');
      for (const r of H.sqlPerHold.top.slice(0, 15)) lines.push(`| ${fmt(r.usPer, 1)} | ${fmt(r.callsPer, 2)} | ${fmt(r.meanUs, 1)} | \`${r.sql.slice(0, 140).replace(/\|/g, '\\|')}\` |`);
    }
  }
  lines.push('');
  if (report.appLogLinesDuringRun > 0) lines.push(`app logged ${report.appLogLinesDuringRun} line(s), e.g. ${report.appLogSample[0]?.slice(0, 200)}`);
  lines.push(`results: bench/results/trading-latest.json (total ${report.totalSeconds} s)${report.ok ? '' : ` — FAILED: ${report.failures.join('; ')}`}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
