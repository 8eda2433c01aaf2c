// The tables `npm run bench:peer-stack` prints: each side per workload, then ours against the best
// peer wiring (the goal: ours ≥ 1.5× its 2xx/s). Renders a saved report too:
//   node bench/peer/stack-report.mjs bench/results/peer-stack-latest.json
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { fmt } from '../lib/common.mjs';

export const PEERS = ['emmett-samples', 'emmett-leased'];
export const LABELS = { 'get-list': 'GET list (limit=20)', 'get-id': 'GET by id', post: 'POST' };
export const GOAL = 1.5;

const round = (x, d = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);

export function compare(results, workloads) {
  const by = Object.fromEntries(results.map((r) => [r.side, r]));
  const rows = [];
  const misses = [];
  for (const kind of workloads) {
    const ours = by.ours?.workloads[kind];
    const peers = PEERS.filter((p) => by[p]?.workloads[kind]).map((p) => ({ side: p, ...by[p].workloads[kind] }));
    if (!ours || peers.length === 0) continue;
    const best = peers.reduce((a, b) => (b.okPerSecond > a.okPerSecond ? b : a));
    const ratio = round(ours.okPerSecond / best.okPerSecond);
    const row = {
      workload: kind,
      bestPeer: best.side,
      reqPerSecond: ratio,
      goal: GOAL,
      met: ratio >= GOAL,
      // < 1: ours costs less CPU per answer, answers faster at the tail.
      cpuPerRequest: round(ours.serverCpuUsPerRequest / best.serverCpuUsPerRequest),
      p99: round(ours.latencyMs.p99 / best.latencyMs.p99),
    };
    rows.push(row);
    if (!row.met) misses.push(`${LABELS[kind]}: ours/${best.side} ${fmt(ratio, 2)}× < ${GOAL}×`);
  }
  return { rows, misses };
}

export function markdown(results, comparison, workloads) {
  const lines = [
    '| workload | side | 2xx/s | p50 ms | p99 ms | server CPU µs/req | server CPU cores | non-2xx | socket errors / timeouts | p99 ms, all answers | others\' cores |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const kind of workloads) {
    for (const r of results) {
      const w = r.workloads[kind];
      if (!w) continue;
      const non2xx = w.non2xx ? Object.entries(w.statusCodes).filter(([k]) => !k.startsWith('2')).map(([k, v]) => `${v} × ${k}`).join(', ') : '0';
      lines.push(
        `| ${LABELS[kind]} | ${r.side} | ${fmt(w.okPerSecond, 0)} | ${fmt(w.latencyMs.p50, 2)} | ${fmt(w.latencyMs.p99, 2)} | ` +
          `${fmt(w.serverCpuUsPerRequest, 0)} | ${fmt(w.serverCpuCores, 2)} | ${non2xx} | ${w.errors} / ${w.timeouts} | ${fmt(w.allAnswersLatencyMs.p99, 2)} | ${fmt(w.othersCores, 2)} |`,
      );
    }
  }
  if (comparison.rows.length === 0) return lines.join('\n');
  lines.push('', '| workload | best peer wiring | ours/peer 2xx/s | goal | CPU per request ours/peer | p99 ours/peer |', '| --- | --- | ---: | --- | ---: | ---: |');
  for (const c of comparison.rows) {
    lines.push(`| ${LABELS[c.workload]} | ${c.bestPeer} | ${fmt(c.reqPerSecond, 2)}× | ≥ ${c.goal}× ${c.met ? '✔' : '✘'} | ${fmt(c.cpuPerRequest, 2)} | ${fmt(c.p99, 2)} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  process.stdout.write(`${markdown(report.results, compare(report.results, report.settings.workloads), report.settings.workloads)}\n`);
}
