// What the webhooks bench does on an app over HTTP: a fresh app with a workspace, webhooks, their
// deliveries as the API reports them, intake sessions filled then pushed, and the rows they hold.
import { expectJson } from '../lib/common.mjs';
import { tempDir } from '../lib/resources.mjs';

import { startApp, runCli, stopApp } from './app.mjs';
import { EVENT_TYPE, log, PER_ENDPOINT } from './config.mjs';
import { pct, round } from './stats.mjs';

/** A fresh app; with `split`, the API runs HTTP only and a worker process runs the rest. */
export async function freshApp(name, appRoot, env, { split = false } = {}) {
  const dataDir = tempDir(`bench-webhooks-data-${name}-`);
  const created = await runCli(appRoot, dataDir, ['workspace', 'create', '--name', `Webhooks ${name}`, '--slug', `wh-${name}`]);
  if (!created.apiKey) throw new Error(`CLI gave no apiKey: ${JSON.stringify(created)}`);
  const appEnv = {
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(PER_ENDPOINT),
    ...env,
  };
  const app = await startApp(name, appRoot, split ? { ...appEnv, RUN_WORKERS: 'false' } : appEnv);
  if (split) {
    try {
      app.worker = await startApp(`${name}-worker`, appRoot, appEnv, { kind: 'worker' });
    } catch (error) {
      await stopApp(app);
      throw error;
    }
  }
  app.pids = [app.child.pid, app.worker?.child.pid].filter(Boolean);
  app.apiKey = created.apiKey;
  app.headers = { authorization: `Bearer ${created.apiKey}`, 'content-type': 'application/json' };
  app.env = env;
  log(`${name}: app ${app.url} (log ${app.logPath})`);
  return app;
}

export async function createWebhook(app, url, description) {
  const wh = await expectJson(`${app.url}/api/v1/webhooks`, { method: 'POST', headers: app.headers, body: JSON.stringify({ url, events: [EVENT_TYPE], description }) }, 201);
  if (typeof wh.secret !== 'string' || !wh.id) throw new Error(`webhook create gave ${JSON.stringify(wh)}`);
  return wh;
}

/** What the API says about a webhook's deliveries: the first page per status (limit 100), and the webhook. */
export async function deliveryApiView(app, webhookId) {
  const view = {};
  for (const status of ['succeeded', 'pending', 'failed']) {
    const page = await expectJson(`${app.url}/api/v1/webhooks/${webhookId}/deliveries?status=${status}&limit=100`, { headers: app.headers }, 200);
    view[status] = `${page.data.length}${page.nextCursor ? '+' : ''}`;
    if (status === 'succeeded' && page.data[0]) view.sampleAttempt = page.data[0].attempts?.at(-1) ?? null;
    if (status === 'pending') {
      // Pending deliveries that already failed an attempt (first page): how, e.g. a time-out.
      const failed = page.data.filter((d) => d.attempts?.some((a) => a.outcome === 'failed'));
      view.pendingWithFailedAttempt = failed.length;
      view.sampleFailedAttempt = failed[0]?.attempts?.find((a) => a.outcome === 'failed') ?? null;
    }
  }
  const wh = await expectJson(`${app.url}/api/v1/webhooks/${webhookId}`, { headers: app.headers }, 200);
  view.webhookStatus = wh.status;
  view.failingSince = wh.failingSince;
  return view;
}

/** Every delivery of a webhook through the API (pages of 100, at most `max`): statuses and attempt durations. */
export async function deliveryAudit(app, webhookId, max) {
  const all = [];
  let cursor = null;
  do {
    const page = await expectJson(
      `${app.url}/api/v1/webhooks/${webhookId}/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: app.headers },
      200,
    );
    all.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor && all.length < max);
  const statuses = {};
  for (const d of all) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
  const attempts = all.flatMap((d) => d.attempts ?? []);
  const ok = attempts.filter((a) => a.outcome === 'succeeded').map((a) => a.durationMs).sort((a, b) => a - b);
  const failed = attempts.filter((a) => a.outcome === 'failed');
  return {
    deliveries: all.length,
    statuses,
    // The app's own timing of each successful attempt: from the request's creation to the answer,
    // so it includes any wait for a pooled socket.
    succeededAttemptMs: { p50: pct(ok, 50), p99: pct(ok, 99), max: ok[ok.length - 1] ?? null },
    failedAttempts: failed.length,
    sampleFailedAttempt: failed[0] ?? null,
  };
}

/** Intake sessions holding `total` rows (`rowsPerPush` each), filled before any clock starts. */
export async function prepareSessions(app, total, rowsPerPush, nextRow) {
  const base = `${app.url}/api/v1/ingestion/sessions`;
  const sessions = [];
  const t0 = performance.now();
  for (let done = 0; done < total; done += rowsPerPush) {
    const rows = Array.from({ length: Math.min(rowsPerPush, total - done) }, nextRow);
    const session = await expectJson(base, { method: 'POST', headers: app.headers, body: JSON.stringify({ name: `webhooks bench ${done}`, source: 'bench:webhooks' }) }, 201);
    const added = await expectJson(`${base}/${session.id}/items`, { method: 'POST', headers: app.headers, body: JSON.stringify(rows) }, 200);
    if (added.added !== rows.length || added.counts.error !== 0) throw new Error(`add items: ${JSON.stringify(added.counts)} for ${rows.length} rows`);
    sessions.push({ id: session.id, rows: rows.length });
  }
  return { sessions, seconds: (performance.now() - t0) / 1000 };
}

/** Pushes the sessions back to back: the events are produced here. */
export async function pushAll(app, sessions) {
  const base = `${app.url}/api/v1/ingestion/sessions`;
  const t0 = performance.now();
  let pushed = 0;
  const pushMs = [];
  for (const s of sessions) {
    const p0 = performance.now();
    const r = await expectJson(`${base}/${s.id}/push`, { method: 'POST', headers: { authorization: app.headers.authorization } }, 200);
    pushMs.push(performance.now() - p0);
    if (r.pushed !== s.rows) throw new Error(`push ${s.id}: pushed ${r.pushed} of ${s.rows} (skipped ${r.skipped})`);
    pushed += r.pushed;
  }
  const end = performance.now();
  pushMs.sort((a, b) => a - b);
  return {
    pushes: sessions.length,
    events: pushed,
    startedAt: t0,
    endedAt: end,
    seconds: round((end - t0) / 1000, 3),
    eventsPerSecond: round(pushed / ((end - t0) / 1000), 1),
    pushMs: { p50: round(pct(pushMs, 50), 0), max: round(pushMs[pushMs.length - 1], 0) },
  };
}

/**
 * Valid intake rows in the shape sellers send: the bench's seeded generator (bench/seed) when the
 * catalogue data is there, else a fixed valid row with a varying SKU.
 */
export async function rowMaker() {
  try {
    const { createGenerator, loadCatalog } = await import('../seed/generator.mjs');
    const gen = createGenerator(loadCatalog(), { seed: 7 });
    return () => gen.intakeRow(0).row;
  } catch (error) {
    log(`catalogue data not found (${String(error?.message ?? error).split('\n')[0]}); using a fixed row`);
    let i = 0;
    return () => ({ cardName: 'Charizard', setName: 'Base Set', condition: 'NM', price: '10.00', quantity: 1, sku: `BENCH-${(i += 1)}` });
  }
}
