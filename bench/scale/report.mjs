// What `npm run bench:scale` records and prints: the build measured (content hash, uncommitted
// sources), the command line, and the markdown summary of the scenarios.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { fmt } from '../lib/common.mjs';

import { PM_NAME } from './config.mjs';

/** A content hash of the snapshotted dist/ (which build exactly was measured) and its file count. */
export function distHash(appRoot) {
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
export function uncommitted(dir) {
  try {
    return execFileSync('git', ['status', '--porcelain', '--', 'apps', 'libs'], { cwd: dir, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.trim());
  } catch {
    return [];
  }
}

export function commandLine() {
  const envs = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .map(([k, v]) => `${k}=${v}`);
  const base = process.env.npm_lifecycle_event === 'bench:scale' ? 'npm run bench:scale' : 'node bench/scale.mjs';
  return [...envs, base].join(' ');
}

export function printSummary(report, name) {
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
    if (A.memory) {
      const mem = (m) => `VmRSS ${m.rssMiB} MiB (anon ${m.anonMiB}, file ${m.fileMiB}, shmem ${m.shmemMiB}), VmHWM ${m.peakRssMiB} MiB`;
      lines.push(
        `app memory after catch-up: ${mem(A.memory.afterCatchUp)}; after the load: ${mem(A.memory.afterLoad)}; after the drain: ${mem(A.memory.afterDrain)}`,
        `app peak RSS ${A.memory.peakRssMiB} MiB (sampled peak ${A.memory.sampledPeak.rssMiB} MiB during ${A.memory.sampledPeak.phase}) — under 1 GiB: ${A.memory.under1GiB ? 'yes' : '**no**'}`,
      );
      const after = A.memory.residentByMapping?.afterLoad;
      if (after) lines.push(`resident by mapping after the load (MiB): ${Object.entries(after).map(([n, m]) => `${n} ${m}`).join(', ')}`);
    }
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
      `push < 3 s (issue 20): ${B.target.met ? 'yes' : '**no**'}`,
    );
  }
  if (report.failures.length) lines.push('', `FAILURES: ${report.failures.join('; ')}`);
  lines.push('', `results: bench/results/${name} (total ${report.totalSeconds} s)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
