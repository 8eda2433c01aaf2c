// One size of `npm run bench:curve`: a fresh DATA_DIR seeded with N items through the log (as
// bench:scale A), the real app started on it and caught up, then every path swept; and the
// bare-Fastify baseline swept once per run.
import { cpuSecondsOf, expectJson, fmt } from '../lib/common.mjs';
import { tempDir } from '../lib/resources.mjs';
import { startAndCatchUp } from '../scale/app.mjs';
import { BASELINE_MAIN, sleep } from '../scale/config.mjs';
import { createWorkspace, seedLog, startServer, stopServer } from '../scale/processes.mjs';
import { dirSizes, memoryOf } from '../scale/system.mjs';

import { pathsFor, sweep } from './paths.mjs';

async function seedSize(appRoot, dataDir, items, settings, log) {
  const bench = await createWorkspace(appRoot, dataDir, 'curve');
  const other = settings.otherItems > 0 ? await createWorkspace(appRoot, dataDir, 'curve-other') : null;
  const plan = [{ workspaceId: bench.id, actor: 'bench:seed', items, requests: 0, seed: settings.seed, skew: 0 }];
  // A second, small workspace in front (bench:scale A's realism: the app's stores hold more than one tenant).
  if (other) plan.unshift({ workspaceId: other.id, actor: 'bench:seed', items: settings.otherItems, requests: settings.otherRequests, seed: settings.seed + 100, skew: 0, interleave: true });
  log(`${items.toLocaleString('en')} items: seeding …`);
  const seeding = await seedLog(appRoot, { dataDir, workspaces: plan });
  log(`${items.toLocaleString('en')} items: seeded ${seeding.events} events in ${fmt(seeding.seconds, 1)} s`);
  return { bench, seeding };
}

/** The CPU a caught-up server uses with no requests (its timers and pollers), in cores over 5 s: the floor under a low rate's µs per request. */
async function idleCores(server) {
  const cpu0 = cpuSecondsOf(server.child.pid);
  const t0 = performance.now();
  await sleep(5000);
  return Math.round(((cpuSecondsOf(server.child.pid) - cpu0) / ((performance.now() - t0) / 1000)) * 1000) / 1000;
}

/** Checks each path answers as expected once, on the idle app, before any load. */
async function smoke(paths) {
  for (const path of paths) {
    const req = path.next(999)();
    const init = { method: req.method, headers: { ...path.target.headers, ...(req.body ? { 'content-type': 'application/json' } : {}) }, body: req.body };
    const answer = await expectJson(`${path.target.url}${req.path}`, init, req.method === 'POST' ? 201 : 200);
    const ok = req.method === 'POST' ? typeof answer.id === 'string' : Array.isArray(answer.data);
    if (!ok) throw new Error(`${path.label}: unexpected answer ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

export async function runSize(appRoot, catalog, items, { settings, log }) {
  const dataDir = tempDir('curve-data-');
  const { bench, seeding } = await seedSize(appRoot, dataDir, items, settings, log);
  const label = `${items >= 1e6 ? `${items / 1e6}M` : `${items / 1e3}k`}`;
  const { app, watch, catchUp } = await startAndCatchUp(label, appRoot, dataDir, false);
  try {
    app.apiKey = bench.apiKey;
    const paths = pathsFor(app, catalog, { app: true }).filter((p) => settings.paths.includes(p.id));
    const idle = await idleCores(app);
    log(`${label}: idle, the app uses ${idle} cores`);
    await smoke(paths);
    const sweeps = {};
    for (const path of paths) sweeps[path.id] = await sweep(app, path, { settings, watch, seed: settings.seed + 1000, log, label });
    return {
      items,
      seeding: { events: seeding.events, seconds: seeding.seconds, dataDirMiB: dirSizes(dataDir) },
      catchUp: { projectionsCaughtUpMs: catchUp.projectionsCaughtUpMs, processManagerCaughtUpMs: catchUp.processManagerCaughtUpMs, eventsPerSecond: catchUp.projectionEventsPerSecond },
      idleCpuCores: idle,
      memoryAfter: memoryOf(app.child.pid),
      sweeps,
    };
  } finally {
    await stopServer(app);
    watch.events.close();
    watch.reads?.close();
  }
}

export async function runBaseline(catalog, { settings, log }) {
  const baseline = await startServer('baseline', [BASELINE_MAIN], { DATA_DIR: tempDir('curve-baseline-') });
  try {
    const paths = pathsFor(baseline, catalog, { app: false }).filter((p) => settings.paths.includes(p.id));
    const idle = await idleCores(baseline);
    await smoke(paths);
    const sweeps = {};
    for (const path of paths) sweeps[path.id] = await sweep(baseline, path, { settings, watch: null, seed: settings.seed + 1000, log, label: 'baseline' });
    return { idleCpuCores: idle, sweeps };
  } finally {
    await stopServer(baseline);
  }
}
