// What `npm run bench:curve` measures at each size: the paths (write, read, search) and their
// sweeps — rising fixed rates until the server falls behind (the knee), then saturated.
import { createGenerator, requestBody } from '../seed/generator.mjs';
import { fmt } from '../lib/common.mjs';
import { openLoop } from '../scale/load.mjs';

import { point, settle } from './load.mjs';

/**
 * The paths on the app (`app` = true) or the baseline (bench/baseline-server.mjs: write and read
 * only). Each gives `next(seed)`: a request generator, the same sequence for the same seed.
 * - write: POST /api/v1/buyer-requests, a fresh generated body each time (as bench:scale A);
 * - read: GET /api/v1/buyer-requests?limit=20 (as bench:run's GET: the 20 newest + a cursor);
 * - search: GET /api/v1/inventory?cardName=<a generated request's card>&limit=20 — the one read
 *   whose work depends on the number of items.
 */
export function pathsFor(server, catalog, { app }) {
  const prefix = app ? '/api/v1' : '/baseline';
  const headers = app ? { authorization: `Bearer ${server.apiKey}` } : {};
  const target = { url: server.url, headers };
  const paths = [
    {
      id: 'write',
      label: `POST ${prefix}/buyer-requests`,
      target,
      next: (seed) => {
        const gen = createGenerator(catalog, { seed });
        return () => ({ method: 'POST', path: `${prefix}/buyer-requests`, body: JSON.stringify(requestBody(gen.buyerRequest())) });
      },
    },
    {
      id: 'read',
      label: `GET ${prefix}/buyer-requests?limit=20`,
      target,
      next: () => () => ({ method: 'GET', path: `${prefix}/buyer-requests?limit=20` }),
    },
  ];
  if (app) {
    paths.push({
      id: 'search',
      label: 'GET /api/v1/inventory?cardName=…&limit=20',
      target,
      next: (seed) => {
        const gen = createGenerator(catalog, { seed });
        return () => ({ method: 'GET', path: `/api/v1/inventory?cardName=${encodeURIComponent(gen.buyerRequest().cardName.trim())}&limit=20` });
      },
    });
  }
  return paths;
}

/**
 * One path's sweep on one server: a warm-up at the lowest rate, then each rate in turn until the
 * server falls behind (achieved < 90 % of offered: that rate is the knee, no higher one is tried),
 * then saturated (closed loop). Every point starts on a caught-up server (`watch`).
 */
export async function sweep(server, path, { settings, watch, seed, log, label }) {
  const failures = [];
  if (settings.warmupSeconds > 0) {
    const warm = await openLoop(path.target, { rate: settings.rates[0], durationSeconds: settings.warmupSeconds, connections: settings.connections, nextRequest: path.next(seed + 1) });
    if (warm.non2xx || warm.errors) failures.push(`${label} ${path.id} (warm-up): ${warm.non2xx} non-2xx ${JSON.stringify(warm.statusCodes)}, ${warm.errors} errors`);
    await settle(watch);
  }
  const common = { durationSeconds: settings.durationSeconds, connections: settings.connections, quietWaitSeconds: settings.quietWaitSeconds, watch };
  const points = [];
  let knee = null;
  for (const rate of settings.rates) {
    const p = await point(server, path.target, path.next(seed + 10 + rate), { ...common, rate, label: `${label} ${path.id} @${rate}/s` });
    points.push(p);
    failures.push(...p.failures);
    log(
      `${label} ${path.id} @ ${rate}/s: achieved ${fmt(p.achievedRate, 0)}/s, p50 ${fmt(p.latencyMs.p50, 2)} ms, p99 ${fmt(p.latencyMs.p99, 2)} ms, ` +
        `${p.cpuUsPerRequest} µs CPU/req (${p.cpuUsPerRequestInWindow} in the window)${p.failures.length ? `  !! ${p.failures.join('; ')}` : ''}`,
    );
    if (!p.keptUp) {
      knee = rate;
      break;
    }
  }
  const saturated = await point(server, path.target, path.next(seed + 5), { ...common, rate: 0, label: `${label} ${path.id} saturated` });
  failures.push(...saturated.failures);
  log(
    `${label} ${path.id} saturated (${settings.connections} conns): ${fmt(saturated.achievedRate, 0)}/s, p50 ${fmt(saturated.latencyMs.p50, 2)} ms, ` +
      `p99 ${fmt(saturated.latencyMs.p99, 2)} ms, ${saturated.cpuUsPerRequest} µs CPU/req`,
  );
  return { path: path.id, label: path.label, points, kneeRate: knee, lastKeptUpRate: points.filter((p) => p.keptUp).at(-1)?.offeredRate ?? null, saturated, failures };
}
