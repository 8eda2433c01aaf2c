// `npm run bench:trading` (bench/trading.mjs): its paths, its settings from the environment (see the
// script's header), its log.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { intEnv } from '../lib/common.mjs';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = resolve(BENCH_DIR, '..');
export const RESULTS_DIR = join(BENCH_DIR, 'results');
export const RESULTS_FILE = join(RESULTS_DIR, 'trading-latest.json');
// BENCH_APP_ROOT: benchmark another build (a directory holding dist/ and node_modules/), for A/B runs.
export const APP_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
export const API_MAIN = join(APP_ROOT, 'dist/apps/api/src/main.js');
export const CLI_MAIN = join(APP_ROOT, 'dist/apps/cli/src/main.js');
export const BASELINE_MAIN = join(BENCH_DIR, 'baseline-server.mjs');
export const SQL_TIMING_PRELOAD = join(BENCH_DIR, 'sqlite-timing-window.mjs');

const SCENARIOS = ['post', 'lifecycles', 'holds'];
const only = (process.env.BENCH_TRADING_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
for (const s of only) if (!SCENARIOS.includes(s)) throw new Error(`BENCH_TRADING_ONLY: unknown scenario "${s}" (${SCENARIOS.join(', ')})`);

export const settings = {
  scenarios: only.length ? SCENARIOS.filter((s) => only.includes(s)) : SCENARIOS,
  // Scenario 1: full trade lifecycles against the baseline's POST.
  durationSeconds: intEnv('BENCH_DURATION', 10, 1),
  connections: intEnv('BENCH_CONNECTIONS', 20, 1),
  warmupSeconds: intEnv('BENCH_WARMUP', 2, 0),
  // Items seeded (quantity 1, one per lifecycle) for the lifecycles; 0 = 300 per second of load
  // (warm-up included), well above what this machine reaches. A run that uses them all fails.
  lifecycleItems: intEnv('BENCH_TRADING_ITEMS', 0, 0),
  // Scenario 2: holds expiring at the same instant.
  holds: intEnv('BENCH_HOLDS', 10_000, 1),
  pilotHolds: intEnv('BENCH_HOLDS_PILOT', 500, 1),
  holdsMarginSeconds: intEnv('BENCH_HOLDS_MARGIN', 5, 1),
  holdsPollMs: intEnv('BENCH_HOLDS_POLL_MS', 100, 10),
  holdsReleaseTimeoutSeconds: intEnv('BENCH_HOLDS_RELEASE_TIMEOUT', 60, 5),
  holdsTargetSeconds: 5,
  // CPU profiles of the app, through its inspector: over the measured windows of the app's POST and
  // of the lifecycles, and over the expiry window (T → all released).
  profile: ['1', 'true', 'yes'].includes((process.env.BENCH_TRADING_PROFILE ?? '').toLowerCase()),
  // SQL timings of the app over the expiry window (per hold expiry, by statement), through the
  // bench/sqlite-timing-window.mjs preload (it slows every SQLite call a little).
  sqlTiming: ['1', 'true', 'yes'].includes((process.env.BENCH_TRADING_SQL_TIMING ?? '').toLowerCase()),
  appNodeOptions: process.env.BENCH_APP_NODE_OPTIONS ?? '',
  // The app's own setting, passed through from the environment when set (default 250 ms).
  timerPollMs: process.env.TIMER_POLL_MS ? Number(process.env.TIMER_POLL_MS) : 250,
  appRoot: APP_ROOT,
  pipelining: 1,
  intakeRowsPerCall: 10_000, // the intake route's limit per call
};
settings.timeoutSeconds = intEnv('BENCH_TIMEOUT', 4 * (settings.durationSeconds + settings.warmupSeconds) + 180, 30);
if (settings.lifecycleItems === 0) settings.lifecycleItems = 300 * (settings.durationSeconds + settings.warmupSeconds);

const started = Date.now();
export const log = (msg) => process.stderr.write(`[trading +${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const round = (n, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null);
