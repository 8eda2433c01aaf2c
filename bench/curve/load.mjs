// The points of `npm run bench:curve`: one path at one fixed rate (the open loop of
// bench/scale/load.mjs: even spacing, latency from each request's due time) or saturated (a closed
// loop: autocannon, N connections back to back), with the achieved rate, the latencies and the CPU
// the server spent per request — counted until its projections and process managers have caught
// up again, so a write's asynchronous work is charged to the write that caused it.
import autocannon from 'autocannon';

import { cpuSecondsOf } from '../lib/common.mjs';
import { machineBusySeconds } from '../lib/resources.mjs';
import { openLoop, percentiles } from '../scale/load.mjs';
import { awaitQuiet } from '../scale/system.mjs';
import { sleep } from '../scale/config.mjs';

/**
 * Closed loop over `nextRequest()` ({ method, path, body? }): `connections` sockets, each sending
 * its next request as soon as the answer to the last one is in. Exact percentiles of the 2xx times.
 */
export function closedLoop(target, { durationSeconds, connections, nextRequest }) {
  return new Promise((resolveRun, rejectRun) => {
    const times = [];
    const statuses = {};
    const first = nextRequest();
    const headers = { accept: 'application/json', ...target.headers, ...(first.body !== undefined ? { 'content-type': 'application/json' } : {}) };
    const instance = autocannon(
      {
        url: target.url,
        connections,
        duration: durationSeconds,
        pipelining: 1,
        timeout: 10,
        requests: [
          {
            method: first.method,
            path: first.path,
            headers,
            setupRequest: (req) => {
              const next = nextRequest();
              return { ...req, method: next.method, path: next.path, ...(next.body !== undefined ? { body: next.body } : {}) };
            },
          },
        ],
      },
      (err, result) => {
        if (err) return rejectRun(err);
        times.sort((a, b) => a - b);
        const non2xx = Object.entries(statuses).filter(([s]) => !s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
        return resolveRun({
          requestsTotal: result.requests.total,
          statusCodes: statuses,
          non2xx,
          errors: result.errors + result.timeouts,
          latencyMs: percentiles(times),
          duration: result.duration,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
}

/** Polls `watch` (bench/scale/catch-up.mjs) until every projection and the process manager are at the log's head. */
export async function settle(watch, timeoutMs = 600_000) {
  if (!watch) return 0;
  const t0 = performance.now();
  for (;;) {
    const s = watch.state();
    if (s.projectionsDone && s.pmDone) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error(`not caught up ${timeoutMs / 1000} s after a point: ${JSON.stringify(s)}`);
    await sleep(100);
  }
}

const r2 = (n) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : n);

/**
 * One measured point. rate > 0: open loop at that rate; rate 0: saturated closed loop. Returns the
 * figures (and `failures`: every non-2xx or socket error; a server that exited).
 */
export async function point(server, target, nextRequest, { rate, durationSeconds, connections, quietWaitSeconds, watch, label }) {
  const quiet = await awaitQuiet(label, [server.child.pid], quietWaitSeconds);
  const cpu0 = cpuSecondsOf(server.child.pid);
  const gen0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  const wall0 = performance.now();
  const run =
    rate > 0
      ? await openLoop(target, { rate, durationSeconds, connections, nextRequest })
      : await closedLoop(target, { durationSeconds, connections, nextRequest });
  // Open loop: the first request is due 50 ms after the call; the last answer ends the window.
  const wall = (performance.now() - wall0) / 1000 - (rate > 0 ? 0.05 : 0);
  const cpuWindow = cpuSecondsOf(server.child.pid) - cpu0;
  const gen = process.cpuUsage(gen0);
  const machineBusy = machineBusySeconds() - machine0;
  const settleMs = await settle(watch);
  const cpuAll = cpuSecondsOf(server.child.pid) - cpu0;
  const ok = run.latencyMs.samples;
  const failures = [];
  if (run.non2xx || run.errors) failures.push(`${label}: ${run.non2xx} non-2xx ${JSON.stringify(run.statusCodes)}, ${run.errors} socket errors/timeouts`);
  if (server.child.exitCode !== null || server.child.signalCode !== null) failures.push(`${label}: the server exited`);
  const achieved = ok / wall;
  const p = run.latencyMs;
  return {
    offeredRate: rate > 0 ? rate : null,
    saturated: rate === 0,
    connections,
    requests: run.requestsTotal,
    ok2xx: ok,
    statusCodes: run.statusCodes,
    achievedRate: r2(achieved),
    // Open loop only: the server kept up (achieved ≥ 90 % of the offered rate).
    keptUp: rate > 0 ? achieved >= 0.9 * rate : null,
    latencyMs: { p50: r2(p.p50), p90: r2(p.p90), p99: r2(p.p99), max: r2(p.max), mean: r2(p.mean) },
    // CPU of the server per 2xx answer: in the load window, and until its projections and process
    // managers had caught up after it (the write's asynchronous work included).
    cpuUsPerRequest: Math.round((cpuAll * 1e6) / Math.max(1, ok)),
    cpuUsPerRequestInWindow: Math.round((cpuWindow * 1e6) / Math.max(1, ok)),
    serverCpuCores: r2(cpuWindow / wall),
    loadGeneratorCpuCores: r2((gen.user + gen.system) / 1e6 / wall),
    // Everything else the machine did during the load (other people's work on a shared machine).
    otherCpuCoresDuring: r2((machineBusy - cpuWindow - (gen.user + gen.system) / 1e6) / wall),
    settleMs: Math.round(settleMs),
    wallSeconds: r2(wall),
    quietBefore: quiet,
    failures,
  };
}
