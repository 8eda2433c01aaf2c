// `npm run bench:live`: live selling (issue 14) on this machine, in one run (~45 s).
//
// 1. starts the real app (dist, embedded SQLite, workers in-process, rate limits lifted) with a
//    workspace + key made by the real CLI, and the bare-Fastify baseline, each on a temp DATA_DIR;
// 2. the baseline's POST: BENCH_DURATION s × BENCH_LIVE_CONNECTIONS (default 50) connections;
// 3. one hot lot, a claim sale of 10,000 units (every reserve is accepted: won, then waitlisted):
//    the same connections each posting reserves as fast as answered — reserves accepted per
//    second and their p50/p99, app req/s ÷ baseline POST req/s. Every 10th reserve names one of 200
//    buyer requests, and an automation rule archives the buyer request a reserve names
//    (trigger reserve.placed): the lag from each triggering event to its effect (the rule's runs,
//    `lagMs`) at p50/p99 under that load;
// 4. the goal's rate, open loop: BENCH_LIVE_RATE (default 500) reserves/s on another claim lot,
//    p50/p99 counted from each request's due time;
// 5. the same on an auction lot (increment 0.01): bidders raise by a counter, so most land and
//    some are refused (409 RESERVE_TOO_LOW, the expected answer of a too-low bid): accepted/s and
//    p99 of all answers;
// 6. checks: no 5xx, socket error or time-out (else exit 1); the lot's order has no gap
//    (reserveCount = reserves accepted). Prints a markdown table; writes bench/results/live-latest.json.
// Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_LIVE_CONNECTIONS (50).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { cpuSecondsOf, fmt, intEnv, problems, runMain, summarize } from './lib/common.mjs';
import { cleanup, cleanupOnExit } from './lib/resources.mjs';
import { bodyMaker, loadCatalog } from './run/bodies.mjs';
import { cannon, loadOptions } from './run/load.mjs';
import { openLoop, percentiles } from './scale/load.mjs';
import { api, startApp, startBaseline, stopAll } from './trading/app.mjs';
import { log, RESULTS_DIR, round, settings } from './trading/config.mjs';

const CONNECTIONS = intEnv('BENCH_LIVE_CONNECTIONS', 50, 1);
const REQUESTS = 200;
cleanupOnExit(log);

async function showWithLot(app, lot) {
  const item = await api(app, '/api/v1/inventory', { method: 'POST', status: 201, body: { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: 1, quantity: lot.quantity, sku: `live-${lot.name}` } });
  const session = await api(app, '/api/v1/live-sessions', { method: 'POST', status: 201, body: { title: `bench ${lot.name}` } });
  await api(app, `/api/v1/live-sessions/${session.id}/start`, { method: 'POST' });
  const added = await api(app, `/api/v1/live-sessions/${session.id}/lots`, { method: 'POST', status: 201, body: { inventoryItemId: item.id, quantity: lot.quantity, startingPrice: 1, ...(lot.increment ? { increment: lot.increment } : {}) } });
  const path = `/api/v1/live-sessions/${session.id}/lots/${added.id}`;
  await api(app, `${path}/open`, { method: 'POST' });
  return path;
}

async function reserveLoad(app, path, nextBody, seconds) {
  const statuses = {};
  const times = [];
  const result = await cannon(
    {
      url: app.url,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [{ method: 'POST', path: `${path}/reserves`, headers: { ...app.headers }, setupRequest: (req) => ({ ...req, body: nextBody() }) }],
    },
    {
      onResponse: (status, ms) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        times.push(ms);
      },
    },
  );
  times.sort((a, b) => a - b);
  return { result, statuses, all: percentiles(times) };
}

async function runs(app, ruleId) {
  const lags = [];
  let cursor = null;
  const outcomes = {};
  do {
    const page = await api(app, `/api/v1/automations/${ruleId}/runs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const run of page.data) {
      outcomes[run.outcome] = (outcomes[run.outcome] ?? 0) + 1;
      if (typeof run.lagMs === 'number') lags.push(run.lagMs);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return { outcomes, lags: percentiles(lags.sort((a, b) => a - b)), count: lags.length };
}

async function main() {
  const [app, baseline] = await Promise.all([startApp(), startBaseline()]);
  const failures = [];
  const report = { connections: CONNECTIONS, durationSeconds: settings.durationSeconds, at: new Date().toISOString() };
  try {
    // The baseline's POST, as npm run bench measures it.
    const cards = loadCatalog();
    const target = { url: baseline.url, path: '/baseline/buyer-requests', headers: {} };
    if (settings.warmupSeconds > 0) await cannon({ ...loadOptions(target, 'post', bodyMaker(cards, 1001)), connections: CONNECTIONS, duration: settings.warmupSeconds });
    const base = await cannon({ ...loadOptions(target, 'post', bodyMaker(cards, 1002)), connections: CONNECTIONS, duration: settings.durationSeconds });
    if (problems(base)) failures.push(`baseline: ${problems(base)}`);
    report.baseline = summarize(base);
    log(`POST baseline: ${fmt(base.requests.mean)} req/s, p99 ${fmt(base.preciseLatency.p99, 2)} ms`);

    // Buyer requests the reserves name, and the rule that archives the one a reserve names.
    const requests = [];
    for (let i = 0; i < REQUESTS; i += 1) requests.push((await api(app, '/api/v1/buyer-requests', { method: 'POST', status: 201, body: { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', maxPrice: 0.5 } })).id);
    const rule = await api(app, '/api/v1/automations', {
      method: 'POST',
      status: 201,
      body: {
        name: 'archive the request a live reserve names',
        trigger: { event: 'reserve.placed', conditions: [{ field: 'buyer_request_id', op: 'ne', value: null }] },
        action: { type: 'archive_buyer_request', params: {} },
      },
    });

    // The claim sale: every reserve accepted.
    const claims = await showWithLot(app, { name: 'claims', quantity: 10_000 });
    let n = 0;
    const claimBody = () => {
      n += 1;
      return JSON.stringify({ buyer: { externalId: `viewer-${n % 5000}` }, amount: 1, ...(n % 10 === 0 ? { buyerRequestId: requests[(n / 10) % REQUESTS] } : {}) });
    };
    if (settings.warmupSeconds > 0) await reserveLoad(app, claims, claimBody, settings.warmupSeconds);
    const cpu0 = cpuSecondsOf(app.child.pid);
    const claim = await reserveLoad(app, claims, claimBody, settings.durationSeconds);
    const cpu = cpuSecondsOf(app.child.pid) - cpu0;
    if (problems(claim.result)) failures.push(`claim reserves: ${problems(claim.result)}`);
    const claimLot = await api(app, claims);
    const posted = Object.values(claim.statuses).reduce((a, b) => a + b, 0);
    report.claim = { ...summarize(claim.result), cpuMsPerReserve: round((cpu * 1000) / Math.max(1, claim.result['2xx']), 2), reserveCount: claimLot.reserveCount };
    log(`claim sale: ${fmt(claim.result.requests.mean)} reserves/s accepted, p50 ${fmt(claim.result.preciseLatency.p50, 2)} ms, p99 ${fmt(claim.result.preciseLatency.p99, 2)} ms`);
    await new Promise((r) => setTimeout(r, 2000));
    report.automation = await runs(app, rule.id);
    log(`automation: ${report.automation.count} runs, lag p50 ${fmt(report.automation.lags.p50, 1)} ms, p99 ${fmt(report.automation.lags.p99, 1)} ms (${JSON.stringify(report.automation.outcomes)})`);

    // The goal's rate, open loop (latency from each request's due time: a server behind is charged the wait).
    const paced = await showWithLot(app, { name: 'paced', quantity: 10_000 });
    const rate = intEnv('BENCH_LIVE_RATE', 500, 1);
    const open = await openLoop({ url: app.url, path: `${paced}/reserves`, headers: { authorization: app.headers.authorization } }, { rate, durationSeconds: settings.durationSeconds, connections: CONNECTIONS, nextBody: claimBody });
    if (open.non2xx || open.errors) failures.push(`paced reserves: ${JSON.stringify(open.statusCodes)} errors ${open.errors}`);
    report.paced = { rate, ...open };
    log(`paced at ${rate}/s: p50 ${fmt(open.latencyMs.p50, 2)} ms, p99 ${fmt(open.latencyMs.p99, 2)} ms (${JSON.stringify(open.statusCodes)})`);

    // The auction: bids raised by a counter, in arrival order mostly.
    const auction = await showWithLot(app, { name: 'auction', quantity: 1, increment: 0.01 });
    let bid = 100;
    const bidBody = () => {
      bid += 1;
      return JSON.stringify({ buyer: { externalId: `bidder-${bid % 50}` }, amount: bid / 100 });
    };
    const auc = await reserveLoad(app, auction, bidBody, settings.durationSeconds);
    const bad = Object.entries(auc.statuses).filter(([s]) => s !== '201' && s !== '409');
    if (bad.length > 0 || auc.result.errors || auc.result.timeouts) failures.push(`auction: ${JSON.stringify(auc.statuses)} errors ${auc.result.errors} timeouts ${auc.result.timeouts}`);
    const aucLot = await api(app, auction);
    report.auction = { statuses: auc.statuses, acceptedPerSecond: round((auc.statuses[201] ?? 0) / settings.durationSeconds, 1), answersPerSecond: round(auc.result.requests.mean, 1), allAnswersMs: auc.all, reserveCount: aucLot.reserveCount };
    log(`auction: ${report.auction.acceptedPerSecond} accepted/s of ${report.auction.answersPerSecond} answers/s, p99 (all answers) ${fmt(auc.all.p99, 2)} ms`);
    void posted;
  } finally {
    await stopAll(app, baseline);
  }
  const ratio = report.claim.reqPerSecMean / report.baseline.reqPerSecMean;
  console.log(`\n| live (${CONNECTIONS} connections, ${settings.durationSeconds} s) | req/s | p50 ms | p99 ms | ratio to baseline POST |`);
  console.log('|---|---|---|---|---|');
  console.log(`| baseline POST | ${fmt(report.baseline.reqPerSecMean)} | ${fmt(report.baseline.latencyMs.p50, 2)} | ${fmt(report.baseline.latencyMs.p99, 2)} | 1.00 |`);
  console.log(`| reserves, claim sale (all accepted) | ${fmt(report.claim.reqPerSecMean)} | ${fmt(report.claim.latencyMs.p50, 2)} | ${fmt(report.claim.latencyMs.p99, 2)} | ${fmt(ratio, 2)} |`);
  console.log(`| reserves, claim sale, open loop at ${report.paced.rate}/s | ${fmt(report.paced.requestsTotal / report.paced.duration)} | ${fmt(report.paced.latencyMs.p50, 2)} | ${fmt(report.paced.latencyMs.p99, 2)} | — |`);
  console.log(`| reserves, auction (201 + 409) | ${fmt(report.auction.answersPerSecond)} (${fmt(report.auction.acceptedPerSecond)} accepted) | ${fmt(report.auction.allAnswersMs.p50, 2)} | ${fmt(report.auction.allAnswersMs.p99, 2)} | ${fmt(report.auction.answersPerSecond / report.baseline.reqPerSecMean, 2)} |`);
  console.log(`\nApp CPU per accepted reserve: ${report.claim.cpuMsPerReserve} ms. Automation lag (trigger appended → effect recorded, ${report.automation.count} runs): p50 ${fmt(report.automation.lags.p50, 1)} ms, p99 ${fmt(report.automation.lags.p99, 1)} ms.`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'live-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (failures.length > 0) throw new Error(failures.join('\n'));
}

runMain(main, { timeoutSeconds: 300, cleanup, log });
