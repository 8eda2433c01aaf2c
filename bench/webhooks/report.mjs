// What `npm run bench:webhooks` prints and judges: the markdown summary tables and the two goals.
import { fmt } from '../lib/common.mjs';

import { settings } from './config.mjs';
import { round } from './stats.mjs';

export function summaryLines(report) {
  const r = report.results;
  const L = [];
  const row = (...cells) => L.push(`| ${cells.join(' | ')} |`);
  L.push(`Webhooks bench ${report.date} · node ${report.node} · ${report.machine.cpuModel} × ${report.machine.cpus} · app ${report.appCommit} · webhooks build ${report.webhooksBuild}`);
  L.push('');
  row('scenario', 'events', 'produced /s', 'delivered', 'delivered /s overall', '/s p10–p90', 'lag p50 ms', 'lag p99 ms', 'lag max ms', 'app CPU (cores)', 'app CPU ms / delivery', 'others (cores)', 'bad sig / dup');
  row('---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:');
  if (r.baseline) {
    const b = r.baseline;
    row('baseline: node:http client → receiver, 8 in flight', b.requests, '—', b.receiver.distinctDelivered, `**${fmt(b.requestsPerSecond)}**`, '—', `${fmt(b.latencyMs.p50, 2)} (resp.)`, `${fmt(b.latencyMs.p99, 2)} (resp.)`, fmt(b.latencyMs.max, 1), `${fmt(b.benchProcessCores, 2)} (bench)`, '—', fmt(b.otherCores, 2), `${b.receiver.badSignatures} / ${b.receiver.duplicates}`);
  }
  for (const [k, label] of [['throughput', 'throughput: pushes while delivering'], ['split', 'split: the same, API + worker process']]) {
    const t = r[k];
    if (!t) continue;
    const d = t.deliveries;
    row(label, t.production.events, fmt(t.production.eventsPerSecond), `${d.delivered}${d.complete ? '' : ' (incomplete)'}`, `**${fmt(d.deliveriesPerSecondOverall)}**`, fmt(d.deliveriesPerSecondP10toP90), d.lagMs.p50, d.lagMs.p99, d.lagMs.max, fmt(t.cpuUntilLastDelivery.appCores, 2), fmt(t.appCpuMsPerDelivery, 2), fmt(t.cpuUntilLastDelivery.otherCores, 2), `${t.receiver.badSignatures} / ${t.receiver.duplicates}`);
  }
  if (r.backlog) {
    const b = r.backlog;
    const d = b.drain;
    row(`backlog drain: ${d.backlog} due at once`, b.production.events, fmt(b.production.eventsPerSecond), `${d.delivered}${d.complete ? '' : ' (incomplete)'}`, `**${fmt(d.deliveriesPerSecondFromT)}**`, fmt(d.deliveriesPerSecondP10toP90), '(held)', '(held)', '(held)', fmt(b.cpuDuringDrain.appCores, 2), fmt(b.appCpuMsPerDelivery, 2), fmt(b.cpuDuringDrain.otherCores, 2), `${b.receiver.badSignatures} / ${b.receiver.duplicates}`);
  }
  if (r.isolation) {
    for (const [k, label] of [['control', '/fast alone'], ['sameOrigin', '/fast, /slow on the same host:port'], ['otherOrigin', '/fast, /slow on another port']]) {
      const i = r.isolation[k];
      if (!i) continue;
      const f = i.fast;
      row(`isolation: ${label}`, i.production.events, fmt(i.production.eventsPerSecond), `${f.delivered}${f.complete ? '' : ' (incomplete)'}`, fmt(f.deliveriesPerSecondOverall), fmt(f.deliveriesPerSecondP10toP90), f.lagMs.p50, f.lagMs.p99, f.lagMs.max, fmt(i.cpu.appCores, 2), '—', fmt(i.cpu.otherCores, 2), `${f.receiver.badSignatures} / ${f.receiver.duplicates}`);
    }
  }
  if (r.isolation) {
    L.push('');
    row('/fast deliveries (API, after the wait)', 'statuses', 'successful attempt ms p50', 'p99', 'max', 'failed attempts');
    row('---', '---', '---:', '---:', '---:', '---:');
    for (const [k, label] of [['control', '/fast alone'], ['sameOrigin', 'with /slow on the same host:port'], ['otherOrigin', 'with /slow on another port']]) {
      const a = r.isolation[k]?.fast.audit;
      if (!a) continue;
      row(label, Object.entries(a.statuses).map(([st, n]) => `${st} ${n}`).join(', '), a.succeededAttemptMs.p50, a.succeededAttemptMs.p99, a.succeededAttemptMs.max, a.failedAttempts);
    }
    L.push('');
    row('/slow (never answers, time-out ' + settings.slowTimeoutMs + ' ms)', 'attempts in window', 'attempts /s', 'max open at once', 'attempts per 2 s slice', 'API pending / failed');
    row('---', '---:', '---:', '---:', '---', '---');
    for (const [k, label] of [['sameOrigin', 'same host:port as /fast'], ['otherOrigin', 'another port']]) {
      const s = r.isolation[k]?.slow;
      if (!s) continue;
      row(label, s.attemptsInWindow, fmt(s.attemptsPerSecond, 2), s.maxConcurrentOpen, s.attemptsPer2sSlices.join(' '), `${s.api.pending} / ${s.api.failed}`);
    }
  }
  return L;
}

/** The two goals, judged from the figures. */
export function goals(report) {
  const r = report.results;
  const out = [];
  const t = r.throughput?.deliveries;
  const sp = r.split?.deliveries;
  const b = r.backlog?.drain;
  out.push({
    id: 'throughput',
    text:
      `≥ 1,000 events/s delivered: throughput overall ${fmt(t?.deliveriesPerSecondOverall)} /s (p10–p90 ${fmt(t?.deliveriesPerSecondP10toP90)}), ` +
      `split ${fmt(sp?.deliveriesPerSecondOverall)} /s, backlog drain ${fmt(b?.deliveriesPerSecondFromT)} /s`,
    met: t || sp || b ? Math.max(t?.deliveriesPerSecondOverall ?? 0, sp?.deliveriesPerSecondOverall ?? 0, b?.deliveriesPerSecondFromT ?? 0) >= 1000 : null,
    metWhileProducing: t ? t.deliveriesPerSecondOverall >= 1000 : null,
    metWhileProducingSplit: sp ? sp.deliveriesPerSecondOverall >= 1000 : null,
    metOnBacklog: b ? b.deliveriesPerSecondFromT >= 1000 : null,
  });
  const c = r.isolation?.control?.fast;
  for (const [k, label] of [['sameOrigin', 'same host:port'], ['otherOrigin', 'another port']]) {
    const f = r.isolation?.[k]?.fast;
    if (!f || !c) continue;
    const ratio = f.deliveriesPerSecondOverall / c.deliveriesPerSecondOverall;
    out.push({
      id: `isolation-${k}`,
      text: `/fast keeps flowing while /slow (${label}) times out: ${f.delivered}/${f.expected} delivered, ${fmt(f.deliveriesPerSecondOverall)} /s = ${fmt(ratio * 100, 0)} % of /fast alone, lag p99 ${f.lagMs.p99} ms vs ${c.lagMs.p99} ms`,
      // "Keeps flowing": every delivery made, at ≥ half the rate it has alone.
      met: f.complete && ratio >= 0.5,
      ratio: round(ratio, 3),
    });
  }
  return out;
}
