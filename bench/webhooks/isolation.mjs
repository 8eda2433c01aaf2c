// The webhooks bench's isolation scenario: /fast alone, then beside a /slow that never answers on the
// same host:port and on another port, each on a fresh app.
import { fmt } from '../lib/common.mjs';

import { createWebhook, deliveryApiView, deliveryAudit, freshApp, prepareSessions, pushAll } from './api.mjs';
import { onApp, waitFor } from './app.mjs';
import { log, settings, sleep } from './config.mjs';
import { awaitQuiet, cpuWindow } from './machine.mjs';
import { Receiver } from './receiver.mjs';
import { deliveryStats, receiverChecks, round } from './stats.mjs';

/** One isolation app: /fast, plus /slow (never answers) on `slowReceiver` unless null. */
async function isolationRun(label, appRoot, fastReceiver, slowReceiver, nextRow) {
  const M = settings.isolationEvents;
  const app = await freshApp(`isolation-${label}`, appRoot, { WEBHOOK_TIMEOUT_MS: String(settings.slowTimeoutMs) });
  return onApp(app, async () => {
    const fast = fastReceiver.route(`/fast-${label}`, { mode: 'ok' });
    const fastWh = await createWebhook(app, fastReceiver.url(`/fast-${label}`), 'bench: fast');
    fast.secret = fastWh.secret;
    let slow = null;
    let slowWh = null;
    if (slowReceiver) {
      slow = slowReceiver.route(`/slow-${label}`, { mode: 'hang' });
      slowWh = await createWebhook(app, slowReceiver.url(`/slow-${label}`), 'bench: slow');
      slow.secret = slowWh.secret;
    }
    const prep = await prepareSessions(app, M, Math.min(settings.rowsPerPush, M), nextRow);
    const quiet = settings.quietWaitSeconds ? await awaitQuiet(`isolation ${label}`, app.pids) : null;
    const cpu = cpuWindow(app.pids);
    const produced = await pushAll(app, prep.sessions);
    const done = await waitFor(`isolation ${label}: /fast deliveries`, () => fast.okIds.size >= M, settings.isolationWaitSeconds, app);
    const fastDone = performance.now();
    const cpuAll = cpu();
    // /slow is watched for at least 5 time-outs, to see its attempts settle into their pattern.
    const minWindow = 5 * settings.slowTimeoutMs;
    if (slow && fastDone - produced.startedAt < minWindow) await sleep(minWindow - (fastDone - produced.startedAt));
    const endPerf = performance.now();
    const out = {
      production: produced,
      fast: { ...deliveryStats(fast, produced.startedAt, { expected: M }), complete: done, receiver: receiverChecks(fast) },
      cpu: cpuAll,
      quiet,
    };
    out.fast.api = await deliveryApiView(app, fastWh.id);
    out.fast.audit = await deliveryAudit(app, fastWh.id, M + 100);
    if (slow) {
      const inWindow = slow.arrivals.filter((t) => t >= produced.startedAt && t <= endPerf);
      const span = (endPerf - produced.startedAt) / 1000;
      // Attempts per 2 s slice of the window (the time-out), to see the 8-at-a-time pattern.
      const slices = [];
      for (let t = produced.startedAt; t + settings.slowTimeoutMs <= endPerf; t += settings.slowTimeoutMs) {
        slices.push(inWindow.filter((a) => a >= t && a < t + settings.slowTimeoutMs).length);
      }
      out.slow = {
        windowSeconds: round(span, 1),
        attemptsInWindow: inWindow.length,
        attemptsPerSecond: round(inWindow.length / span, 2),
        attemptsPer2sSlices: slices.slice(0, 30),
        maxConcurrentOpen: slow.maxOpen,
        receiver: receiverChecks(slow),
        api: await deliveryApiView(app, slowWh.id),
      };
    }
    log(
      `isolation ${label}: /fast ${out.fast.delivered}/${M}, overall ${fmt(out.fast.deliveriesPerSecondOverall)} /s, lag p99 ${out.fast.lagMs.p99} ms` +
        (out.slow ? `; /slow ${out.slow.attemptsInWindow} attempts (${fmt(out.slow.attemptsPerSecond, 2)} /s), max ${out.slow.maxConcurrentOpen} open` : ''),
    );
    return out;
  });
}

export async function scenarioIsolation(appRoot, receiver, nextRow) {
  const other = await new Receiver().start();
  try {
    return {
      control: await isolationRun('control', appRoot, receiver, null, nextRow),
      sameOrigin: await isolationRun('same-origin', appRoot, receiver, receiver, nextRow),
      otherOrigin: await isolationRun('other-origin', appRoot, receiver, other, nextRow),
    };
  } finally {
    await other.stop();
  }
}
