// `npm run bench:webhooks` (bench/webhooks.mjs): its paths, constants, settings from the environment
// (see the script's header), where its logs and results go, and its log.
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { intEnv } from '../lib/common.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SOURCE_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
export const PER_ENDPOINT = 8; // the dispatcher's default WEBHOOK_CONCURRENCY_PER_ENDPOINT, and the baseline's
export const EVENT_TYPE = 'inventory.created';
export const BASELINE_BODY_BYTES = 600;

export const settings = {
  events: intEnv('WEBHOOK_BENCH_EVENTS', 20_000, 1),
  isolationEvents: intEnv('WEBHOOK_BENCH_ISOLATION_EVENTS', 2_000, 1),
  rowsPerPush: intEnv('WEBHOOK_BENCH_ROWS_PER_PUSH', 1_000, 1),
  only: (process.env.WEBHOOK_BENCH_ONLY ?? 'baseline,throughput,split,backlog,isolation').split(',').map((s) => s.trim()).filter(Boolean),
  drainTimeoutSeconds: intEnv('WEBHOOK_BENCH_DRAIN_TIMEOUT', 150, 1),
  isolationWaitSeconds: intEnv('WEBHOOK_BENCH_ISOLATION_WAIT', 30, 1),
  holdSeconds: intEnv('WEBHOOK_BENCH_HOLD_SECONDS', 0, 0),
  quietWaitSeconds: intEnv('WEBHOOK_BENCH_QUIET_WAIT', 20, 0),
  slowTimeoutMs: intEnv('WEBHOOK_BENCH_SLOW_TIMEOUT_MS', 2_000, 1),
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 600, 30),
  skipBuild: ['1', 'true', 'yes'].includes((process.env.BENCH_SKIP_BUILD ?? '').toLowerCase()),
  perEndpoint: PER_ENDPOINT,
  appRoot: SOURCE_ROOT,
};
if (settings.rowsPerPush > 10_000) throw new Error('WEBHOOK_BENCH_ROWS_PER_PUSH: at most 10,000 (one add call per session)');

const STAMP = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
export const LOG_DIR = join(tmpdir(), `bench-webhooks-${STAMP}`);
export const OUT = process.env.WEBHOOK_BENCH_OUT || join(LOG_DIR, 'results.json');

export const log = (msg) => process.stderr.write(`[webhooks ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
