// The webhooks bench's baseline, throughput (or split: API + worker process) and backlog scenarios.
import { Worker } from 'node:worker_threads';

import { fmt } from '../lib/common.mjs';
import { onCleanup } from '../lib/resources.mjs';

import { createWebhook, deliveryApiView, freshApp, prepareSessions, pushAll } from './api.mjs';
import { onApp, waitFor } from './app.mjs';
import { log, PER_ENDPOINT, settings, sleep } from './config.mjs';
import { awaitQuiet, cpuWindow } from './machine.mjs';
import { deliveryStats, perSecond, receiverChecks, round } from './stats.mjs';

// The baseline's worker thread is terminated at cleanup (exit, failure or signal).
const workers = new Set();
onCleanup(() => {
  for (const w of workers) w.terminate();
});

export async function scenarioBaseline(receiver) {
  const secret = `whsec_${Buffer.from('bench-baseline-secret-0123456789').toString('base64')}`;
  const s = receiver.route('/baseline', { mode: 'ok', secret });
  const total = settings.events;
  const quiet = settings.quietWaitSeconds ? await awaitQuiet('baseline', []) : null;
  log(`baseline: ${total} signed POSTs, ${PER_ENDPOINT} in flight …`);
  const window = cpuWindow(null);
  const worker = new Worker(new URL('./baseline-client.mjs', import.meta.url), { workerData: { url: receiver.url('/baseline'), secret, total, concurrency: PER_ENDPOINT } });
  workers.add(worker);
  const result = await new Promise((res, rej) => {
    worker.once('message', (m) => (m.ok ? res(m.result) : rej(new Error(`baseline client: ${m.error}`))));
    worker.once('error', rej);
  });
  const cpu = window();
  workers.delete(worker);
  await worker.terminate();
  const out = {
    ...result,
    requestsPerSecond: round(result.requestsPerSecond, 1),
    latencyMs: { p50: round(result.latencyMs.p50, 2), p99: round(result.latencyMs.p99, 2), max: round(result.latencyMs.max, 2) },
    receiver: receiverChecks(s),
    benchProcessCores: round(cpu.benchProcessCores, 2),
    otherCores: cpu.otherCores,
    quiet,
  };
  delete out.processCpuSeconds;
  log(`baseline: ${fmt(out.requestsPerSecond)} req/s, p50 ${fmt(out.latencyMs.p50, 2)} ms, p99 ${fmt(out.latencyMs.p99, 2)} ms`);
  return out;
}

export async function scenarioThroughput(appRoot, receiver, nextRow, { split = false } = {}) {
  const N = settings.events;
  const name = split ? 'split' : 'throughput';
  const app = await freshApp(name, appRoot, {}, { split });
  return onApp(app, async () => {
    const s = receiver.route(`/${name}`, { mode: 'ok' });
    const wh = await createWebhook(app, receiver.url(`/${name}`), `bench: ${name}`);
    s.secret = wh.secret;
    const prep = await prepareSessions(app, N, settings.rowsPerPush, nextRow);
    const quiet = settings.quietWaitSeconds ? await awaitQuiet(name, app.pids) : null;
    log(`${name}: ${prep.sessions.length} sessions of ${settings.rowsPerPush} rows filled in ${fmt(prep.seconds, 1)} s; pushing …`);
    const cpu = cpuWindow(app.pids);
    const produced = await pushAll(app, prep.sessions);
    const cpuAtLastPush = cpu();
    log(`${name}: ${produced.events} events in ${fmt(produced.seconds, 2)} s (${fmt(produced.eventsPerSecond)} /s); ${s.okIds.size} delivered so far`);
    const done = await waitFor(`${name} deliveries`, () => s.okIds.size >= N, settings.drainTimeoutSeconds, app);
    const cpuAll = cpu();
    const d = deliveryStats(s, produced.startedAt, { expected: N });
    const last = s.firstOk[s.firstOk.length - 1];
    const out = {
      production: produced,
      deliveries: {
        ...d,
        perSecondFromFirstPush: perSecond(s.firstOk, produced.startedAt),
        deliveredWhenLastPushAnswered: s.firstOk.filter((t) => t <= produced.endedAt).length,
        drainAfterLastPushSeconds: done ? round((last - produced.endedAt) / 1000, 3) : null,
      },
      cpuDuringPushes: cpuAtLastPush,
      cpuUntilLastDelivery: cpuAll,
      appCpuMsPerDelivery: d.delivered ? round((cpuAll.appCpuSeconds * 1000) / d.delivered, 3) : null,
      receiver: receiverChecks(s),
      api: await deliveryApiView(app, wh.id),
      prepSeconds: round(prep.seconds, 2),
      quiet,
    };
    log(
      `${name}: delivered ${d.delivered}/${N}, overall ${fmt(d.deliveriesPerSecondOverall)} /s, p10–p90 ${fmt(d.deliveriesPerSecondP10toP90)} /s, ` +
        `lag p50 ${d.lagMs.p50} ms p99 ${d.lagMs.p99} ms; app ${fmt(cpuAll.appCores, 2)} cores`,
    );
    return out;
  });
}

export async function scenarioBacklog(appRoot, receiver, nextRow, estimateRate) {
  const N = settings.events;
  const app = await freshApp('backlog', appRoot, { WEBHOOK_RETRY_SCHEDULE: '0,1s,1s' });
  return onApp(app, async () => {
    const s = receiver.route('/backlog', { mode: 'hold' });
    const wh = await createWebhook(app, receiver.url('/backlog'), 'bench: backlog');
    s.secret = wh.secret;
    const prep = await prepareSessions(app, N, settings.rowsPerPush, nextRow);
    const quiet = settings.quietWaitSeconds ? await awaitQuiet('backlog', app.pids) : null;
    // T: when every first attempt should be in (at 60 % of the throughput scenario's rate, + 10 s),
    // on a whole second (Retry-After's resolution).
    const firstPhase = settings.holdSeconds || N / Math.max(50, 0.6 * estimateRate) + 10;
    const holdUntil = Math.ceil((Date.now() + firstPhase * 1000) / 1000) * 1000;
    s.holdUntil = holdUntil;
    log(`backlog: ${prep.sessions.length} sessions filled in ${fmt(prep.seconds, 1)} s; first attempts answered 503 until T = now + ${fmt(firstPhase, 0)} s …`);
    const produced = await pushAll(app, prep.sessions);
    log(`backlog: ${produced.events} events in ${fmt(produced.seconds, 2)} s; ${s.held} first attempts so far`);
    await waitFor('backlog first attempts', () => s.heldIds.size >= N || Date.now() >= holdUntil, settings.drainTimeoutSeconds, app);
    const firstAttemptsInAt = performance.now();
    const heldBeforeT = s.heldIds.size;
    const firstAttemptSpan = s.arrivals.length > 1 ? (s.arrivals[s.arrivals.length - 1] - s.arrivals[0]) / 1000 : Number.NaN;
    log(`backlog: ${heldBeforeT} of ${N} deliveries answered 503 (first attempts over ${fmt(firstAttemptSpan, 1)} s); waiting for T …`);
    const waitMs = holdUntil - Date.now();
    if (waitMs > 0) await sleep(waitMs);
    // T on the performance clock (the sleep may end a few ms late while the receiver is busy).
    const tPerf = performance.now() - (Date.now() - holdUntil);
    const cpu = cpuWindow(app.pids);
    const done = await waitFor('backlog drain', () => s.okIds.size >= N, settings.drainTimeoutSeconds, app);
    const cpuDrain = cpu();
    // The backlog: deliveries answered 503 before T; a first attempt arriving after T (T too early)
    // is answered 200 at once and counted apart.
    const drained = [...s.okIds].filter(([id]) => s.heldIds.has(id)).map(([, t]) => t).sort((a, b) => a - b);
    const lateFirst = s.okIds.size - drained.length;
    const d = deliveryStats(s, tPerf, { expected: heldBeforeT, times: drained, lags: [] });
    delete d.lagMs; // the backlog was held on purpose: its lag says nothing
    const last = drained[drained.length - 1];
    const out = {
      production: produced,
      holdSeconds: round(firstPhase, 1),
      firstAttempts: {
        answered503: s.held,
        distinctBeforeT: heldBeforeT,
        allInBeforeT: heldBeforeT >= N,
        spanSeconds: round(firstAttemptSpan, 2),
        attemptsPerSecond: round(heldBeforeT / firstAttemptSpan, 1),
        idleBeforeTSeconds: round((tPerf - firstAttemptsInAt) / 1000, 1),
      },
      drain: {
        ...d,
        backlog: heldBeforeT,
        complete: done && lateFirst === 0,
        fromTtoLastSeconds: drained.length ? round((last - tPerf) / 1000, 3) : null,
        deliveriesPerSecondFromT: drained.length ? round(drained.length / ((last - tPerf) / 1000), 1) : null,
        lateFirstAttemptsAnswered200: lateFirst,
      },
      cpuDuringDrain: cpuDrain,
      appCpuMsPerDelivery: drained.length ? round((cpuDrain.appCpuSeconds * 1000) / drained.length, 3) : null,
      receiver: receiverChecks(s),
      api: await deliveryApiView(app, wh.id),
      prepSeconds: round(prep.seconds, 2),
      quiet,
    };
    log(
      `backlog: drained ${drained.length} in ${fmt(out.drain.fromTtoLastSeconds, 2)} s from T: ${fmt(out.drain.deliveriesPerSecondFromT)} /s ` +
        `(p10–p90 ${fmt(d.deliveriesPerSecondP10toP90)} /s); app ${fmt(cpuDrain.appCores, 2)} cores`,
    );
    return out;
  });
}
