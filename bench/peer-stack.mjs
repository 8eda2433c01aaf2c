// `npm run bench:peer-stack`: our API against a whole-stack peer — the same buyer-request POST and
// GETs served by an application built on Emmett as its samples build one (issue 33, item 6).
// About 4 minutes with the defaults, plus ~2 minutes once to install the peer (bench/peer, as
// `bench:peer` does: its native sqlite3 builds from source).
//
// Sides, each a child process on 127.0.0.1 and a random port, on a fresh temp DATA_DIR, one after
// another (never two under load at once):
//   ours            the built API (dist/apps/api/src/main.js) as `npm run bench` starts it: a
//                   workspace + API key made with the real CLI, LOG_LEVEL=warn, rate limits lifted
//                   (still counted), WAL + synchronous NORMAL (libs/platform/src/sqlite/sqlite-database.ts);
//   ours-noauth     the same build without authentication + rate limiting (bench/no-auth-preload.mjs),
//                   for reference: the peer, like Emmett's samples, has neither;
//   emmett-samples  bench/peer/stack-emmett.mjs wired as the samples wire it (a connection per
//                   operation);
//   emmett-leased   the same app on one connection held for its life — the peer at its best.
// How the peer is built and why it is fair to it: bench/peer/stack-emmett.mjs.
//
// For each side: a smoke POST then GETs (read-your-writes: the new row is the newest of the list and
// answers by id), N seed rows through POST (the same bodies, one writer, not measured; rows a side
// refused are topped up, and counted), then three workloads, each after a warm-up:
//   get-list  GET …/buyer-requests?limit=20 (what `npm run bench` measures as GET);
//   get-id    GET …/buyer-requests/:id over the seeded ids in turn;
//   post      POST …/buyer-requests, a fresh realistic body per request (bench/run/bodies.mjs).
// Load: autocannon (bench/run/load.mjs) in this process, the same connections and duration for every
// side; every request carries the same headers (the peer ignores the bearer token). Measured as
// `npm run bench` measures: 2xx per second, exact p50/p99 of 2xx answers (and p99 of all answers),
// the server process's CPU (/proc, its children included) per 2xx answer, and non-2xx / socket
// errors / timeouts counted per side — not hidden, not failing the run for the peer (ours must be
// clean). The goal: ours ≥ 1.5× the best peer wiring's 2xx/s on each workload.
//
// Prints a markdown table and writes bench/results/peer-stack-latest.json (BENCH_PEER_STACK_OUT).
// Env: BENCH_PEER_STACK_SIDES (ours,ours-noauth,emmett-samples,emmett-leased),
//      BENCH_PEER_STACK_WORKLOADS (get-list,get-id,post), BENCH_PEER_STACK_SECONDS (default 10),
//      BENCH_PEER_STACK_WARMUP (s, default 2), BENCH_PEER_STACK_CONNECTIONS (default 10),
//      BENCH_PEER_STACK_SEED_ROWS (default 2000), BENCH_PEER_STACK_QUIET_WAIT (s to wait first for a
//      1-minute load average under 1, default 0), BENCH_APP_ROOT (another build), BENCH_TIMEOUT
//      (s, default 900 + the quiet wait).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { cpuSecondsOf, expectJson, fmt, gitCommit, intEnv, problems, runMain, UNLIMITED_RATE_LIMITS } from './lib/common.mjs';
import { cleanup, cleanupOnExit, machineBusySeconds, tempDir } from './lib/resources.mjs';
import { ensurePeer, PEER_DIR } from './peer/install.mjs';
import { compare, markdown, PEERS } from './peer/stack-report.mjs';
import { bodyMaker, loadCatalog } from './run/bodies.mjs';
import { API_MAIN, APP_ROOT, BENCH_DIR, CLI_MAIN, NO_AUTH_PRELOAD } from './run/config.mjs';
import { cannon, postRequest } from './run/load.mjs';
import { runCli, startServer, stopServer } from './run/servers.mjs';

const SIDES = ['ours', 'ours-noauth', 'emmett-samples', 'emmett-leased'];
const WORKLOADS = ['get-list', 'get-id', 'post'];

const log = (msg) => process.stderr.write(`[bench:peer-stack] ${msg}\n`);
const list = (name, fallback, allowed) => {
  const items = (process.env[name] || fallback).split(',').map((s) => s.trim()).filter(Boolean);
  for (const i of items) if (!allowed.includes(i)) throw new Error(`${name}: unknown "${i}" (${allowed.join(', ')})`);
  return allowed.filter((a) => items.includes(a));
};
const numberEnv = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  if (!(n >= 0)) throw new Error(`${name} must be a number ≥ 0`);
  return n;
};

const settings = {
  sides: list('BENCH_PEER_STACK_SIDES', SIDES.join(','), SIDES),
  workloads: list('BENCH_PEER_STACK_WORKLOADS', WORKLOADS.join(','), WORKLOADS),
  seconds: intEnv('BENCH_PEER_STACK_SECONDS', 10, 1),
  warmupSeconds: numberEnv('BENCH_PEER_STACK_WARMUP', 2),
  connections: intEnv('BENCH_PEER_STACK_CONNECTIONS', 10, 1),
  seedRows: intEnv('BENCH_PEER_STACK_SEED_ROWS', 2000, 0),
  // Seeding is not measured: one writer, so the samples wiring (which stalls on concurrent writers)
  // takes it without minutes of refusals; every side gets the same rows the same way.
  seedConnections: 1,
  listLimit: 20,
  pipelining: 1,
  quietWaitSeconds: intEnv('BENCH_PEER_STACK_QUIET_WAIT', 0),
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 900, 1),
};

const round = (x, d = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN);

// ---- the sides ---------------------------------------------------------------------------------

/** Starts one side; resolves to { proc, target, durability, dataDir }. */
async function startSide(side) {
  const dataDir = tempDir(`peer-stack-${side}-`);
  if (side === 'ours' || side === 'ours-noauth') {
    const created = JSON.parse(await runCli(dataDir, ['workspace', 'create', '--name', 'Bench', '--slug', 'bench']));
    if (!created.apiKey || !created.workspace?.id) throw new Error(`CLI gave no apiKey or workspace: ${JSON.stringify(created)}`);
    const args = side === 'ours' ? [API_MAIN] : ['--import', NO_AUTH_PRELOAD, API_MAIN];
    const env = { DATA_DIR: dataDir, ...UNLIMITED_RATE_LIMITS, ...(side === 'ours-noauth' ? { BENCH_WORKSPACE_ID: created.workspace.id } : {}) };
    const proc = await startServer(side, args, env);
    const target = { url: proc.url, path: '/api/v1/buyer-requests', headers: { authorization: `Bearer ${created.apiKey}` } };
    return { proc, target, dataDir, durability: { set: 'WAL, synchronous NORMAL (openSqlite, libs/platform/src/sqlite/sqlite-database.ts)' } };
  }
  const wiring = side.replace('emmett-', '');
  const proc = await startServer(side, [join(PEER_DIR, 'stack-emmett.mjs')], { DATA_DIR: dataDir, PEER_WIRING: wiring, PEER_SYNCHRONOUS: 'NORMAL' });
  const m = /pragmas (\{.*\})/.exec(proc.output);
  const readBack = m ? JSON.parse(m[1]) : null;
  if (!readBack || readBack.journal_mode !== 'wal' || readBack.synchronous !== 1) {
    throw new Error(`${side}: not at WAL + synchronous NORMAL: ${proc.output.slice(0, 500)}`);
  }
  // The same header bytes as ours sends (a bearer of the same length); the peer does not read it.
  const target = { url: proc.url, path: '/buyer-requests', headers: { authorization: `Bearer ${'x'.repeat(oursKeyLength)}` } };
  return { proc, target, dataDir, durability: { set: 'WAL, synchronous NORMAL (on every connection it opens)', readBack } };
}
let oursKeyLength = 40;

/** Our database files after the run: the journal mode persisted in each (synchronous is per connection). */
function journalModes(dataDir) {
  const out = {};
  for (const name of readdirSync(dataDir).filter((f) => f.endsWith('.db'))) {
    try {
      const db = new DatabaseSync(join(dataDir, name), { readOnly: true });
      out[name] = db.prepare('PRAGMA journal_mode').get().journal_mode;
      db.close();
    } catch {
      // not one of ours
    }
  }
  return out;
}

// ---- the load ----------------------------------------------------------------------------------

function requestsFor(target, kind, { nextBody, ids } = {}) {
  const headers = { accept: 'application/json', ...target.headers };
  if (kind === 'post') return [postRequest(target, headers, nextBody)];
  if (kind === 'get-id') {
    let i = 0;
    return [
      {
        method: 'GET',
        path: target.path,
        headers,
        setupRequest: (req) => {
          req.path = `${target.path}/${ids[i++ % ids.length]}`;
          return req;
        },
      },
    ];
  }
  return [{ method: 'GET', path: `${target.path}?limit=${settings.listLimit}`, headers }];
}

/** autocannon with every answer's time kept (2xx and not), for p99 over all answers too. */
async function load(target, kind, opts, extra) {
  const all = [];
  const result = await cannon(
    { url: target.url, requests: requestsFor(target, kind, extra), connections: settings.connections, pipelining: settings.pipelining, ...opts },
    { onResponse: (_status, ms) => all.push(ms) },
  );
  all.sort((a, b) => a - b);
  result.allLatency = { samples: all.length, p50: pct(all, 50), p99: pct(all, 99) };
  return result;
}

const statusCounts = (result) => Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));

async function smoke(name, target, cards) {
  const post = await expectJson(
    `${target.url}${target.path}`,
    { method: 'POST', headers: { ...target.headers, 'content-type': 'application/json' }, body: bodyMaker(cards, 1)() },
    201,
  );
  if (typeof post.id !== 'string') throw new Error(`${name}: unexpected POST answer ${JSON.stringify(post)}`);
  const page = await expectJson(`${target.url}${target.path}?limit=${settings.listLimit}`, { headers: target.headers }, 200);
  if (page.data?.[0]?.id !== post.id) throw new Error(`${name}: the write is not the newest row of the list (read-your-writes)`);
  const one = await expectJson(`${target.url}${target.path}/${post.id}`, { headers: target.headers }, 200);
  if (one.id !== post.id) throw new Error(`${name}: GET by id answered ${JSON.stringify(one).slice(0, 200)}`);
}

/** N rows through POST, one writer (the same bodies for every side); anything refused is topped up. */
async function seed(name, target, cards) {
  const out = { rows: 0, refused: {}, toppedUp: 0 };
  if (settings.seedRows === 0) return out;
  const nextBody = bodyMaker(cards, 42);
  const result = await load(target, 'post', { amount: settings.seedRows, connections: settings.seedConnections }, { nextBody });
  out.rows = result['2xx'];
  out.refused = Object.fromEntries(Object.entries(statusCounts(result)).filter(([k]) => !k.startsWith('2')));
  if (result.errors) out.refused.socketErrors = result.errors;
  while (out.rows < settings.seedRows) {
    const res = await fetch(`${target.url}${target.path}`, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json' },
      body: nextBody(),
    });
    await res.arrayBuffer();
    if (res.status === 201) {
      out.rows += 1;
      out.toppedUp += 1;
    } else if (out.toppedUp > settings.seedRows) throw new Error(`${name}: seeding keeps failing (${res.status})`);
  }
  if (Object.keys(out.refused).length) log(`${name}: seeding refused ${JSON.stringify(out.refused)}; topped up ${out.toppedUp} one by one`);
  return out;
}

/** Every row's id, newest first, through the list (checks the seeded count). */
async function allIds(name, target) {
  const ids = [];
  let cursor = null;
  do {
    const q = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await expectJson(`${target.url}${target.path}?${q}`, { headers: target.headers }, 200);
    for (const r of page.data) ids.push(r.id);
    cursor = page.nextCursor;
  } while (cursor);
  if (ids.length !== settings.seedRows + 1) throw new Error(`${name}: the list holds ${ids.length} rows, expected ${settings.seedRows + 1}`);
  return ids;
}

async function measure(name, side, kind, cards, ids, seedBase) {
  const { proc, target } = side;
  const extra = { nextBody: bodyMaker(cards, seedBase), ids };
  let warm = null;
  if (settings.warmupSeconds > 0) {
    const w = await load(target, kind, { duration: settings.warmupSeconds }, { ...extra, nextBody: bodyMaker(cards, seedBase + 500) });
    warm = { ok2xx: w['2xx'], statusCodes: statusCounts(w), errors: w.errors, timeouts: w.timeouts };
  }
  const pid = proc.child.pid;
  const cpu0 = cpuSecondsOf(pid);
  const busy0 = machineBusySeconds();
  const gen0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const result = await load(target, kind, { duration: settings.seconds }, extra);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const serverCpu = cpuSecondsOf(pid) - cpu0;
  const gen = process.cpuUsage(gen0);
  const genCpu = (gen.user + gen.system) / 1e6;
  const machine = machineBusySeconds() - busy0;
  const ok = result['2xx'];
  const r = {
    okPerSecond: round(ok / wall, 1),
    answersPerSecond: round(result.requests.total / wall, 1),
    ok2xx: ok,
    requestsTotal: result.requests.total,
    statusCodes: statusCounts(result),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    problems: problems(result) || null,
    latencyMs: {
      p50: round(result.preciseLatency.p50, 3),
      p90: round(result.preciseLatency.p90, 3),
      p99: round(result.preciseLatency.p99, 3),
      max: round(result.preciseLatency.max, 3),
      mean: round(result.preciseLatency.mean, 3),
    },
    allAnswersLatencyMs: { p50: round(result.allLatency.p50, 3), p99: round(result.allLatency.p99, 3) },
    serverCpuUsPerRequest: ok > 0 ? round((serverCpu * 1e6) / ok, 0) : null,
    serverCpuCores: round(serverCpu / wall),
    loadGeneratorCpuCores: round(genCpu / wall),
    // The rest of the machine meanwhile (other engineers' work): busy cores minus server and generator.
    othersCores: round(Math.max(0, (machine - serverCpu - genCpu) / wall)),
    wallSeconds: round(wall),
    warmUp: warm,
  };
  log(
    `${name} ${kind}: ${fmt(r.okPerSecond)} 2xx/s, p50 ${fmt(r.latencyMs.p50, 2)} ms, p99 ${fmt(r.latencyMs.p99, 2)} ms, ` +
      `${fmt(r.serverCpuUsPerRequest, 0)} µs CPU/req, others ${fmt(r.othersCores, 2)} cores${r.problems ? `  !! ${r.problems}` : ''}`,
  );
  return r;
}

async function runSide(name, cards) {
  const t0 = Date.now();
  const side = await startSide(name);
  log(`${name} at ${side.proc.url}`);
  try {
    if (name.startsWith('ours')) oursKeyLength = side.target.headers.authorization.length - 'Bearer '.length;
    await smoke(name, side.target, cards);
    const seeded = await seed(name, side.target, cards);
    const ids = await allIds(name, side.target);
    const workloads = {};
    let seedBase = 1000;
    for (const kind of settings.workloads) workloads[kind] = await measure(name, side, kind, cards, ids, (seedBase += 1));
    const logAfterReady = side.proc.linesAfterReady.slice(0, 10);
    return {
      side: name,
      url: side.proc.url,
      durability: { ...side.durability, ...(name.startsWith('ours') ? { journalModes: null } : {}) },
      seeded,
      workloads,
      serverLogLines: side.proc.linesAfterReady.length,
      serverLogSample: logAfterReady,
      seconds: round((Date.now() - t0) / 1000, 1),
      dataDir: side.dataDir,
    };
  } finally {
    await stopServer(side.proc);
  }
}

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:peer-stack puts it on PATH)`);
  if (settings.sides.some((s) => s.startsWith('ours'))) {
    for (const f of [API_MAIN, CLI_MAIN]) if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run build\``);
  }
  if (settings.sides.some((s) => PEERS.includes(s))) ensurePeer(log);
  const cards = loadCatalog();
  let quiet = null;
  if (settings.quietWaitSeconds > 0) {
    const until = Date.now() + settings.quietWaitSeconds * 1000;
    log(`waiting up to ${settings.quietWaitSeconds} s for a load average under 1 (now ${loadavg()[0].toFixed(2)})`);
    while (loadavg()[0] >= 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 5000));
    quiet = loadavg()[0] < 1;
  }
  const started = Date.now();
  const loadBefore = loadavg().map((x) => round(x));
  log(
    `sides ${settings.sides.join(', ')}; ${settings.seconds} s × ${settings.connections} connections per workload ` +
      `(warm-up ${settings.warmupSeconds} s), ${settings.seedRows} seed rows; node ${process.versions.node}; load ${loadBefore.join(' ')}`,
  );
  const results = [];
  for (const name of settings.sides) {
    const r = await runSide(name, cards);
    if (name.startsWith('ours')) r.durability.journalModes = journalModes(r.dataDir);
    delete r.dataDir;
    r.loadavgAfter = loadavg().map((x) => round(x));
    results.push(r);
  }
  const comparison = compare(results, settings.workloads);
  const peerPkg = (name) => JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', name, 'package.json'), 'utf8')).version;
  const report = {
    date: new Date().toISOString(),
    command: [...Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')).map(([k, v]) => `${k}=${v}`), 'npm run bench:peer-stack'].join(' '),
    node: process.versions.node,
    appCommit: gitCommit(APP_ROOT, { countPaths: true }),
    peer: Object.fromEntries(
      ['@event-driven-io/emmett', '@event-driven-io/emmett-sqlite', '@event-driven-io/emmett-expressjs', 'express', 'sqlite3'].map((n) => [n, peerPkg(n)]),
    ),
    machine: { cpuModel: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${platform()} ${release()}`, memGiB: round(totalmem() / 2 ** 30) },
    load: { before: loadBefore, after: loadavg().map((x) => round(x)), quietBeforeStart: quiet },
    settings,
    totalSeconds: round((Date.now() - started) / 1000, 1),
    comparison,
    results,
  };
  const out = join(BENCH_DIR, 'results', process.env.BENCH_PEER_STACK_OUT || 'peer-stack-latest.json');
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `\nOur API against a whole-stack Emmett peer (emmett-expressjs ${report.peer['@event-driven-io/emmett-expressjs']}, ` +
      `emmett-sqlite ${report.peer['@event-driven-io/emmett-sqlite']}) — ${report.date}, node ${report.node}, app ${report.appCommit}, ` +
      `${settings.seconds} s × ${settings.connections} connections, load ${loadBefore.join(' ')} → ${report.load.after.join(' ')}\n\n` +
      `${markdown(results, comparison, settings.workloads)}\n\n` +
      (comparison.rows.length === 0
        ? 'No comparison: ours and a peer wiring were not both run.\n'
        : comparison.misses.length
          ? `Goals missed:\n  ${comparison.misses.join('\n  ')}\n`
          : 'Every goal met.\n') +
      `\n→ ${out}\n`,
  );
  const oursBad = results.filter((r) => r.side.startsWith('ours')).flatMap((r) => Object.entries(r.workloads).filter(([, w]) => w.problems).map(([k, w]) => `${r.side} ${k}: ${w.problems}`));
  if (oursBad.length) throw new Error(`ours answered errors:\n  ${oursBad.join('\n  ')}`);
}

cleanupOnExit(log);
runMain(main, { timeoutSeconds: settings.timeoutSeconds + settings.quietWaitSeconds, cleanup, log });
