// The POST side of the trading bench: a buyer-request POST (bodies from bench/run/bodies.mjs, as
// `npm run bench` sends them) at the lifecycles' connections, against the bare-Fastify baseline and
// (scenario `post`) against the app itself — the same app process, right before its lifecycles — and
// the per-step comparison of issue 20: a lifecycle step (one of its 6 requests) within 2× a
// buyer-request POST, in app CPU per request, p50 and p99.
import { cpuSecondsOf, fmt, problems, summarize } from '../lib/common.mjs';
import { bodyMaker, loadCatalog } from '../run/bodies.mjs';
import { cannon, loadOptions } from '../run/load.mjs';
import { Profiler } from '../scale/instruments.mjs';
import { cpuWindow } from '../webhooks/machine.mjs';

import { assertAlive } from './app.mjs';
import { log, round, settings, sleep } from './config.mjs';

let cards = null;

/**
 * POST load on `proc` at `target` ({url, path, headers}): a warm-up, then BENCH_DURATION s ×
 * BENCH_CONNECTIONS with the server's CPU beside it. Both servers get the same body sequence.
 * `profileName`: a CPU profile of the measured window (BENCH_TRADING_PROFILE=1, app only).
 */
export async function runPost(label, proc, target, { profileName = null } = {}) {
  cards ??= loadCatalog();
  const failures = [];
  if (settings.warmupSeconds > 0) {
    const warm = await cannon({ ...loadOptions(target, 'post', bodyMaker(cards, 1001)), connections: settings.connections, duration: settings.warmupSeconds });
    const bad = problems(warm);
    if (bad) failures.push(`${label} (warm-up): ${bad}`);
  }
  log(`${label}: ${settings.durationSeconds} s × ${settings.connections} connections …`);
  const profiler = profileName ? await startProfile(proc) : null;
  const window = cpuWindow([proc.child.pid]);
  const cpu0 = cpuSecondsOf(proc.child.pid);
  const result = await cannon({ ...loadOptions(target, 'post', bodyMaker(cards, 1002)), connections: settings.connections, duration: settings.durationSeconds });
  const serverCpu = cpuSecondsOf(proc.child.pid) - cpu0;
  const machine = window();
  const profile = profiler ? await profiler.stop(profileName) : null;
  assertAlive(proc);
  const bad = problems(result);
  if (bad) failures.push(`${label}: ${bad}`);
  const figures = {
    ...summarize(result),
    serverCpuCores: round(serverCpu / machine.wallSeconds, 2),
    serverCpuUsPerRequest: round((serverCpu * 1e6) / Math.max(1, result['2xx']), 0),
    machine,
    ...(profile ? { profile } : {}),
  };
  log(`${label}: ${fmt(figures.reqPerSecMean)} req/s, p50 ${fmt(figures.latencyMs.p50, 2)} ms, p99 ${fmt(figures.latencyMs.p99, 2)} ms${bad ? `  !! ${bad}` : ''}`);
  return { figures, failures };
}

/** The app's own buyer-request POST (POST /api/v1/buyer-requests, the bench key). */
export function runAppPost(app) {
  const target = { url: app.url, path: '/api/v1/buyer-requests', headers: { authorization: app.headers.authorization } };
  return runPost('POST app (buyer request)', app, target, { profileName: profileName('post') });
}

/** The name of a profile of a measured window, or null when not profiling. */
export function profileName(what) {
  return settings.profile ? `trading-${what}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}` : null;
}

export async function startProfile(app) {
  const profiler = await Profiler.connect(app.inspector);
  await profiler.start();
  return profiler;
}

/**
 * Waits (up to `maxMs`) until the app uses less than `cores` over 500 ms: the asynchronous work a
 * load left behind (projections, reverse matching) is done, and is not charged to the next scenario.
 */
export async function awaitIdle(app, { cores = 0.1, maxMs = 60_000 } = {}) {
  const t0 = performance.now();
  for (;;) {
    const c0 = cpuSecondsOf(app.child.pid);
    await sleep(500);
    const used = (cpuSecondsOf(app.child.pid) - c0) / 0.5;
    const waitedMs = Math.round(performance.now() - t0);
    if (!(used >= cores) || waitedMs >= maxMs) {
      if (used >= cores) log(`app still busy (${fmt(used, 2)} cores) after ${waitedMs} ms; going on`);
      return { waitedMs, idle: !(used >= cores), lastCores: round(used, 2) };
    }
  }
}

/**
 * A lifecycle step (any of its 6 requests: create + 5 transitions) against a buyer-request POST of
 * the same app in the same run: app CPU per request, p50, p99, and their ratios (goal ≤ 2×).
 */
export function perStep(lifecycles, post) {
  const ratio = (a, b) => round(a / b, 2);
  const side = (get) => {
    const step = get(lifecycles);
    const p = get(post);
    return { step, post: p, ratio: ratio(step, p) };
  };
  const cpu = side((f) => f.serverCpuUsPerRequest);
  const p50 = side((f) => f.latencyMs.p50);
  const p99 = side((f) => f.latencyMs.p99);
  return {
    goal: 'a lifecycle step (one of create, paid, shipped, delivered, completed, settled) ≤ 2× a buyer-request POST, same app, same run, same connections',
    appCpuUsPerRequest: cpu,
    p50Ms: p50,
    p99Ms: p99,
    reqPerSec: { step: round(lifecycles.reqPerSecMean, 1), post: round(post.reqPerSecMean, 1), postOverStep: ratio(post.reqPerSecMean, lifecycles.reqPerSecMean) },
    create: { p50Ratio: ratio(lifecycles.createLatencyMs.p50, post.latencyMs.p50), p99Ratio: ratio(lifecycles.createLatencyMs.p99, post.latencyMs.p99) },
    transition: { p50Ratio: ratio(lifecycles.transitionLatencyMs.p50, post.latencyMs.p50), p99Ratio: ratio(lifecycles.transitionLatencyMs.p99, post.latencyMs.p99) },
    met: [cpu, p50, p99].every((x) => x.ratio <= 2),
  };
}
