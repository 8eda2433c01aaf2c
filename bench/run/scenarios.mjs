// The five scenarios of `npm run bench` (or those BENCH_ONLY names), each a warm-up then a measured
// autocannon run with the server's CPU beside it; statuses checked, failures collected.
import { cpuSecondsOf, fmt, ownCpuSecondsOf, problems, summarize } from '../lib/common.mjs';

import { bodyMaker } from './bodies.mjs';
import { log, settings } from './config.mjs';
import { cannon, loadOptions } from './load.mjs';
import { stopServer } from './servers.mjs';
import { startNoAuth } from './setup.mjs';

/** Runs the scenarios against `bench` (what startServers gave); returns their results and failures. */
export async function runScenarios(bench, cards) {
  const { targets, servers } = bench;
  // GETs first: both servers then hold exactly the same rows (smoke + seed) while being read.
  const scenarios = [
    { id: 'get-baseline', label: 'GET baseline', target: 'baseline', kind: 'get' },
    { id: 'get-app', label: 'GET app', target: 'app', kind: 'get' },
    { id: 'get-app-noauth', label: 'GET app without auth + rate limit', target: 'appNoAuth', kind: 'get' },
    { id: 'post-baseline', label: 'POST baseline', target: 'baseline', kind: 'post' },
    { id: 'post-app', label: 'POST app', target: 'app', kind: 'post' },
  ].filter((s) => settings.only.length === 0 || settings.only.includes(s.id));

  const results = {};
  const failures = [];
  let seed = 1000;
  for (const s of scenarios) {
    if (s.target === 'appNoAuth') await startNoAuth(bench);
    const t = targets[s.target];
    if (settings.warmupSeconds > 0) {
      const warm = await cannon({
        ...loadOptions(t, s.kind, bodyMaker(cards, (seed += 1))),
        connections: settings.connections,
        duration: settings.warmupSeconds,
      });
      const bad = problems(warm);
      if (bad) failures.push(`${s.label} (warm-up): ${bad}`);
    }
    log(`${s.label}: ${settings.durationSeconds} s …`);
    const server = servers[s.target];
    const cpu0 = cpuSecondsOf(server.child.pid);
    const own0 = ownCpuSecondsOf(server.child.pid);
    const gen0 = process.cpuUsage();
    const wall0 = process.hrtime.bigint();
    const result = await cannon({
      ...loadOptions(t, s.kind, bodyMaker(cards, (seed += 1))),
      connections: settings.connections,
      duration: settings.durationSeconds,
    });
    const serverCpu = cpuSecondsOf(server.child.pid) - cpu0;
    const ownCpu = ownCpuSecondsOf(server.child.pid) - own0;
    const gen = process.cpuUsage(gen0);
    const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
    const bad = problems(result);
    if (bad) failures.push(`${s.label}: ${bad}`);
    results[s.id] = {
      label: s.label,
      ...summarize(result),
      // How busy each side was: 1.0 = one core. The server does its SQLite work on its main thread.
      serverCpuCores: serverCpu / wall,
      serverCpuUsPerRequest: (serverCpu * 1e6) / Math.max(1, result['2xx']),
      // The API process alone (the rest is its worker process, if it runs one).
      serverMainCpuCores: ownCpu / wall,
      serverMainCpuUsPerRequest: (ownCpu * 1e6) / Math.max(1, result['2xx']),
      loadGeneratorCpuCores: (gen.user + gen.system) / 1e6 / wall,
      wallSeconds: wall,
    };
    log(
      `${s.label}: ${fmt(result.requests.mean)} req/s, p50 ${fmt(result.preciseLatency.p50, 2)} ms, ` +
        `p99 ${fmt(result.preciseLatency.p99, 2)} ms` +
        (bad ? `  !! ${bad}` : ''),
    );
    if (s.target === 'appNoAuth') await stopServer(servers.appNoAuth);
  }
  return { results, failures };
}
