// Scenario 1 of the trading bench: full trade lifecycles per second — each of N concurrent clients
// (autocannon connections, pipelining 1) loops over POST /api/v1/trades {inventoryItemId: a fresh
// seeded item of quantity 1} then POST /api/v1/trades/:id/transitions to paid, shipped, delivered,
// completed, settled: 6 requests a lifecycle. Beside it, in the same run and with the same
// connections, the bare-Fastify baseline's POST (bench/baseline-server.mjs, as `npm run bench`), and
// (scenario `post`) the app's own buyer-request POST on the same app process right before the
// lifecycles, for the per-step comparison of issue 20 (bench/trading/post.mjs).
import { cpuSecondsOf, fmt, problems, summarize } from '../lib/common.mjs';
import { cannon } from '../run/load.mjs';
import { percentiles } from '../scale/load.mjs';
import { cpuWindow } from '../webhooks/machine.mjs';

import { api, assertAlive } from './app.mjs';
import { log, round, settings } from './config.mjs';
import { awaitIdle, perStep, profileName, runAppPost, runPost, startProfile } from './post.mjs';
import { pool, seedItems } from './seed.mjs';

const TRANSITIONS = ['paid', 'shipped', 'delivered', 'completed', 'settled'];
const KINDS = ['create', ...TRANSITIONS];
export const LIFECYCLE_CARD = { cardName: 'Charizard', setName: 'Base' };

/**
 * The autocannon requests of one lifecycle, and what they saw: per kind, the 2xx response times
 * and the statuses; the last settled trade (checked afterwards). autocannon calls a request's
 * `onResponse` synchronously just before it emits `response`, so `last` tells which kind answered.
 */
function lifecycleRequests(app, items) {
  const seen = {
    times: Object.fromEntries(KINDS.map((k) => [k, []])),
    statuses: Object.fromEntries(KINDS.map((k) => [k, {}])),
    unexpected: [],
    settled: 0,
    lastSettled: null,
    last: null,
  };
  const headers = { ...app.headers };
  const answered = (kind, status, body) => {
    seen.last = kind;
    seen.statuses[kind][status] = (seen.statuses[kind][status] ?? 0) + 1;
    if (status < 200 || status >= 300) {
      if (seen.unexpected.length < 5) seen.unexpected.push(`${kind} → ${status}: ${String(body).slice(0, 300)}`);
      return false;
    }
    return true;
  };
  const requests = [
    {
      method: 'POST',
      path: '/api/v1/trades',
      headers,
      setupRequest: (req) => {
        req.body = JSON.stringify({ inventoryItemId: items.take() ?? 'inv_bench_pool_exhausted', quantity: 1 });
        return req;
      },
      onResponse: (status, body, context) => {
        if (!answered('create', status, body)) return;
        const trade = JSON.parse(body);
        if (trade.status !== 'initiated' && seen.unexpected.length < 5) seen.unexpected.push(`create answered status ${trade.status}`);
        context.tradeId = trade.id;
      },
    },
    ...TRANSITIONS.map((to) => ({
      method: 'POST',
      path: '/api/v1/trades',
      headers,
      // No trade (its create failed, already counted): autocannon starts the next lifecycle.
      setupRequest: (req, context) => {
        if (!context.tradeId) return null;
        req.path = `/api/v1/trades/${context.tradeId}/transitions`;
        req.body = JSON.stringify({ to });
        return req;
      },
      onResponse: (status, body, context) => {
        if (!answered(to, status, body)) return;
        // A cheap check of the answer: the trade moved where it was asked to.
        if (!body.includes(`"status":"${to}"`) && seen.unexpected.length < 5) seen.unexpected.push(`→ ${to} answered ${body.slice(0, 200)}`);
        if (to === 'settled') {
          seen.settled += 1;
          seen.lastSettled = context.tradeId;
        }
      },
    })),
  ];
  const onResponse = (status, ms) => {
    if (status >= 200 && status < 300 && seen.last) seen.times[seen.last].push(ms);
    seen.last = null;
  };
  return { options: { url: app.url, requests }, onResponse, seen };
}

function latencyOf(times) {
  const p = percentiles([...times].sort((a, b) => a - b));
  return { samples: p.samples, mean: round(p.mean, 3), p50: round(p.p50, 3), p90: round(p.p90, 3), p99: round(p.p99, 3), max: round(p.max, 3) };
}

/** One autocannon run of lifecycles; `measured` adds the CPU windows and the figures. */
async function runLifecycles(app, items, durationSeconds, measured) {
  const { options, onResponse, seen } = lifecycleRequests(app, items);
  const profile = measured ? profileName('lifecycles') : null;
  const profiler = profile ? await startProfile(app) : null;
  const window = measured ? cpuWindow([app.child.pid]) : null;
  const cpu0 = cpuSecondsOf(app.child.pid);
  const result = await cannon({ ...options, connections: settings.connections, duration: durationSeconds }, { onResponse });
  const serverCpu = cpuSecondsOf(app.child.pid) - cpu0;
  const machine = window ? window() : null;
  const profiled = profiler ? await profiler.stop(profile) : null;
  assertAlive(app);
  let bad = problems(result);
  if (items.exhausted) bad = `${bad ? `${bad}; ` : ''}the ${items.used} seeded items ran out (raise BENCH_TRADING_ITEMS)`;
  if (seen.unexpected.length) bad = `${bad ? `${bad}; ` : ''}${seen.unexpected.join('; ')}`;
  if (!measured) return { bad };
  const ok = result['2xx'];
  const lifecycles = seen.settled;
  const transitionTimes = TRANSITIONS.flatMap((k) => seen.times[k]);
  return {
    bad,
    figures: {
      ...summarize(result),
      lifecycles,
      lifecyclesPerSec: lifecycles / result.duration,
      requestsPerSecOverall: ok / result.duration,
      perKind: Object.fromEntries(KINDS.map((k) => [k, { ...latencyOf(seen.times[k]), statuses: seen.statuses[k] }])),
      transitionLatencyMs: latencyOf(transitionTimes),
      createLatencyMs: latencyOf(seen.times.create),
      serverCpuSeconds: round(serverCpu, 2),
      serverCpuCores: round(serverCpu / machine.wallSeconds, 2),
      serverCpuUsPerRequest: round((serverCpu * 1e6) / Math.max(1, ok), 0),
      // 6 requests a lifecycle: the CPU of the request mix × 6 (lifecycles cut by the end of the run count their part).
      serverCpuMsPerLifecycle: round((serverCpu * 1e3 * KINDS.length) / Math.max(1, ok), 2),
      machine,
      lastSettledTradeId: seen.lastSettled,
      ...(profiled ? { profile: profiled } : {}),
    },
  };
}

export async function lifecyclesScenario(app, baseline, { post = false, lifecycles = true } = {}) {
  const failures = [];
  const seeded = lifecycles ? await seedItems(app, settings.lifecycleItems, LIFECYCLE_CARD, 'lifecycle items') : null;
  const items = seeded ? pool(seeded.ids, 'lifecycle items') : null;

  const base = await runPost('POST baseline', baseline, { url: baseline.url, path: '/baseline/buyer-requests', headers: {} });
  failures.push(...base.failures);

  // The app's buyer-request POST, on the same app right before its lifecycles; the app idle before
  // and after, so neither scenario pays for what the other (or the seeding) left to do.
  let appPost = null;
  const idle = {};
  if (post) {
    idle.beforePost = await awaitIdle(app);
    const p = await runAppPost(app);
    failures.push(...p.failures);
    appPost = p.figures;
    if (lifecycles) idle.beforeLifecycles = await awaitIdle(app);
  }
  if (!lifecycles) return { baselinePost: base.figures, appPost, idle, failures };

  if (settings.warmupSeconds > 0) {
    const warm = await runLifecycles(app, items, settings.warmupSeconds, false);
    if (warm.bad) failures.push(`lifecycles (warm-up): ${warm.bad}`);
  }
  log(`lifecycles: ${settings.durationSeconds} s × ${settings.connections} clients …`);
  const run = await runLifecycles(app, items, settings.durationSeconds, true);
  if (run.bad) failures.push(`lifecycles: ${run.bad}`);
  const f = run.figures;
  log(
    `lifecycles: ${fmt(f.lifecyclesPerSec)} /s, ${fmt(f.reqPerSecMean)} req/s, transition p50 ${fmt(f.transitionLatencyMs.p50, 2)} / p99 ${fmt(f.transitionLatencyMs.p99, 2)} ms, ` +
      `create p50 ${fmt(f.createLatencyMs.p50, 2)} / p99 ${fmt(f.createLatencyMs.p99, 2)} ms, server CPU ${fmt(f.serverCpuMsPerLifecycle, 2)} ms/lifecycle`,
  );

  // The last settled trade reads as settled, and its item as sold.
  if (f.lastSettledTradeId) {
    const trade = await api(app, `/api/v1/trades/${f.lastSettledTradeId}`);
    const item = await api(app, `/api/v1/inventory/${trade.inventoryItemId}`);
    if (trade.status !== 'settled' || item.status !== 'sold' || item.soldQuantity !== 1) {
      failures.push(`lifecycles: trade ${trade.id} reads ${trade.status}, its item ${item.status} (sold ${item.soldQuantity})`);
    }
  } else failures.push('lifecycles: no lifecycle completed');

  const ratio = f.reqPerSecMean / base.figures.reqPerSecMean;
  return {
    seeding: { ...seeded.timing, used: items.used },
    baselinePost: base.figures,
    appPost,
    idle,
    lifecycles: f,
    ratio: { appLifecycleReqPerSecOverBaselinePost: round(ratio, 3) },
    perStep: appPost ? perStep(f, appPost) : null,
    failures,
  };
}
