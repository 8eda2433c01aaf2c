// `npm run bench`: the app against a bare-Fastify baseline, in one run, on this machine.
//
// 1. starts bench/baseline-server.mjs and the real app (dist/apps/api/src/main.js) as child
//    processes, each on its own temp DATA_DIR (removed at the end), and creates a workspace + API key
//    with the real CLI;
// 2. seeds both with the same N buyer requests through their HTTP APIs;
// 3. runs autocannon for GET baseline, GET app, GET app without auth + rate limiting, POST baseline,
//    POST app (GETs first, so all read the same N rows), each after a short warm-up, with a fresh
//    realistic body per POST. "Without auth" is the same build started with
//    bench/no-auth-preload.mjs (its global guard replaced by a fixed caller) on the app's DATA_DIR,
//    only for its own scenario;
// 4. checks every status (any non-2xx or socket error fails the run), prints a markdown table and
//    writes bench/results/latest.json.
//
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_WARMUP (s, default 2),
//      BENCH_SEED_ROWS (default 2000), BENCH_TIMEOUT (s, default 5 × (duration + warm-up) + 90),
//      BENCH_APP_NODE_OPTIONS (extra node flags for the app process only, e.g. "--cpu-prof"),
//      BENCH_ONLY (comma list of scenarios to run, e.g. "post-app"; default all five),
//      BENCH_APP_ROOT (directory with another build's dist/ to benchmark instead of this one).
//
// The parts: run/config.mjs (paths, settings), run/setup.mjs (servers, smoke, seed), run/scenarios.mjs
// (the measured runs), run/report.mjs (latest.json and the tables); shared helpers in lib/.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';

import { runMain } from './lib/common.mjs';
import { cleanup, cleanupOnExit } from './lib/resources.mjs';
import { loadCatalog } from './run/bodies.mjs';
import { API_MAIN, CLI_MAIN, log, settings } from './run/config.mjs';
import { buildReport, printReport, writeReport } from './run/report.mjs';
import { runScenarios } from './run/scenarios.mjs';
import { stopServer } from './run/servers.mjs';
import { seed, smoke, startServers } from './run/setup.mjs';

cleanupOnExit(log);

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench puts it on PATH)`);
  for (const f of [API_MAIN, CLI_MAIN]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run bench\` (it builds first) or \`npm run build\``);
  }
  const started = Date.now();
  const cards = loadCatalog();
  const loadBefore = loadavg();
  log(
    `settings: ${settings.durationSeconds}s × ${settings.connections} connections, warm-up ${settings.warmupSeconds}s, ` +
      `${settings.seedRows} seed rows, node ${process.versions.node}`,
  );

  const bench = await startServers();
  const { baseline, app, targets } = bench;
  await smoke(targets, cards);
  const seeded = await seed(targets, cards);

  const { results, failures } = await runScenarios(bench, cards);

  const report = buildReport({ started, loadBefore, seeded, results, failures, app });
  writeReport(report);
  printReport(report);

  await Promise.all([stopServer(baseline), stopServer(app)]);
  if (failures.length > 0) throw new Error(`non-2xx responses or socket errors:\n  ${failures.join('\n  ')}`);
}

runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
