// Scale scenario B: an intake session of 10,000 rows pushed against 100,000 open buyer requests;
// the push timed, what it appended, the health of the server meanwhile, and the time to lag 0.
import { cpuSecondsOf, expectJson, fmt } from '../lib/common.mjs';
import { machineBusySeconds, tempDir } from '../lib/resources.mjs';
import { createGenerator } from '../seed/generator.mjs';

import { startAndCatchUp } from './app.mjs';
import { waitCaughtUp } from './catch-up.mjs';
import { log, outName, settings, sleep } from './config.mjs';
import { Profiler, SqlWindow } from './instruments.mjs';
import { percentiles } from './load.mjs';
import { createWorkspace, seedLog, stopServer } from './processes.mjs';
import { awaitQuiet, dirSizes, ioDelta, ioOf, memoryOf } from './system.mjs';

/** Splits rows into JSON array bodies under the body limit (and the 10,000-row cap per call). */
function chunkRows(rows, maxBytes, maxRows = 10_000) {
  const chunks = [];
  let cur = [];
  let size = 2;
  for (const row of rows) {
    const len = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (cur.length > 0 && (size + len > maxBytes || cur.length >= maxRows)) {
      chunks.push(cur);
      cur = [];
      size = 2;
    }
    cur.push(row);
    size += len;
  }
  if (cur.length > 0) chunks.push(cur);
  return chunks;
}

export async function scenarioB(appRoot, catalog) {
  const dataDir = tempDir('scale-data-B-');
  const bench = await createWorkspace(appRoot, dataDir, 'scale-b');
  log(`B: seeding ${settings.requests} open buyer requests${settings.bItems ? ` + ${settings.bItems} items` : ''} into ${dataDir} …`);
  const seeding = await seedLog(appRoot, {
    dataDir,
    workspaces: [{ workspaceId: bench.id, actor: 'bench:seed', items: settings.bItems, requests: settings.requests, seed: settings.seed + 500, skew: settings.skew, interleave: true }],
  });
  seeding.dataDirMiB = dirSizes(dataDir);
  log(`B: seeded ${seeding.events} events in ${fmt(seeding.seconds, 1)} s (${fmt(seeding.eventsPerSecond, 0)} events/s)`);
  const { app, watch, catchUp } = await startAndCatchUp('B', appRoot, dataDir, settings.profile.includes('B'));
  catchUp.dataDirMiB = dirSizes(dataDir);
  const headers = { authorization: `Bearer ${bench.apiKey}`, 'content-type': 'application/json' };
  const base = `${app.url}/api/v1/ingestion/sessions`;

  // The rows: the same card model as the requests (a different seed).
  const gen = createGenerator(catalog, { seed: settings.seed + 3000, skew: settings.skew });
  const generated = Array.from({ length: settings.pushRows }, () => gen.intakeRow(settings.errorRate));
  const rows = generated.map((g) => g.row);
  const generatedErrors = generated.filter((g) => g.error).length;
  const chunks = chunkRows(rows, Math.floor(settings.bodyLimitBytes * 0.95));

  const session = await expectJson(base, { method: 'POST', headers, body: JSON.stringify({ name: 'Scale bench push', source: 'bench:scale', defaultCurrency: 'USD' }) }, 201);
  const adds = [];
  let lastCounts = null;
  for (const chunk of chunks) {
    const body = JSON.stringify(chunk);
    const t0 = performance.now();
    const added = await expectJson(`${base}/${session.id}/items`, { method: 'POST', headers, body }, 200);
    adds.push({ rows: chunk.length, bytes: Buffer.byteLength(body), ms: Math.round(performance.now() - t0), added: added.added });
    if (added.added !== chunk.length) throw new Error(`add items: ${added.added} added for ${chunk.length} rows`);
    lastCounts = added.counts;
  }
  log(`B: added ${rows.length} rows in ${chunks.length} calls (${adds.map((a) => `${a.rows} rows/${Math.round(a.bytes / 1024)} KiB/${a.ms} ms`).join(', ')}); counts ${JSON.stringify(lastCounts)}`);
  // Settle anything the adds left for the projections before timing the push.
  await waitCaughtUp(watch, { since: performance.now(), timeoutMs: 600_000, pollMs: 100, label: 'B pre-push', appRoot, dataDir });

  const headBefore = watch.head();
  const quiet = await awaitQuiet('B push', [app.child.pid], settings.quietWaitSeconds);
  const machine0 = machineBusySeconds();
  const cpu0 = cpuSecondsOf(app.child.pid);
  const io0 = ioOf(app.child.pid);
  const profileFile = settings.profile.includes('B') ? `${outName().replace(/\.json$/, '')}-B` : null;
  const profiler = profileFile ? await Profiler.connect(app.inspector) : null;
  if (profiler) await profiler.start();
  const sql0 = app.sql ? await app.sql.snapshot() : null;
  log(`B: pushing session ${session.id} …`);
  const t0 = performance.now();
  // Where the push is, every 100 ms: the log's head, the slowest projection, reverse matching.
  const samples = [];
  const sampler = setInterval(() => {
    const st = watch.state();
    samples.push({ ms: Math.round(performance.now() - t0), head: st.head, projections: st.minProjection, pm: st.pm, pmTarget: st.pmTarget });
  }, 100);
  // Meanwhile, is the server still answering anything else? GET /api/v1/health, one at a time.
  const probes = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const p0 = performance.now();
      try {
        const res = await fetch(`${app.url}/api/v1/health`, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        probes.push({ at: Math.round(p0 - t0), ms: performance.now() - p0, status: res.status });
      } catch (error) {
        probes.push({ at: Math.round(p0 - t0), ms: performance.now() - p0, status: String(error?.name ?? error) });
      }
      await sleep(100);
    }
  })();
  let pushed;
  try {
    pushed = await expectJson(`${base}/${session.id}/push`, { method: 'POST', headers: { authorization: headers.authorization } }, 200, 600_000);
  } finally {
    clearInterval(sampler);
    probing = false;
  }
  const pushMs = performance.now() - t0;
  await prober;
  const probeMs = probes.map((p) => p.ms).sort((a, b) => a - b);
  const healthDuringPush = {
    probes: probes.length,
    non200: probes.filter((p) => p.status !== 200).length,
    ...percentiles(probeMs),
    longest: probes.sort((a, b) => b.ms - a.ms).slice(0, 3).map((p) => ({ startedAtMs: p.at, ms: Math.round(p.ms) })),
  };
  const prof = profiler ? await profiler.stop(profileFile) : null;
  const pushCpu = cpuSecondsOf(app.child.pid) - cpu0;
  const sqlOfPush = app.sql ? SqlWindow.diff(sql0, await app.sql.snapshot(), 1, 25) : null;
  const pushIo = ioDelta(io0, ioOf(app.child.pid), 1);
  const pushOthers = (machineBusySeconds() - machine0 - pushCpu) / (pushMs / 1000);
  log(`B: push answered in ${fmt(pushMs, 0)} ms: pushed ${pushed.pushed}, skipped ${pushed.skipped}, matchedBuyerRequests ${pushed.matchedBuyerRequests}`);
  // Until every event of the push (items + matches) is projected; t = 0 at the push's start.
  const settled = await waitCaughtUp(watch, { since: t0, timeoutMs: 600_000, pollMs: 50, label: 'B after push', appRoot, dataDir });
  const appended = watch.count(
    `SELECT count(*) AS events,
            sum(type = 'inventory.created') AS inventoryCreated,
            sum(type = 'buyer_request.matched') AS buyerRequestMatched,
            count(DISTINCT CASE WHEN type = 'buyer_request.matched' THEN stream_id END) AS requestsMatched,
            sum(type = 'match.created') AS matchCreated,
            sum(type = 'match.created' AND json_extract(data, '$.kind') = 'full') AS fullMatches,
            sum(type = 'match.created' AND json_extract(data, '$.kind') = 'near_miss') AS nearMisses,
            min(CASE WHEN type = 'match.created' THEN created_at END) AS firstMatchAt,
            max(CASE WHEN type = 'match.created' THEN created_at END) AS lastMatchAt
       FROM events WHERE position > ?`,
    headBefore,
  );
  // Milestones of the push from the samples (t = 0 at the request; resolution 100 ms).
  const lastItem = watch.count(`SELECT max(position) AS p FROM events WHERE position > ? AND type = 'inventory.created'`, headBefore).p;
  const first = (pred) => samples.find(pred)?.ms ?? null;
  const timeline = {
    lastItemPosition: lastItem,
    finalHead: settled.head ?? watch.head(),
    itemsAllAppendedMs: first((x) => x.head >= lastItem),
    itemsAllProjectedMs: first((x) => x.projections >= lastItem),
    reverseMatchingDoneMs: first((x) => x.pm >= lastItem),
    everythingProjectedMs: settled.projectionsCaughtUpMs,
    answeredMs: Math.round(pushMs),
    samples: samples.filter((_, i) => i % 5 === 0).map((x) => [x.ms, x.head - headBefore, x.projections - headBefore, x.pm - headBefore]),
    samplesFormat: '[ms since the push request, events appended, events projected by the slowest projection, reverse-matching checkpoint] (relative to the head before the push), every 500 ms',
  };
  const memory = memoryOf(app.child.pid);
  await stopServer(app);
  watch.events.close();
  watch.reads?.close();

  return {
    dataDir: settings.keep ? dataDir : undefined,
    workspace: { id: bench.id, openRequests: settings.requests, items: settings.bItems },
    timeline,
    seeding,
    catchUp,
    intake: {
      rows: rows.length,
      rowsGeneratedWithErrors: generatedErrors,
      addCalls: adds,
      sessionCounts: lastCounts,
      note: `JSON array bodies split to stay under the ${settings.bodyLimitBytes / 2 ** 20} MiB body limit`,
    },
    push: {
      wallMs: pushMs,
      answer: {
        pushed: pushed.pushed,
        skipped: pushed.skipped,
        matchedBuyerRequests: pushed.matchedBuyerRequests,
        rejections: pushed.rejections?.length ?? null,
        status: pushed.status,
      },
      appCpuSeconds: pushCpu,
      appIo: pushIo,
      healthDuringPush,
      ...(sqlOfPush ? { sql: sqlOfPush } : {}),
      otherCpuCores: pushOthers,
      quietBefore: quiet,
      untilLagZeroMs: settled.bothCaughtUpMs,
      projectionsDoneMs: settled.projectionsCaughtUpMs,
      processManagerDoneMs: settled.processManagerCaughtUpMs,
      cliConfirmations: settled.cliConfirmations,
      appendedByPush: appended,
      ...(prof ? { profile: { cpuprofile: prof.file, summary: prof.summary } } : {}),
    },
    memory,
    target: { pushMs: 3000, met: pushMs < 3000 },
  };
}
