// `npm run bench:trust`: seller trust (issue 15) on this machine, in one run (~1.5 min).
//
// 1. snapshots the build (dist/ → a temp dir, so a rebuild by someone else during the run changes
//    nothing measured), starts the real app from it (embedded SQLite, workers in-process, every
//    RATE_LIMIT_* at 10⁹: the limiter still counts each request) on a temp DATA_DIR, with a
//    workspace + key made by the real CLI; one trade completed → the seller's first credential;
// 2. (b) signing + serving after a score change: BENCH_TRUST_TRADES (30) sequential trades; for
//    each, the time from sending the POST that moves it to `completed` until GET credential serves
//    a credential whose credentialSubject.inputsCount grew (polled every BENCH_TRUST_POLL_MS, 5 ms)
//    — p50/p95/max (behind the service's public response cache, PUBLIC_CACHE_TTL_MS, this is mostly
//    that TTL: the poll keeps the old copy fresh until it expires); beside it, in this process, the signing itself (signCredential of the built
//    code on a record shaped like the served one: both forms, two Ed25519 signatures) and one raw
//    Ed25519 signature with @noble/ed25519 and with node:crypto, for comparison;
// 3. (a) req/s, closed loop (autocannon, BENCH_TRUST_CONNECTIONS = 32 connections, pipelining 1),
//    after a BENCH_WARMUP (2 s) warm-up of each: the authenticated reference GET
//    /api/v1/inventory/<id> (valid key), GET credential, GET credential with If-None-Match (304),
//    GET badge, and a floor — GET /verify/assets/verify.css, a public route answering a constant
//    (same guard and limiter, no read) — and a ceiling: a bare Fastify process (same package, no
//    Nest, no guard, no read) answering the same credential bytes and ETag from memory: what this
//    machine gives any implementation with the load generator beside it — in two rounds of BENCH_DURATION (5) s each, the second
//    in reverse order, so drift on this shared machine falls on all alike. Per scenario: req/s
//    (requests ÷ seconds over both rounds), p50/p99 of all answers, app CPU µs per request
//    (/proc), and the ratio to the authenticated GET (the goal: credential and badge ≥ 5×);
// 4. checks every status (any unexpected status or socket error fails the run, exit 1), prints
//    markdown tables and writes bench/results/run-15/trust.json (BENCH_TRUST_OUT to change).
//
// Env: BENCH_DURATION (s per round, default 5), BENCH_WARMUP (2), BENCH_TRUST_CONNECTIONS (32),
//      BENCH_TRUST_TRADES (30), BENCH_TRUST_POLL_MS (5), BENCH_TRUST_ONLY (comma list of auth-get,
//      credential, credential-304, badge, floor, ceiling; default all), BENCH_TRUST_SKIP_LAG=1 (skip 2),
//      BENCH_APP_NODE_OPTIONS (extra node flags for the app, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"),
//      BENCH_APP_ROOT (another build's directory, for A/B).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createPrivateKey, sign as nodeSign } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

import { cpuSecondsOf, expectJson, fmt, gitCommit, intEnv, runMain, UNLIMITED_RATE_LIMITS } from './lib/common.mjs';
import { cleanup, cleanupOnExit, machineBusySeconds, snapshotBuild, tempDir } from './lib/resources.mjs';
import { percentiles } from './scale/load.mjs';
import { createWorkspace, startServer, stopServer } from './scale/processes.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const APP_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
const OUT = resolve(process.env.BENCH_TRUST_OUT || join(BENCH_DIR, 'results', 'run-15', 'trust.json'));
const SCENARIOS = ['auth-get', 'credential', 'credential-304', 'badge', 'floor', 'ceiling'];
const only = (process.env.BENCH_TRUST_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
for (const s of only) if (!SCENARIOS.includes(s)) throw new Error(`BENCH_TRUST_ONLY: unknown scenario "${s}" (${SCENARIOS.join(', ')})`);
const settings = {
  durationSeconds: intEnv('BENCH_DURATION', 5, 1),
  rounds: 2,
  warmupSeconds: intEnv('BENCH_WARMUP', 2, 0),
  connections: intEnv('BENCH_TRUST_CONNECTIONS', 32, 1),
  trades: intEnv('BENCH_TRUST_TRADES', 30, 0),
  pollMs: intEnv('BENCH_TRUST_POLL_MS', 5, 0),
  scenarios: only.length ? SCENARIOS.filter((s) => only.includes(s)) : SCENARIOS,
  skipLag: ['1', 'true', 'yes'].includes((process.env.BENCH_TRUST_SKIP_LAG ?? '').toLowerCase()),
  appNodeOptions: process.env.BENCH_APP_NODE_OPTIONS ?? '',
  appRoot: APP_ROOT,
  pipelining: 1,
};
const SLUG = 'bench-trust-seller';
const started = Date.now();
const log = (msg) => process.stderr.write(`[trust +${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null);
cleanupOnExit(log);

async function startApp(root) {
  const dataDir = tempDir('bench-trust-app-');
  const ws = await createWorkspace(root, dataDir, SLUG);
  const args = [...settings.appNodeOptions.split(/\s+/).filter(Boolean), join(root, 'dist/apps/api/src/main.js')];
  const proc = await startServer('app', args, { DATA_DIR: dataDir, ...UNLIMITED_RATE_LIMITS });
  proc.headers = { authorization: `Bearer ${ws.apiKey}`, accept: 'application/json' };
  log(`app ${proc.url} (DATA_DIR ${dataDir})`);
  return proc;
}

// The ceiling: bare Fastify answering a constant body with an ETag (304 on a match), nothing else.
const CEILING_SERVER = `
import { createRequire } from 'node:module';
const require = createRequire(process.env.CEILING_ROOT + '/package.json');
const Fastify = require('fastify');
const body = process.env.CEILING_BODY;
const etag = process.env.CEILING_ETAG;
const app = Fastify({ logger: false });
app.get('/credential', (req, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=60').header('etag', etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.send(body);
});
console.log('listening on ' + (await app.listen({ port: Number(process.env.PORT), host: process.env.HOST })));
`;

/** A checked JSON request on the app with the bench's key. */
function api(app, path, { method = 'GET', body, status = 200 } = {}) {
  const headers = { ...app.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  return expectJson(`${app.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, status, 30_000);
}

/** GET credential, public: the status and the parsed body (null unless 200). */
async function credential(app) {
  const res = await fetch(`${app.url}/api/v1/trust/credential/${SLUG}`, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: res.status === 200 ? JSON.parse(text) : null, bytes: text.length };
}

/** A trade on a fresh item, moved to delivered; returns its id. */
async function deliveredTrade(app) {
  const item = await api(app, '/api/v1/inventory', { method: 'POST', status: 201, body: { cardName: 'Pikachu', setName: 'Base', condition: 'Near Mint', price: 100 } });
  const trade = await api(app, '/api/v1/trades', { method: 'POST', status: 201, body: { inventoryItemId: item.id } });
  for (const to of ['paid', 'shipped', 'delivered']) await api(app, `/api/v1/trades/${trade.id}/transitions`, { method: 'POST', body: { to } });
  return { tradeId: trade.id, itemId: item.id };
}

/** Polls GET credential until `done(body)`; returns the time it answered so, or throws after `timeoutMs`. */
async function pollCredential(app, done, timeoutMs = 15_000) {
  const until = performance.now() + timeoutMs;
  let polls = 0;
  for (;;) {
    const c = await credential(app);
    polls += 1;
    if (c.status === 200 && done(c.body)) return { at: performance.now(), polls, credential: c };
    if (c.status !== 200 && c.status !== 404) throw new Error(`GET credential → ${c.status}`);
    if (performance.now() > until) throw new Error(`no credential as expected within ${timeoutMs} ms (last: ${c.status} ${JSON.stringify(c.body?.credentialSubject ?? null)})`);
    if (settings.pollMs > 0) await sleep(settings.pollMs);
  }
}

/** (b): per trade, POST → completed sent until GET credential serves the grown inputsCount. */
async function lagAfterScoreChange(app, count) {
  const rows = [];
  let inputsCount = (await credential(app)).body.credentialSubject.inputsCount;
  for (let i = 0; i < count; i += 1) {
    const { tradeId } = await deliveredTrade(app);
    const t0 = performance.now();
    await api(app, `/api/v1/trades/${tradeId}/transitions`, { method: 'POST', body: { to: 'completed' } });
    const answered = performance.now();
    const seen = await pollCredential(app, (b) => b.credentialSubject.inputsCount > inputsCount);
    const next = seen.credential.body.credentialSubject.inputsCount;
    rows.push({ totalMs: seen.at - t0, postMs: answered - t0, afterPostMs: seen.at - answered, polls: seen.polls, inputsCount: next, grewBy: next - inputsCount });
    inputsCount = next;
  }
  const dist = (key) => {
    const p = percentiles(rows.map((r) => r[key]).sort((a, b) => a - b));
    return { p50: round(p.p50, 1), p95: round(pct(rows.map((r) => r[key]), 95), 1), max: round(p.max, 1), mean: round(p.mean, 1) };
  };
  return { trades: count, pollMs: settings.pollMs, totalMs: dist('totalMs'), postMs: dist('postMs'), afterPostMs: dist('afterPostMs'), grewByOneEachTime: rows.every((r) => r.grewBy === 1), rows: rows.map((r) => ({ ...r, totalMs: round(r.totalMs, 2), postMs: round(r.postMs, 2), afterPostMs: round(r.afterPostMs, 2) })) };
}

function pct(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}

/** The signing itself, in this process, with the built code (`root`): µs per call. */
function signingMicro(root, sample) {
  const require = createRequire(join(root, 'package.json'));
  const credentialJs = require(join(root, 'dist/libs/trust/src/credential/credential.js'));
  const ed = require(join(root, 'dist/libs/trust/src/credential/ed25519.js'));
  const secretKey = ed.newSecretKey();
  const s = sample;
  const record = {
    credentialId: s.id,
    issuedAt: s.validFrom,
    validUntil: s.validUntil,
    kid: s.proof.verificationMethod,
    subject: s.credentialSubject,
    statusListCredential: s.credentialStatus.statusListCredential,
    statusListIndex: Number(s.credentialStatus.statusListIndex),
  };
  const time = (fn, n) => {
    for (let i = 0; i < Math.min(50, n); i += 1) fn();
    const t0 = performance.now();
    for (let i = 0; i < n; i += 1) fn();
    return round(((performance.now() - t0) * 1000) / n, 1);
  };
  const msg = Buffer.from('x'.repeat(64));
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(secretKey)]);
  const nodeKey = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  return {
    signCredentialBothFormsUs: time(() => credentialJs.signCredential(record, secretKey), 300),
    credentialDocumentSerializeUs: time(() => JSON.stringify(credentialJs.credentialDocument({ ...record, jws: 'x', proofValue: 'z' }, 'spec')), 2000),
    nobleEd25519SignUs: time(() => ed.sign(msg, secretKey), 300),
    nodeCryptoEd25519SignUs: time(() => nodeSign(null, msg, nodeKey), 300),
  };
}

/** One closed-loop measurement: every answer's status and time, app CPU, machine busy CPU. */
function cannon(app, { target, ...request }, seconds) {
  app = target ?? app;
  return new Promise((res, rej) => {
    const times = [];
    const statuses = {};
    const cpu0 = cpuSecondsOf(app.child.pid);
    const m0 = machineBusySeconds();
    const instance = autocannon(
      { url: app.url, connections: settings.connections, duration: seconds, pipelining: settings.pipelining, timeout: 10, requests: [request] },
      (err, result) => {
        if (err) return rej(err);
        res({ result, times, statuses, appCpuSeconds: cpuSecondsOf(app.child.pid) - cpu0, machineBusySeconds: machineBusySeconds() - m0 });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      times.push(ms);
    });
  });
}

function unexpected(name, run, expected) {
  const bad = Object.entries(run.statuses).filter(([s]) => Number(s) !== expected);
  const parts = bad.map(([s, n]) => `${n} × HTTP ${s}`);
  if (run.result.errors) parts.push(`${run.result.errors} socket errors`);
  if (run.result.timeouts) parts.push(`${run.result.timeouts} timeouts`);
  return parts.length ? `${name}: ${parts.join(', ')} (expected ${expected})` : null;
}

/** (a): the scenarios, warmed up, then measured in rounds (forward, reverse). */
async function throughput(app, defs) {
  const failures = [];
  const acc = Object.fromEntries(defs.map((d) => [d.name, { requests: 0, seconds: 0, times: [], statuses: {}, appCpuSeconds: 0, machineBusySeconds: 0, perRound: [] }]));
  if (settings.warmupSeconds > 0) {
    for (const d of defs) {
      const w = await cannon(app, { ...d.request, target: d.target }, settings.warmupSeconds);
      acc[d.name].warmupRequests = w.times.length;
      const bad = unexpected(`${d.name} (warm-up)`, w, d.status);
      if (bad) failures.push(bad);
    }
  }
  for (let r = 0; r < settings.rounds; r += 1) {
    const order = r % 2 === 0 ? defs : [...defs].reverse();
    for (const d of order) {
      const run = await cannon(app, { ...d.request, target: d.target }, settings.durationSeconds);
      const bad = unexpected(d.name, run, d.status);
      if (bad) failures.push(bad);
      const a = acc[d.name];
      const n = run.times.length;
      a.requests += n;
      a.seconds += run.result.duration;
      for (const t of run.times) a.times.push(t);
      for (const [s, c] of Object.entries(run.statuses)) a.statuses[s] = (a.statuses[s] ?? 0) + c;
      a.appCpuSeconds += run.appCpuSeconds;
      a.machineBusySeconds += run.machineBusySeconds;
      a.perRound.push({ round: r + 1, reqPerSec: round(n / run.result.duration, 0), appCpuUsPerReq: round((run.appCpuSeconds * 1e6) / Math.max(1, n), 0) });
      log(`${d.name} round ${r + 1}: ${fmt(n / run.result.duration, 0)} req/s, p50 ${fmt(pct(run.times, 50), 2)} ms, app CPU ${fmt((run.appCpuSeconds * 1e6) / Math.max(1, n), 0)} µs/req`);
    }
  }
  const out = {};
  for (const d of defs) {
    const a = acc[d.name];
    a.times.sort((x, y) => x - y);
    const p = percentiles(a.times);
    out[d.name] = {
      what: d.what,
      expectedStatus: d.status,
      statuses: a.statuses,
      requests: a.requests,
      warmupRequests: a.warmupRequests ?? 0,
      seconds: round(a.seconds, 2),
      reqPerSec: round(a.requests / a.seconds, 0),
      latencyMs: { p50: round(p.p50, 2), p99: round(p.p99, 2), max: round(p.max, 2) },
      appCpuUsPerReq: round((a.appCpuSeconds * 1e6) / Math.max(1, a.requests), 0),
      appCores: round(a.appCpuSeconds / a.seconds, 2),
      machineBusyCores: round(a.machineBusySeconds / a.seconds, 2),
      bytesPerAnswer: d.bytes ?? null,
      perRound: a.perRound,
    };
  }
  const ref = out['auth-get'];
  if (ref) {
    for (const d of defs) {
      out[d.name].ratioToAuthGet = round(out[d.name].reqPerSec / ref.reqPerSec, 2);
      out[d.name].cpuRatioToAuthGet = round(ref.appCpuUsPerReq / out[d.name].appCpuUsPerReq, 2);
    }
  }
  return { results: out, failures };
}

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:trust puts it on PATH)`);
  const loadBefore = loadavg();
  const root = snapshotBuild(APP_ROOT, 'bench-trust-build-', ['dist/apps/api/src/main.js', 'dist/apps/cli/src/main.js', 'dist/libs/trust/src/credential/credential.js']);
  log(`settings: ${JSON.stringify({ ...settings, appRoot: undefined })}; build of ${APP_ROOT} (${gitCommit(APP_ROOT, { countPaths: true })}) copied to ${root}`);
  const app = await startApp(root);
  let ceiling = null;
  const report = { date: new Date().toISOString(), command: process.env.npm_lifecycle_event === 'bench:trust' ? 'npm run bench:trust' : 'node bench/trust.mjs', node: process.versions.node, appCommit: gitCommit(APP_ROOT, { countPaths: true }), machine: { cpuModel: cpus()[0]?.model, cpus: cpus().length, loadavgBefore: loadBefore.map((x) => round(x, 2)) }, settings: { ...settings, appRoot: APP_ROOT } };
  const failures = [];
  try {
    // The seller's first credential, and the item the authenticated reference GET reads.
    const first = await deliveredTrade(app);
    await api(app, `/api/v1/trades/${first.tradeId}/transitions`, { method: 'POST', body: { to: 'completed' } });
    const t0 = performance.now();
    await pollCredential(app, () => true);
    log(`first credential served ${fmt(performance.now() - t0, 1)} ms after the completing POST answered`);
    const keyDoc = await expectJson(`${app.url}/api/v1/trust/public-key`, {}, 200);
    const inputsRes = await fetch(`${app.url}/api/v1/trust/credential/${SLUG}/inputs`);
    if (inputsRes.status !== 200) throw new Error(`GET inputs → ${inputsRes.status}`);
    await inputsRes.text();
    const { itemId } = first;
    await api(app, `/api/v1/inventory/${itemId}`);

    // (b) signing + serving after a score change.
    if (!settings.skipLag && settings.trades > 0) {
      report.lag = await lagAfterScoreChange(app, settings.trades);
      log(`lag (POST → completed sent → grown credential served), ${settings.trades} trades: p50 ${report.lag.totalMs.p50} ms, p95 ${report.lag.totalMs.p95} ms, max ${report.lag.totalMs.max} ms`);
    }
    const cur = await credential(app);
    report.signing = signingMicro(root, cur.body);
    log(`signing (this process): ${JSON.stringify(report.signing)}`);
    const inputsText = await (await fetch(`${app.url}/api/v1/trust/credential/${SLUG}/inputs`)).text();
    const badgeText = await (await fetch(`${app.url}/api/embed/trust-badge/${SLUG}`)).text();
    const itemText = await (await fetch(`${app.url}/api/v1/inventory/${itemId}`, { headers: app.headers })).text();
    report.seller = { inputsCount: cur.body.credentialSubject.inputsCount, credentialBytes: cur.bytes, inputsBytes: inputsText.length, badgeBytes: badgeText.length, inventoryItemBytes: itemText.length, kid: keyDoc.kid };

    // (a) throughput of the public routes against the authenticated GET.
    const all = [
      { name: 'auth-get', what: `GET /api/v1/inventory/<id> (API key)`, status: 200, bytes: itemText.length, request: { method: 'GET', path: `/api/v1/inventory/${itemId}`, headers: app.headers } },
      { name: 'credential', what: 'GET /api/v1/trust/credential/<slug>', status: 200, bytes: cur.bytes, request: { method: 'GET', path: `/api/v1/trust/credential/${SLUG}`, headers: { accept: 'application/json' } } },
      { name: 'credential-304', what: 'GET credential, If-None-Match: <etag> (304)', status: 304, bytes: 0, request: { method: 'GET', path: `/api/v1/trust/credential/${SLUG}`, headers: { accept: 'application/json', 'if-none-match': cur.etag } } },
      { name: 'badge', what: 'GET /api/embed/trust-badge/<slug> (SVG)', status: 200, bytes: badgeText.length, request: { method: 'GET', path: `/api/embed/trust-badge/${SLUG}`, headers: {} } },
      { name: 'floor', what: 'GET /verify/assets/verify.css (public constant: guard + limiter, no read)', status: 200, request: { method: 'GET', path: '/verify/assets/verify.css', headers: {} } },
    ];
    if (settings.scenarios.includes('ceiling')) {
      ceiling = await startServer('ceiling', ['--input-type=module', '-e', CEILING_SERVER], { CEILING_ROOT: root, CEILING_BODY: JSON.stringify(cur.body), CEILING_ETAG: cur.etag });
      all.push({ name: 'ceiling', what: 'bare Fastify, same credential bytes from memory (no Nest, guard or read)', status: 200, bytes: JSON.stringify(cur.body).length, target: ceiling, request: { method: 'GET', path: '/credential', headers: { accept: 'application/json' } } });
    }
    const defs = all.filter((d) => settings.scenarios.includes(d.name));
    const { results, failures: f } = await throughput(app, defs);
    failures.push(...f);
    report.throughput = results;
  } finally {
    await Promise.all([stopServer(app), stopServer(ceiling)]);
  }
  report.machine.loadavgAfter = loadavg().map((x) => round(x, 2));
  report.failures = failures;
  report.ok = failures.length === 0;
  report.totalSeconds = round((Date.now() - started) / 1000, 1);

  const t = report.throughput;
  console.log(`\n| trust (${settings.connections} connections, ${settings.rounds} × ${settings.durationSeconds} s) | req/s | p50 ms | p99 ms | app CPU µs/req | ratio to auth GET (req/s) | ratio (CPU) |`);
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, r] of Object.entries(t)) {
    console.log(`| ${name}: ${r.what} | ${fmt(r.reqPerSec, 0)} | ${fmt(r.latencyMs.p50, 2)} | ${fmt(r.latencyMs.p99, 2)} | ${fmt(r.appCpuUsPerReq, 0)} | ${r.ratioToAuthGet ?? '—'} | ${r.cpuRatioToAuthGet ?? '—'} |`);
  }
  if (t.credential && t.badge && t['auth-get']) {
    const met = t.credential.ratioToAuthGet >= 5 && t.badge.ratioToAuthGet >= 5;
    report.goal = { target: 5, credential: t.credential.ratioToAuthGet, badge: t.badge.ratioToAuthGet, met };
    console.log(`\nGoal (credential and badge ≥ 5× the authenticated GET): ${met ? 'met' : 'NOT met'} — credential ${t.credential.ratioToAuthGet}×, badge ${t.badge.ratioToAuthGet}×.`);
  }
  if (report.lag) {
    const l = report.lag;
    console.log(`\n| after a score change (${l.trades} trades, poll ${l.pollMs} ms) | p50 ms | p95 ms | max ms |`);
    console.log('|---|---:|---:|---:|');
    console.log(`| POST → completed sent → grown credential served | ${l.totalMs.p50} | ${l.totalMs.p95} | ${l.totalMs.max} |`);
    console.log(`| of which the POST itself | ${l.postMs.p50} | ${l.postMs.p95} | ${l.postMs.max} |`);
    console.log(`| of which after the POST answered | ${l.afterPostMs.p50} | ${l.afterPostMs.p95} | ${l.afterPostMs.max} |`);
  }
  const s = report.signing;
  console.log(`\nSigning, in this process: signCredential (both forms) ${s.signCredentialBothFormsUs} µs; one Ed25519 signature ${s.nobleEd25519SignUs} µs with @noble/ed25519, ${s.nodeCryptoEd25519SignUs} µs with node:crypto; building + serializing a credential ${s.credentialDocumentSerializeUs} µs.`);
  console.log(JSON.stringify({ goal: report.goal, throughput: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, { reqPerSec: v.reqPerSec, p50: v.latencyMs.p50, p99: v.latencyMs.p99, appCpuUsPerReq: v.appCpuUsPerReq, ratio: v.ratioToAuthGet }])), lag: report.lag && { totalMs: report.lag.totalMs, afterPostMs: report.lag.afterPostMs }, signing: s, seller: report.seller, ok: report.ok }, null, 2));
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${OUT}`);
  if (failures.length > 0) throw new Error(failures.join('\n'));
}

runMain(main, { timeoutSeconds: intEnv('BENCH_TIMEOUT', 240, 30), cleanup, log });
