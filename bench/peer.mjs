// `npm run bench:peer`: our event store side by side with a peer's, in one run (issue 20, item 4).
// ~3 minutes with the defaults, plus ~2 minutes once to install the peer.
//
// The peer is Emmett's SQLite event store (@event-driven-io/emmett-sqlite). It lives in a package of
// its own, bench/peer/package.json (+ lockfile), installed on first use with `npm ci` there: its
// native sqlite3 builds from source here (no prebuilt binary can be downloaded), which takes ~2
// minutes and needs python3, make and g++ — so the product's `npm ci` never installs it, and the
// product never imports it. Both stores run in-process on node (ours on node:sqlite, Emmett on the
// sqlite3 addon), each side and durability in a fresh child process and fresh temp directories.
//
// Workloads (bench/peer/workloads.mjs; each bounded by a count and a time, after a short warm-up):
//   1a. single-event appends with an expected revision, one after another (1,000 streams in turn);
//   1b. the same with 16 concurrent writers on streams of their own — ours straight to the store
//       (each append its own transaction, as a POST does), and, as an extra row, through our
//       AppendBatcher (appends of one turn in one transaction);
//   2.  100-event appends with an expected revision (events/s);
//   3.  reading the whole log from the start in pages of 1,000, events parsed (events/s);
//   4.  a checkpointed consumer: from its stored checkpoint, fold each event, store the checkpoint
//       with every batch of 100 (ours: subscribe + the read store, as the projections do; Emmett:
//       its consumer and processor, which keep the checkpoint in its own database).
// Each at synchronous FULL and NORMAL (WAL on both sides; the level is read back and recorded).
// Ceilings, same run: raw node:sqlite one-row commits, and the INSERT our append makes on our own
// table and connection without our code (bench/peer/raw.mjs). How each side is set up, and why it
// is fair to the peer: bench/peer/ours.mjs, bench/peer/emmett.mjs.
//
// Prints a markdown table (ours, Emmett, ours/Emmett, the goal: ≥ 1.5× on every workload, and
// ≥ 20,000 single-event appends/s at NORMAL) and writes bench/results/peer-latest.json.
//
// Env: BENCH_PEER_SYNC (FULL,NORMAL), BENCH_PEER_SIDES (raw,raw-schema,ours,ours-batcher,emmett),
//      BENCH_PEER_SECONDS (time cap per workload, default 4), BENCH_PEER_WARMUP (s, default 0.5),
//      BENCH_PEER_APPENDS (cap of single-event appends, default 40000), BENCH_PEER_BATCHES (cap of
//      100-event appends, default 1000), BENCH_PEER_LOG (events read and consumed, default 100000),
//      BENCH_PEER_QUIET_WAIT (s to wait for a 1-minute load average under 0.8 first, default 0),
//      BENCH_APP_ROOT (another build), BENCH_TIMEOUT (s, default 600), BENCH_PEER_OUT (file name).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { gitCommit, intEnv, runMain } from './lib/common.mjs';
import { cleanup, cleanupOnExit, snapshotBuild, tempDir, trackChild } from './lib/resources.mjs';
import { ensurePeer } from './peer/install.mjs';
import { compare, markdown } from './peer/report.mjs';
import { distHash } from './scale/report.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const PEER_DIR = join(BENCH_DIR, 'peer');
const APP_ROOT = resolve(process.env.BENCH_APP_ROOT || ROOT);
const SIDES = ['raw', 'raw-schema', 'ours', 'ours-batcher', 'emmett'];
const WORKLOADS = ['appendSequential', 'appendConcurrent', 'appendBatches', 'readAll', 'consume'];

const log = (msg) => process.stderr.write(`[bench:peer] ${msg}\n`);
const list = (name, fallback, allowed) => {
  const items = (process.env[name] || fallback).split(',').map((s) => s.trim()).filter(Boolean);
  for (const i of items) if (!allowed.includes(i)) throw new Error(`${name}: unknown "${i}" (${allowed.join(', ')})`);
  return items;
};
const numberEnv = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  if (!(n >= 0)) throw new Error(`${name} must be a number ≥ 0`);
  return n;
};

const settings = {
  durabilities: list('BENCH_PEER_SYNC', 'FULL,NORMAL', ['FULL', 'NORMAL']),
  sides: list('BENCH_PEER_SIDES', SIDES.join(','), SIDES),
  workloads: WORKLOADS,
  seconds: numberEnv('BENCH_PEER_SECONDS', 4),
  warmup: numberEnv('BENCH_PEER_WARMUP', 0.5),
  streams: 1000,
  appends: intEnv('BENCH_PEER_APPENDS', 40_000, 1),
  concurrency: 16,
  batchSize: 100,
  batches: intEnv('BENCH_PEER_BATCHES', 1000, 1),
  logEvents: intEnv('BENCH_PEER_LOG', 100_000, 100),
  pageSize: 1000,
  readPasses: 3,
  consumerBatch: 100,
  quietWaitSeconds: intEnv('BENCH_PEER_QUIET_WAIT', 0),
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 600, 1),
};

async function waitForQuiet() {
  const until = Date.now() + settings.quietWaitSeconds * 1000;
  while (loadavg()[0] >= 0.8 && Date.now() < until) await new Promise((r) => setTimeout(r, 5000));
  return loadavg()[0] < 0.8;
}

/** One side at one durability in a child process of its own; resolves to its JSON line. */
function runSide(side, synchronous, appRoot, dataRoot) {
  const plan = { side, synchronous, appRoot, peerDir: PEER_DIR, dataDir: join(dataRoot, `${side}-${synchronous}`), settings };
  return new Promise((resolvePromise, reject) => {
    const child = trackChild(spawn(process.execPath, [join(BENCH_DIR, 'peer', 'side.mjs'), JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'inherit'] }));
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${side} at ${synchronous} exited ${code}`));
      else resolvePromise(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

const round2 = (x) => Math.round(x * 100) / 100;

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) throw new Error(`node ${process.versions.node}: run with Node 24 (npm run bench:peer puts it on PATH)`);
  if (settings.sides.includes('emmett')) ensurePeer(log);
  const appRoot = snapshotBuild(APP_ROOT, 'peer-app-', ['dist/libs/platform/src/event-store/sqlite-event-store.js']);
  const dataRoot = tempDir('peer-data-');
  const quiet = settings.quietWaitSeconds > 0 ? await waitForQuiet() : null;
  const started = Date.now();
  const loadBefore = loadavg().map(round2);
  log(`sides ${settings.sides.join(', ')} at ${settings.durabilities.join(', ')}; node ${process.versions.node}; load average ${loadBefore.join(' ')}`);

  const results = [];
  for (const synchronous of settings.durabilities) {
    for (const side of settings.sides) {
      const t0 = Date.now();
      const result = await runSide(side, synchronous, appRoot, dataRoot);
      result.loadavgAfter = loadavg().map(round2);
      results.push(result);
      const figures = Object.entries(result.workloads).map(([k, w]) => `${k} ${w.perSecond.toLocaleString('en-US')}/s`);
      log(`${side} @ ${synchronous} (${((Date.now() - t0) / 1000).toFixed(1)} s): ${figures.join(', ')}`);
    }
  }

  const comparison = compare(results, settings.durabilities);
  const failedChecks = results.flatMap((r) =>
    Object.entries(r.checks)
      .filter(([, ok]) => ok === false)
      .map(([check]) => `${r.side} @ ${r.synchronous}: ${check}`),
  );
  const report = {
    date: new Date().toISOString(),
    command: [...Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')).map(([k, v]) => `${k}=${v}`), 'npm run bench:peer'].join(' '),
    node: process.versions.node,
    appCommit: gitCommit(APP_ROOT, { countPaths: true }),
    appBuild: distHash(appRoot),
    peer: results.find((r) => r.side === 'emmett')?.version ?? null,
    sqlite: Object.fromEntries(results.map((r) => [r.side, r.sqlite])),
    machine: { cpuModel: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${platform()} ${release()}`, memGiB: round2(totalmem() / 2 ** 30) },
    load: { before: loadBefore, after: loadavg().map(round2), quietBeforeStart: quiet },
    settings,
    totalSeconds: Math.round((Date.now() - started) / 100) / 10,
    comparison,
    // Ours must pass every check; a peer's failed check is a finding about the peer, reported as such.
    failedChecks,
    results,
  };
  const out = join(BENCH_DIR, 'results', process.env.BENCH_PEER_OUT || 'peer-latest.json');
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `\nEvent store against ${report.peer ?? 'the peer'} — ${report.date}, node ${report.node}, app ${report.appCommit}, ` +
      `load ${loadBefore.join(' ')} → ${report.load.after.join(' ')}\n\n${markdown(comparison)}\n\n` +
      (comparison.misses.length ? `Goals missed:\n  ${comparison.misses.join('\n  ')}\n` : 'Every goal met.\n') +
      (failedChecks.length ? `Failed checks:\n  ${failedChecks.join('\n  ')}\n` : '') +
      `\n→ ${out}\n`,
  );
  const ours = failedChecks.filter((c) => c.startsWith('ours') || c.startsWith('raw'));
  if (ours.length > 0) throw new Error(`our store failed a check:\n  ${ours.join('\n  ')}`);
}

cleanupOnExit(log);
runMain(main, { timeoutSeconds: settings.timeoutSeconds, cleanup, log });
