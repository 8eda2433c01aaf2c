// Helpers the benchmarks share (bench/run.mjs, bench/scale.mjs, bench/webhooks.mjs): environment
// parsing, the app's rate limits lifted, checked JSON requests, process CPU, the commit measured,
// and reading autocannon results.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export function intEnv(name, fallback, min = 0) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return n;
}

/**
 * The app's rate limits, lifted so no bench request is refused (the limiter still counts every
 * request, so its cost is in the figures); the production defaults would refuse nearly all of them.
 */
export const UNLIMITED_RATE_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_PER_SECOND: '1000000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000000',
  RATE_LIMIT_PUBLIC_PER_SECOND: '1000000000',
};

export async function expectJson(url, init, status, timeoutMs = 120_000) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${init?.method ?? 'GET'} ${url} → ${res.status} (expected ${status}): ${text.slice(0, 2000)}`);
  return JSON.parse(text);
}

/** CPU seconds (user + system) a child process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSecondsOf(pid) {
  // Its own and that of its live child processes (the worker process the API starts with
  // WORKER_MODE=process or background): the CPU a request costs, wherever it runs.
  return ownCpuSecondsOf(pid) + childPids(pid).reduce((sum, child) => sum + (cpuSecondsOf(child) || 0), 0);
}

/** CPU seconds (user + system) one process has used, its children not included; NaN when gone. */
export function ownCpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime + stime, in USER_HZ (100/s).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The live children of a process (Linux: /proc/<pid>/task/<tid>/children). */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * The short commit of `dir`, marked when tracked files differ from it: `untracked` counts untracked
 * files as differences too, `countPaths` says how many paths differ. 'unknown' outside a git tree.
 */
export function gitCommit(dir, { untracked = true, countPaths = false } = {}) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const status = ['status', '--porcelain', ...(untracked ? [] : ['--untracked-files=no'])];
    const dirty = execFileSync('git', status, { cwd: dir, encoding: 'utf8' }).trim();
    if (!dirty) return head;
    return countPaths ? `${head} (with uncommitted changes: ${dirty.split('\n').length} paths)` : `${head} (with uncommitted changes)`;
  } catch {
    return 'unknown';
  }
}

/** Non-2xx statuses and socket errors of an autocannon result, as readable text (empty = clean). */
export function problems(result) {
  const bad = [];
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) {
    if (!code.startsWith('2')) bad.push(`${count} × HTTP ${code}`);
  }
  if (result.non2xx && bad.length === 0) bad.push(`${result.non2xx} non-2xx`);
  if (result.errors) bad.push(`${result.errors} socket errors`);
  if (result.timeouts) bad.push(`${result.timeouts} timeouts`);
  return bad.join(', ');
}

export function summarize(result) {
  return {
    reqPerSecMean: result.requests.mean,
    reqPerSecStddev: result.requests.stddev,
    requestsTotal: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count])),
    // Exact percentiles of the 2xx response times (ms, sub-millisecond resolution).
    latencyMs: result.preciseLatency,
    // autocannon's own histogram (whole milliseconds), for reference.
    autocannonLatencyMs: {
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    durationSeconds: result.duration,
  };
}

export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * Runs a benchmark's `main` under a watchdog: on success, failure or time-out, `cleanup` kills
 * the children and removes temp dirs before the process exits (0 on success, 1 otherwise).
 */
export function runMain(main, { timeoutSeconds, cleanup, log }) {
  const watchdog = setTimeout(() => {
    log(`FAILED: the run exceeded BENCH_TIMEOUT=${timeoutSeconds} s`);
    cleanup();
    process.exit(1);
  }, timeoutSeconds * 1000);
  main()
    .then(() => {
      clearTimeout(watchdog);
      cleanup();
      process.exit(0);
    })
    .catch((error) => {
      clearTimeout(watchdog);
      log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
      cleanup();
      process.exit(1);
    });
}
