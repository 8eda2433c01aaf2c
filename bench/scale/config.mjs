// `npm run bench:scale` (bench/scale.mjs): its paths, its settings from the environment (see the
// script's header), its log, and the name of its results file.
import { mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { intEnv } from '../lib/common.mjs';

const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = resolve(BENCH_DIR, '..');
export const RESULTS_DIR = join(BENCH_DIR, 'results');
export const SOURCE_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
export const BASELINE_MAIN = join(BENCH_DIR, 'baseline-server.mjs');
export const SEEDER = join(BENCH_DIR, 'seed', 'seed-log.mjs');
export const PROFILE_SUMMARY = join(BENCH_DIR, 'profile-summary.mjs');
export const PM_NAME = 'reverse-matching';
export const PROFILE_DIR = join(tmpdir(), 'bench-scale-profiles');

function numEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0 (got "${raw}")`);
  return n;
}
const listEnv = (name, fallback) =>
  (process.env[name] ?? fallback).split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);

export const settings = {
  only: listEnv('BENCH_SCALE_ONLY', 'A,B'),
  items: intEnv('BENCH_SCALE_ITEMS', 1_000_000, 1),
  otherItems: intEnv('BENCH_SCALE_OTHER_ITEMS', 5_000),
  otherRequests: intEnv('BENCH_SCALE_OTHER_REQUESTS', 1_000),
  requests: intEnv('BENCH_SCALE_REQUESTS', 100_000, 1),
  bItems: intEnv('BENCH_SCALE_B_ITEMS', 0),
  pushRows: intEnv('BENCH_SCALE_PUSH_ROWS', 10_000, 1),
  errorRate: numEnv('BENCH_SCALE_ERROR_RATE', 0.01),
  seed: intEnv('BENCH_SCALE_SEED', 1),
  skew: numEnv('BENCH_SCALE_SKEW', 0),
  durationSeconds: intEnv('BENCH_DURATION', 20, 1),
  connections: intEnv('BENCH_CONNECTIONS', 20, 1),
  // Fixed total rates (req/s) for the open-loop latency runs of A; empty to skip.
  rates: (process.env.BENCH_SCALE_RATES ?? '100,200').split(',').map((r) => r.trim()).filter(Boolean).map(Number),
  warmupSeconds: intEnv('BENCH_WARMUP', 3, 0),
  catchUpTimeoutSeconds: intEnv('BENCH_SCALE_CATCHUP_TIMEOUT', 3600, 10),
  quietWaitSeconds: intEnv('BENCH_SCALE_QUIET_WAIT', 300),
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 7200, 60),
  profile: listEnv('BENCH_SCALE_PROFILE', ''),
  sqlTiming: ['1', 'true', 'yes'].includes((process.env.BENCH_SCALE_SQL_TIMING ?? '').toLowerCase()),
  appNodeOptions: process.env.BENCH_APP_NODE_OPTIONS ?? '',
  appRoot: SOURCE_ROOT,
  keep: ['1', 'true', 'yes'].includes((process.env.BENCH_SCALE_KEEP ?? '').toLowerCase()),
  reuseA: process.env.BENCH_SCALE_A_DIR ? resolve(process.env.BENCH_SCALE_A_DIR) : null,
  bodyLimitBytes: 1024 * 1024,
  pipelining: 1,
};

export const log = (msg) => process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const round = (n, digits = 2) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : n);

export const SQL_TIMING_PRELOAD = join(BENCH_DIR, 'sqlite-timing-window.mjs');

/** The results file under bench/results/: BENCH_SCALE_OUT, else the first free scale-<n>.json (chosen once). */
let outFile = null;
export function outName() {
  if (outFile) return outFile;
  if (process.env.BENCH_SCALE_OUT) return (outFile = process.env.BENCH_SCALE_OUT);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const taken = new Set(readdirSync(RESULTS_DIR));
  let n = 1;
  while (taken.has(`scale-${n}.json`)) n += 1;
  return (outFile = `scale-${n}.json`);
}
