// `npm run bench`: the app against a bare-Fastify baseline, in one run, on this machine.
//
// 1. starts bench/baseline-server.mjs and the real app (dist/apps/api/src/main.js) as child
//    processes, each on its own temp DATA_DIR (removed at the end), and creates a workspace + API key
//    with the real CLI;
// 2. seeds both with the same N buyer requests through their HTTP APIs;
// 3. runs autocannon for GET baseline, GET app, GET app without auth + rate limiting, POST baseline,
//    POST app (GETs first, so all read the same N rows), each after a short warm-up, with a fresh
//    realistic body per POST. "Without auth" is the same build started with
//    bench/no-auth-preload.mjs (its global guard replaced by a fixed caller) on the app's DATA_DIR,
//    only for its own scenario;
// 4. checks every status (any non-2xx or socket error fails the run), prints a markdown table and
//    writes bench/results/latest.json.
//
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_WARMUP (s, default 2),
//      BENCH_SEED_ROWS (default 2000), BENCH_TIMEOUT (s, default 5 × (duration + warm-up) + 90),
//      BENCH_APP_NODE_OPTIONS (extra node flags for the app process only, e.g. "--cpu-prof"),
//      BENCH_ONLY (comma list of scenarios to run, e.g. "post-app"; default all five),
//      BENCH_APP_ROOT (directory with another build's dist/ to benchmark instead of this one).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

import { cpuSecondsOf, expectJson, fmt, intEnv, problems, runMain, summarize } from './lib/common.mjs';
import { children, cleanup, cleanupOnExit, tempDir } from './lib/resources.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const DATA = join(ROOT, 'libs', 'catalog', 'data');
// BENCH_APP_ROOT: benchmark another build of the app (a directory holding dist/ and node_modules/),
// e.g. a patched copy for an A/B experiment. Default: this repository's own build.
const APP_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
const API_MAIN = join(APP_ROOT, 'dist/apps/api/src/main.js');
const CLI_MAIN = join(APP_ROOT, 'dist/apps/cli/src/main.js');
const BASELINE_MAIN = join(BENCH_DIR, 'baseline-server.mjs');
const NO_AUTH_PRELOAD = join(BENCH_DIR, 'no-auth-preload.mjs');
// The app's rate limits, lifted so no bench request is refused (the limiter still counts every
// request, so its cost is in the figures); the production defaults would refuse nearly all of them.
const UNLIMITED = {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_PER_SECOND: '1000000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000000',
  RATE_LIMIT_PUBLIC_PER_SECOND: '1000000000',
};
const RESULTS_DIR = join(BENCH_DIR, 'results');

const settings = {
  durationSeconds: intEnv('BENCH_DURATION', 10, 1),
  connections: intEnv('BENCH_CONNECTIONS', 10, 1),
  warmupSeconds: intEnv('BENCH_WARMUP', 2, 0),
  seedRows: intEnv('BENCH_SEED_ROWS', 2000, 0),
  listLimit: 20,
  appNodeOptions: process.env.BENCH_APP_NODE_OPTIONS ?? '',
  appRoot: APP_ROOT,
  only: (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  pipelining: 1,
};
settings.timeoutSeconds = intEnv(
  'BENCH_TIMEOUT',
  5 * (settings.durationSeconds + settings.warmupSeconds) + 90,
  10,
);

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

// ---------------------------------------------------------------------------------------------
// Realistic bodies: random cards with their set's name, conditions, prices 1–500 (2 decimals).

function readCsv(path) {
  const [header, ...lines] = readFileSync(path, 'utf8').split(/\r?\n/).filter((l) => l.length > 0);
  const split = (line) => {
    const out = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i += 1) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') (cur += '"'), (i += 1);
        else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') out.push(cur), (cur = '');
      else cur += ch;
    }
    out.push(cur);
    return out;
  };
  const cols = split(header);
  return lines.map((l) => Object.fromEntries(split(l).map((v, i) => [cols[i], v])));
}

function loadCatalog() {
  const sets = new Map(readCsv(join(DATA, 'sets.csv')).map((s) => [s.set_id, s.name]));
  const cards = readCsv(join(DATA, 'cards.csv'))
    .filter((c) => c.name && sets.has(c.set_id))
    .map((c) => ({ cardName: c.name, setName: sets.get(c.set_id) }));
  if (cards.length === 0) throw new Error(`no cards found in ${DATA}`);
  return cards;
}

// mulberry32: a small seeded PRNG, so every run sends the same sequence of bodies.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONDITIONS = ['Near Mint', 'Lightly Played', 'Moderately Played'];

function bodyMaker(cards, seed) {
  const rnd = prng(seed);
  return () => {
    const card = cards[Math.floor(rnd() * cards.length)];
    return JSON.stringify({
      cardName: card.cardName,
      setName: card.setName,
      condition: CONDITIONS[Math.floor(rnd() * CONDITIONS.length)],
      maxPrice: (100 + Math.floor(rnd() * 49901)) / 100, // 1.00 … 500.00
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Child processes.

function startServer(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const proc = { name, child, output: '', url: null, exited: null, linesAfterReady: [] };
  proc.exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  child.once('exit', () => children.delete(child));
  const ready = new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${name} did not start within 30 s:\n${proc.output}`)), 30_000);
    const onData = (chunk) => {
      const text = chunk.toString();
      proc.output += text;
      if (proc.url) {
        for (const line of text.split('\n')) if (line.trim()) proc.linesAfterReady.push(line);
        return;
      }
      const m = /listening on (http:\/\/\S+)/.exec(proc.output);
      if (m) {
        clearTimeout(timer);
        proc.url = m[1].replace('localhost', '127.0.0.1');
        res(proc);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!proc.url) rej(new Error(`${name} exited (${code ?? signal}) before listening:\n${proc.output}`));
    });
  });
  return ready;
}

async function stopServer(proc) {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await proc.exited;
  clearTimeout(timer);
}

cleanupOnExit(log);

function runCli(dataDir, args) {
  return new Promise((res, rej) => {
    execFile(
      process.execPath,
      [CLI_MAIN, ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) rej(new Error(`CLI ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else res(stdout);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Load.

/**
 * Runs autocannon; also keeps every 2xx response time (autocannon's histogram rounds to whole
 * milliseconds, too coarse for sub-millisecond medians) and attaches exact percentiles as
 * `result.preciseLatency`.
 */
function cannon(opts) {
  return new Promise((res, rej) => {
    const times = [];
    const instance = autocannon({ pipelining: settings.pipelining, timeout: 10, ...opts }, (err, result) => {
      if (err) return rej(err);
      times.sort((a, b) => a - b);
      const pct = (p) => (times.length ? times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] : NaN);
      result.preciseLatency = {
        samples: times.length,
        mean: times.reduce((a, b) => a + b, 0) / times.length,
        p50: pct(50),
        p90: pct(90),
        p99: pct(99),
        max: times[times.length - 1],
      };
      return res(result);
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  });
}

function loadOptions(target, kind, nextBody) {
  const headers = { accept: 'application/json', ...target.headers };
  if (kind === 'post') {
    return {
      url: target.url,
      requests: [
        {
          method: 'POST',
          path: target.path,
          headers: { ...headers, 'content-type': 'application/json' },
          setupRequest: (req) => {
            req.body = nextBody();
            return req;
          },
        },
      ],
    };
  }
  return { url: target.url, requests: [{ method: 'GET', path: `${target.path}?limit=${settings.listLimit}`, headers }] };
}

// ---------------------------------------------------------------------------------------------

function gitCommit(dir) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: dir, encoding: 'utf8' }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}


async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench puts it on PATH)`);
  for (const f of [API_MAIN, CLI_MAIN]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run bench\` (it builds first) or \`npm run build\``);
  }
  const started = Date.now();
  const cards = loadCatalog();
  const loadBefore = loadavg();
  log(
    `settings: ${settings.durationSeconds}s × ${settings.connections} connections, warm-up ${settings.warmupSeconds}s, ` +
      `${settings.seedRows} seed rows, node ${process.versions.node}`,
  );

  // Workspace + key first (the CLI applies its own projections), then both servers.
  const appDir = tempDir('bench-app-');
  const baselineDir = tempDir('bench-baseline-');
  const created = JSON.parse(await runCli(appDir, ['workspace', 'create', '--name', 'Bench', '--slug', 'bench']));
  const apiKey = created.apiKey;
  if (!apiKey) throw new Error(`CLI gave no apiKey: ${JSON.stringify(created)}`);
  const workspaceId = created.workspace?.id;

  const appArgs = [...settings.appNodeOptions.split(/\s+/).filter(Boolean), API_MAIN];
  const [baseline, app] = await Promise.all([
    startServer('baseline', [BASELINE_MAIN], { DATA_DIR: baselineDir }),
    startServer('app', appArgs, { DATA_DIR: appDir, ...UNLIMITED }),
  ]);
  log(`baseline ${baseline.url}, app ${app.url}`);

  const targets = {
    baseline: { url: baseline.url, path: '/baseline/buyer-requests', headers: {} },
    app: { url: app.url, path: '/api/v1/buyer-requests', headers: { authorization: `Bearer ${apiKey}` } },
  };
  const servers = { baseline, app };

  // Smoke: one write and one read on each, with the shapes the benchmark relies on.
  const smokeBody = bodyMaker(cards, 1)();
  for (const [name, t] of Object.entries(targets)) {
    const created1 = await expectJson(
      `${t.url}${t.path}`,
      { method: 'POST', headers: { ...t.headers, 'content-type': 'application/json' }, body: smokeBody },
      201,
    );
    if (typeof created1.id !== 'string' || created1.matchCount !== 0) {
      throw new Error(`${name}: unexpected POST answer ${JSON.stringify(created1)}`);
    }
    const page = await expectJson(`${t.url}${t.path}?limit=${settings.listLimit}`, { headers: t.headers }, 200);
    if (!Array.isArray(page.data) || page.data[0]?.id !== created1.id) {
      throw new Error(`${name}: the write is not the newest row of the list (read-your-writes): ${JSON.stringify(page).slice(0, 300)}`);
    }
  }

  // Seed both with the same N rows (same body sequence), through their APIs.
  const seeded = {};
  for (const [name, t] of Object.entries(targets)) {
    if (settings.seedRows === 0) break;
    const result = await cannon({
      ...loadOptions(t, 'post', bodyMaker(cards, 42)),
      connections: settings.connections,
      amount: settings.seedRows,
    });
    const bad = problems(result);
    if (bad) throw new Error(`seeding ${name}: ${bad}`);
    seeded[name] = { rows: result['2xx'] };
    log(`seeded ${name}: ${result['2xx']} rows`);
  }
  for (const [name, t] of Object.entries(targets)) {
    const page = await expectJson(`${t.url}${t.path}?limit=${settings.listLimit}`, { headers: t.headers }, 200);
    const expected = Math.min(settings.listLimit, settings.seedRows + 1);
    if (page.data.length !== expected || (settings.seedRows + 1 > settings.listLimit) !== (page.nextCursor !== null)) {
      throw new Error(`${name}: after seeding, list gave ${page.data.length} rows, nextCursor ${page.nextCursor}`);
    }
  }

  // The same build without auth + rate limiting, on the app's DATA_DIR (same rows, same workspace),
  // up only for its own scenario so it never competes with the other runs.
  async function startNoAuth() {
    if (!workspaceId) throw new Error(`CLI gave no workspace id: ${JSON.stringify(created)}`);
    const proc = await startServer('app-noauth', ['--import', NO_AUTH_PRELOAD, ...appArgs], {
      DATA_DIR: appDir,
      ...UNLIMITED,
      BENCH_WORKSPACE_ID: workspaceId,
    });
    servers.appNoAuth = proc;
    targets.appNoAuth = { ...targets.app, url: proc.url };
    const url = (t) => `${t.url}${t.path}?limit=${settings.listLimit}`;
    const [withAuth, without] = await Promise.all([
      expectJson(url(targets.app), { headers: targets.app.headers }, 200),
      expectJson(url(targets.appNoAuth), { headers: targets.app.headers }, 200),
    ]);
    if (JSON.stringify(without) !== JSON.stringify(withAuth)) throw new Error('app-noauth does not answer what the app answers');
    const unauthenticated = await fetch(url(targets.appNoAuth));
    if (unauthenticated.status !== 200) throw new Error(`app-noauth still checks keys (${unauthenticated.status})`);
    log(`app-noauth ${proc.url}`);
  }

  // GETs first: both servers then hold exactly the same rows (smoke + seed) while being read.
  const scenarios = [
    { id: 'get-baseline', label: 'GET baseline', target: 'baseline', kind: 'get' },
    { id: 'get-app', label: 'GET app', target: 'app', kind: 'get' },
    { id: 'get-app-noauth', label: 'GET app without auth + rate limit', target: 'appNoAuth', kind: 'get' },
    { id: 'post-baseline', label: 'POST baseline', target: 'baseline', kind: 'post' },
    { id: 'post-app', label: 'POST app', target: 'app', kind: 'post' },
  ].filter((s) => settings.only.length === 0 || settings.only.includes(s.id));

  const results = {};
  const failures = [];
  let seed = 1000;
  for (const s of scenarios) {
    if (s.target === 'appNoAuth') await startNoAuth();
    const t = targets[s.target];
    if (settings.warmupSeconds > 0) {
      const warm = await cannon({
        ...loadOptions(t, s.kind, bodyMaker(cards, (seed += 1))),
        connections: settings.connections,
        duration: settings.warmupSeconds,
      });
      const bad = problems(warm);
      if (bad) failures.push(`${s.label} (warm-up): ${bad}`);
    }
    log(`${s.label}: ${settings.durationSeconds} s …`);
    const server = servers[s.target];
    const cpu0 = cpuSecondsOf(server.child.pid);
    const gen0 = process.cpuUsage();
    const wall0 = process.hrtime.bigint();
    const result = await cannon({
      ...loadOptions(t, s.kind, bodyMaker(cards, (seed += 1))),
      connections: settings.connections,
      duration: settings.durationSeconds,
    });
    const serverCpu = cpuSecondsOf(server.child.pid) - cpu0;
    const gen = process.cpuUsage(gen0);
    const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
    const bad = problems(result);
    if (bad) failures.push(`${s.label}: ${bad}`);
    results[s.id] = {
      label: s.label,
      ...summarize(result),
      // How busy each side was: 1.0 = one core. The server does its SQLite work on its main thread.
      serverCpuCores: serverCpu / wall,
      serverCpuUsPerRequest: (serverCpu * 1e6) / Math.max(1, result['2xx']),
      loadGeneratorCpuCores: (gen.user + gen.system) / 1e6 / wall,
      wallSeconds: wall,
    };
    log(
      `${s.label}: ${fmt(result.requests.mean)} req/s, p50 ${fmt(result.preciseLatency.p50, 2)} ms, ` +
        `p99 ${fmt(result.preciseLatency.p99, 2)} ms` +
        (bad ? `  !! ${bad}` : ''),
    );
    if (s.target === 'appNoAuth') await stopServer(servers.appNoAuth);
  }

  const ratio = (a, b) => (results[a] && results[b] ? results[a].reqPerSecMean / results[b].reqPerSecMean : null);
  const ratios = {
    post: ratio('post-app', 'post-baseline'),
    get: ratio('get-app', 'get-baseline'),
    // What authentication + rate limiting cost on the same route: 1.0 = nothing.
    getWithAuthVsWithout: ratio('get-app', 'get-app-noauth'),
  };
  const TARGET = 0.5;
  const targets_ = {
    post: { target: TARGET, ratio: ratios.post, met: ratios.post === null ? null : ratios.post >= TARGET },
    get: { target: TARGET, ratio: ratios.get, met: ratios.get === null ? null : ratios.get >= TARGET },
  };

  const appLog = app.linesAfterReady.slice();
  const cpu = cpus();
  const report = {
    date: new Date().toISOString(),
    command: process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : 'node bench/run.mjs',
    ok: failures.length === 0,
    failures,
    node: process.versions.node,
    appCommit: gitCommit(APP_ROOT),
    machine: {
      cpuModel: cpu[0]?.model ?? 'unknown',
      cpus: cpu.length,
      platform: `${platform()} ${release()}`,
      memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      loadavgBefore: loadBefore.map((x) => Math.round(x * 100) / 100),
      loadavgAfter: loadavg().map((x) => Math.round(x * 100) / 100),
    },
    settings: {
      ...settings,
      sqlite: 'WAL, synchronous=NORMAL, busy_timeout=5000 (both servers)',
      loadGenerator: 'autocannon (in the bench/run.mjs process, same machine)',
      appEnv:
        'LOG_LEVEL=warn, embedded SQLite stores, workers in-process (defaults); RATE_LIMIT_* = 1e9 (lifted, still counted)',
      appNoAuth: 'same build, same DATA_DIR, node --import bench/no-auth-preload.mjs (global guard = fixed caller)',
    },
    seeded,
    results,
    ratios,
    targets: targets_,
    appLogLinesDuringRun: appLog.length,
    appLogSample: appLog.slice(0, 10),
    totalSeconds: Math.round((Date.now() - started) / 100) / 10,
  };

  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);

  const lines = [];
  lines.push(
    `Bench ${report.date} · node ${report.node} · ${report.machine.cpuModel} × ${report.machine.cpus} · ` +
      `${settings.durationSeconds} s × ${settings.connections} connections (warm-up ${settings.warmupSeconds} s) · ` +
      `${settings.seedRows} seed rows · limit=${settings.listLimit}`,
  );
  lines.push('');
  lines.push('| scenario | req/s (mean) | ± stddev | p50 ms | p99 ms | requests | non-2xx | errors | server CPU (cores) | server CPU µs/req |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const id of ['post-baseline', 'post-app', 'get-baseline', 'get-app', 'get-app-noauth']) {
    const r = results[id];
    if (!r) continue;
    lines.push(
      `| ${r.label} | ${fmt(r.reqPerSecMean)} | ${fmt(r.reqPerSecStddev)} | ${fmt(r.latencyMs.p50, 2)} | ${fmt(r.latencyMs.p99, 2)} | ` +
        `${r.requestsTotal} | ${r.non2xx} | ${r.errors} | ${fmt(r.serverCpuCores, 2)} | ${fmt(r.serverCpuUsPerRequest, 0)} |`,
    );
  }
  lines.push('');
  lines.push('| ratio app / baseline (req/s) | value | target | met? |');
  lines.push('|---|---:|---:|---|');
  for (const [k, v] of Object.entries(targets_)) {
    if (v.ratio === null) continue;
    lines.push(`| ${k.toUpperCase()} | ${fmt(v.ratio, 2)} | ≥ ${v.target} | ${v.met ? 'yes' : '**no**'} |`);
  }
  if (ratios.getWithAuthVsWithout !== null) {
    const a = results['get-app'];
    const b = results['get-app-noauth'];
    lines.push('');
    lines.push('| auth + rate limiting on GET | req/s ratio with / without | server CPU µs/req with / without |');
    lines.push('|---|---:|---:|');
    lines.push(
      `| GET /api/v1/buyer-requests | ${fmt(ratios.getWithAuthVsWithout, 2)} | ` +
        `${fmt(a.serverCpuUsPerRequest, 0)} / ${fmt(b.serverCpuUsPerRequest, 0)} |`,
    );
  }
  lines.push('');
  if (appLog.length > 0) lines.push(`app logged ${appLog.length} line(s) during the run, e.g. ${appLog[0].slice(0, 200)}`);
  lines.push(`results: bench/results/latest.json (total ${report.totalSeconds} s)`);
  process.stdout.write(`${lines.join('\n')}\n`);

  await Promise.all([stopServer(baseline), stopServer(app)]);
  if (failures.length > 0) throw new Error(`non-2xx responses or socket errors:\n  ${failures.join('\n  ')}`);
}

runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
