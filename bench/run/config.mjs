// `npm run bench` (bench/run.mjs): the paths it runs, its settings from the environment, its log.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { intEnv } from '../lib/common.mjs';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = resolve(BENCH_DIR, '..');
// BENCH_APP_ROOT: benchmark another build of the app (a directory holding dist/ and node_modules/),
// e.g. a patched copy for an A/B experiment. Default: this repository's own build.
export const APP_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
export const API_MAIN = join(APP_ROOT, 'dist/apps/api/src/main.js');
export const CLI_MAIN = join(APP_ROOT, 'dist/apps/cli/src/main.js');
export const BASELINE_MAIN = join(BENCH_DIR, 'baseline-server.mjs');
export const NO_AUTH_PRELOAD = join(BENCH_DIR, 'no-auth-preload.mjs');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

export const settings = {
  durationSeconds: intEnv('BENCH_DURATION', 10, 1),
  connections: intEnv('BENCH_CONNECTIONS', 10, 1),
  warmupSeconds: intEnv('BENCH_WARMUP', 2, 0),
  seedRows: intEnv('BENCH_SEED_ROWS', 2000, 0),
  listLimit: 20,
  appNodeOptions: process.env.BENCH_APP_NODE_OPTIONS ?? '',
  appRoot: APP_ROOT,
  only: (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  pipelining: 1,
};
settings.timeoutSeconds = intEnv(
  'BENCH_TIMEOUT',
  5 * (settings.durationSeconds + settings.warmupSeconds) + 90,
  10,
);

export const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
