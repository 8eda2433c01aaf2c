// `npm run bench:trading`: the trading API (issue 13) on this machine, in one run (~100 s with the
// defaults).
//
// 1. starts the real app (dist/apps/api/src/main.js, embedded SQLite, workers in-process, rate
//    limits lifted) with a workspace + key made by the real CLI, and the bare-Fastify baseline
//    (bench/baseline-server.mjs), each on its own temp DATA_DIR (removed at the end);
// 2. lifecycles: seeds items of quantity 1 (intake push, not measured); measures the baseline's
//    POST (warm-up, then BENCH_DURATION s × BENCH_CONNECTIONS connections), then the same
//    connections each looping over a full trade lifecycle — POST /api/v1/trades, then transitions
//    to paid, shipped, delivered, completed, settled (6 requests) — for the same duration after a
//    warm-up: lifecycles/s, req/s, p50/p99 of a create and of a transition, the app's CPU per
//    lifecycle, and app req/s ÷ baseline POST req/s;
//    post (issue 20), run right before the lifecycles on the same app process (the app left idle
//    before and after): the app's own POST /api/v1/buyer-requests (bodies of bench/run/bodies.mjs,
//    as `npm run bench`) at the same connections — then per step (one of the lifecycle's 6
//    requests) against a buyer-request POST: app CPU µs per request, p50, p99, ratios (goal ≤ 2×);
// 3. holds: 10,000 holds all expiring at the same instant T are all released within 5 s? (see
//    bench/trading/holds.mjs for how T is chosen and how the release is observed);
// 4. every response must be 2xx (any other status, socket error or time-out fails the run, exit 1);
//    prints markdown tables and writes bench/results/trading-latest.json.
//
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 20), BENCH_WARMUP (s, default 2),
//      BENCH_TRADING_ONLY (post,lifecycles,holds; post and lifecycles share the app and the
//      baseline), BENCH_TRADING_ITEMS (items for the lifecycles, default 300 per second of load), BENCH_HOLDS (default 10000), BENCH_HOLDS_PILOT (default 500),
//      BENCH_HOLDS_MARGIN (s, default 5), BENCH_HOLDS_POLL_MS (default 100),
//      BENCH_HOLDS_RELEASE_TIMEOUT (s, default 60), BENCH_TRADING_PROFILE=1 (CPU profiles of the
//      app over the measured app POST, the measured lifecycles and the expiry window: summaries in
//      bench/results/trading-{post,lifecycles,holds}-*.profile.txt; it slows the app),
//      BENCH_APP_NODE_OPTIONS, BENCH_APP_ROOT (another build), BENCH_TIMEOUT (s), TIMER_POLL_MS
//      (passed to the app).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';

import { runMain } from './lib/common.mjs';
import { cleanup, cleanupOnExit } from './lib/resources.mjs';
import { startApp, startBaseline, stopAll } from './trading/app.mjs';
import { API_MAIN, CLI_MAIN, log, settings } from './trading/config.mjs';
import { holdsScenario } from './trading/holds.mjs';
import { lifecyclesScenario } from './trading/lifecycles.mjs';
import { buildReport, printReport, writeReport } from './trading/report.mjs';

cleanupOnExit(log);

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:trading puts it on PATH)`);
  for (const f of [API_MAIN, CLI_MAIN]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run bench:trading\` (it builds first) or \`npm run build\``);
  }
  const started = Date.now();
  const loadBefore = loadavg();
  log(`scenarios ${settings.scenarios.join(', ')}; node ${process.versions.node}; load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);

  const wantLifecycles = settings.scenarios.includes('lifecycles');
  const wantPost = settings.scenarios.includes('post');
  const [app, baseline] = await Promise.all([startApp(), wantLifecycles || wantPost ? startBaseline() : null]);
  const parts = {};
  const failures = [];
  try {
    if (wantLifecycles || wantPost) {
      const { failures: f, ...rest } = await lifecyclesScenario(app, baseline, { post: wantPost, lifecycles: wantLifecycles });
      parts.lifecycles = { ...rest, loadavgAfter: loadavg().map((x) => Math.round(x * 100) / 100) };
      failures.push(...f);
    }
    if (settings.scenarios.includes('holds')) {
      const { failures: f, ...rest } = await holdsScenario(app);
      parts.holds = { ...rest, loadavgAfter: loadavg().map((x) => Math.round(x * 100) / 100) };
      failures.push(...f);
    }
  } finally {
    await stopAll(app, baseline);
  }

  const report = buildReport({ started, loadBefore, parts, failures, app });
  writeReport(report);
  printReport(report);
  if (failures.length > 0) throw new Error(`the run failed:\n  ${failures.join('\n  ')}`);
}

runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
