// Scale scenario A: POST /api/v1/buyer-requests against 1M seeded items, beside the bare-Fastify
// baseline; saturation and fixed-rate runs, the matchCount distribution, what the load left behind.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { cpuSecondsOf, expectJson, fmt } from '../lib/common.mjs';
import { tempDir } from '../lib/resources.mjs';
import { createGenerator, requestBody } from '../seed/generator.mjs';

import { startAndCatchUp } from './app.mjs';
import { waitCaughtUp } from './catch-up.mjs';
import { BASELINE_MAIN, log, outName, settings } from './config.mjs';
import { bodyStream, distribution, MATCH_BUCKETS, measure, openLoop, percentiles } from './load.mjs';
import { createWorkspace, seedLog, startServer, stopServer } from './processes.mjs';
import { dirSizes, memoryOf, memorySampler, residentByMapping } from './system.mjs';

export async function scenarioA(appRoot, catalog) {
  let dataDir;
  let bench;
  let other;
  let seeding;
  if (settings.reuseA) {
    // A DATA_DIR kept by an earlier run (BENCH_SCALE_KEEP=1): no seeding; it also holds the buyer
    // requests (and matches) that run's load created. For profiling iterations, not for the record.
    dataDir = settings.reuseA;
    ({ bench, other } = JSON.parse(readFileSync(join(dataDir, 'scale-bench.json'), 'utf8')));
    seeding = { reused: dataDir };
    log(`A: reusing ${dataDir} (no seeding)`);
  } else {
    dataDir = tempDir('scale-data-A-');
    bench = await createWorkspace(appRoot, dataDir, 'scale-a');
    other = settings.otherItems + settings.otherRequests > 0 ? await createWorkspace(appRoot, dataDir, 'scale-a-other') : null;
    writeFileSync(join(dataDir, 'scale-bench.json'), JSON.stringify({ bench, other }));
    log(`A: seeding ${settings.items} items${other ? ` (+ ${settings.otherItems} items, ${settings.otherRequests} requests in a second workspace)` : ''} into ${dataDir} …`);
    seeding = await seedLog(appRoot, {
      dataDir,
      workspaces: [
        ...(other
          ? [{ workspaceId: other.id, actor: 'bench:seed', items: settings.otherItems, requests: settings.otherRequests, seed: settings.seed + 100, skew: settings.skew, interleave: true }]
          : []),
        { workspaceId: bench.id, actor: 'bench:seed', items: settings.items, requests: 0, seed: settings.seed, skew: settings.skew },
      ],
    });
    seeding.dataDirMiB = dirSizes(dataDir);
    log(`A: seeded ${seeding.events} events in ${fmt(seeding.seconds, 1)} s (${fmt(seeding.eventsPerSecond, 0)} events/s)`);
  }

  const baselineDir = tempDir('scale-baseline-');
  const baseline = await startServer('baseline', [BASELINE_MAIN], { DATA_DIR: baselineDir });
  const { app, watch, catchUp } = await startAndCatchUp('A', appRoot, dataDir, settings.profile.includes('A'));
  catchUp.dataDirMiB = dirSizes(dataDir);
  // The app's memory (issue 20: RSS < 1 GiB at 1,000,000 items): after the catch-up (catchUp.memory),
  // after the load, after the drain, and the peak (sampled every 500 ms from here; VmHWM since spawn).
  const sampler = memorySampler(app.child.pid);
  const byMapping = { afterCatchUp: residentByMapping(app.child.pid) };
  sampler.phase('smoke + saturation load');

  const targets = {
    baseline: { url: baseline.url, path: '/baseline/buyer-requests', headers: {} },
    app: { url: app.url, path: '/api/v1/buyer-requests', headers: { authorization: `Bearer ${bench.apiKey}` } },
  };
  // Smoke: the shapes the run relies on, and one answer timed on its own (idle server).
  const smokeGen = createGenerator(catalog, { seed: settings.seed + 7 });
  const smoke = [];
  for (let i = 0; i < 20; i += 1) {
    const t0 = performance.now();
    const created = await expectJson(
      `${targets.app.url}${targets.app.path}`,
      { method: 'POST', headers: { ...targets.app.headers, 'content-type': 'application/json' }, body: JSON.stringify(requestBody(smokeGen.buyerRequest())) },
      201,
    );
    if (typeof created.id !== 'string' || !Number.isInteger(created.matchCount)) throw new Error(`unexpected POST answer ${JSON.stringify(created)}`);
    smoke.push({ ms: performance.now() - t0, matchCount: created.matchCount });
  }
  log(`A: smoke — 20 sequential POSTs, median ${fmt(smoke.map((s) => s.ms).sort((a, b) => a - b)[10], 2)} ms, matchCounts ${smoke.map((s) => s.matchCount).join(' ')}`);

  // Same body sequences for both servers.
  const bodies = () => ({
    warm: bodyStream(createGenerator(catalog, { seed: settings.seed + 1000 })),
    measured: bodyStream(createGenerator(catalog, { seed: settings.seed + 2000 })),
  });
  const baselineResult = await measure('POST baseline (bare Fastify + node:sqlite INSERT)', baseline, targets.baseline, bodies());
  await stopServer(baseline);

  const matchCounts = [];
  let unparsable = 0;
  const headBefore = watch.head();
  const profileFile = settings.profile.includes('A') ? `${outName().replace(/\.json$/, '')}-A` : null;
  const appResult = await measure(`POST app (${settings.items.toLocaleString('en')} items)`, app, targets.app, bodies(), {
    onAnswer: (status, body) => {
      if (status !== 201) return;
      try {
        matchCounts.push(JSON.parse(body).matchCount);
      } catch {
        unparsable += 1;
      }
    },
    profile: profileFile,
    sql: app.sql,
  });
  // The saturation run above measures queueing: 20 connections back to back on 2 cores (the
  // baseline misses 10 ms too). These runs keep up to 20 connections open but send evenly spaced
  // requests at a fixed total rate (open loop), so latency is the service time under that load.
  const atRates = [];
  sampler.phase('fixed-rate load');
  for (const rate of settings.rates) {
    const gen = bodyStream(createGenerator(catalog, { seed: settings.seed + 3000 + rate }));
    const cpu0 = cpuSecondsOf(app.child.pid);
    const summary = await openLoop(targets.app, { rate, durationSeconds: settings.durationSeconds, connections: settings.connections, nextBody: gen });
    const bad = summary.non2xx || summary.errors ? `${summary.non2xx} non-2xx, ${summary.errors} errors` : '';
    const serverCpuCores = (cpuSecondsOf(app.child.pid) - cpu0) / summary.duration;
    atRates.push({ rate, connections: settings.connections, ...summary, serverCpuCores, failures: bad ? [bad] : [], p99Under10ms: summary.latencyMs.p99 < 10 && !bad });
    log(`A at ${rate} req/s over ${settings.connections} connections: p50 ${fmt(summary.latencyMs.p50, 2)} ms, p99 ${fmt(summary.latencyMs.p99, 2)} ms${bad ? `  !! ${bad}` : ''}`);
  }

  const afterLoad = memoryOf(app.child.pid);
  byMapping.afterLoad = residentByMapping(app.child.pid);
  sampler.phase('drain');

  // What the requests left behind: reverse matching re-checks each new request; time the drain.
  const drainStart = performance.now();
  const drained = await waitCaughtUp(watch, {
    since: drainStart,
    timeoutMs: 600_000,
    pollMs: 100,
    label: 'A drain',
    appRoot,
    dataDir,
  });
  const headAfter = watch.head();
  const appended = watch.count(
    `SELECT count(*) AS events,
            sum(type = 'buyer_request.created') AS created,
            sum(type = 'buyer_request.matched') AS matched,
            sum(type = 'match.created') AS matches
       FROM events WHERE position > ?`,
    headBefore,
  );
  const memory = memoryOf(app.child.pid);
  byMapping.afterDrain = residentByMapping(app.child.pid);
  const sampledPeak = sampler.stop();
  await stopServer(app);
  watch.events.close();
  watch.reads?.close();

  return {
    dataDir: settings.keep ? dataDir : undefined,
    workspace: { id: bench.id, items: settings.items },
    otherWorkspace: other ? { id: other.id, items: settings.otherItems, requests: settings.otherRequests } : null,
    seeding,
    catchUp,
    smokeSequentialMs: percentiles(smoke.map((s) => s.ms).sort((a, b) => a - b)),
    baseline: baselineResult,
    app: appResult,
    ratioReqPerSec: appResult.reqPerSecMean / baselineResult.reqPerSecMean,
    matchCount: { ...distribution(matchCounts, MATCH_BUCKETS), unparsable },
    appendedDuringRun: appended,
    afterRun: { drainToLagZeroMs: drained.bothCaughtUpMs, processManagerDoneMs: drained.processManagerCaughtUpMs, headAfter, memory },
    memory: {
      afterCatchUp: catchUp.memory,
      afterLoad,
      afterDrain: memory,
      sampledPeak,
      peakRssMiB: Math.max(memory.peakRssMiB, sampledPeak.rssMiB ?? 0),
      under1GiB: Math.max(memory.peakRssMiB, sampledPeak.rssMiB ?? 0) < 1024,
      residentByMapping: byMapping,
      method:
        'MiB from /proc/<pid>/status of the app and its live children, summed: VmRSS, VmHWM (kernel peak since spawn, catch-up included), ' +
        'RssAnon, RssFile, RssShmem; residentByMapping: the Rss of the app process by mapping from /proc/<pid>/smaps (top 8); afterCatchUp once caught up, afterLoad after the saturation and fixed-rate runs, afterDrain once ' +
        'reverse matching has caught up; sampledPeak = highest VmRSS sampled every 500 ms from the catch-up to the end; peakRssMiB = max(VmHWM, sampledPeak)',
    },
    target: { p99Ms: 10, p99: appResult.latencyMs.p99, met: appResult.latencyMs.p99 < 10 && appResult.non2xx === 0 && appResult.errors === 0 },
    atRates,
  };
}
