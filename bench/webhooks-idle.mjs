// The webhook dispatcher's cost when nobody listens (issue 20): every public event goes through its
// persistent subscription even in a workspace without a webhook — the common case.
//
// 1. Fixture (once, or IDLE_BENCH_FIXTURE=<events.db> to reuse one): the real app of the first
//    root, a fresh DATA_DIR, intake pushes of IDLE_BENCH_ROWS rows (no webhook anywhere); once its
//    dispatcher has gone through the log the app stops and its events.db is kept.
// 2. Per round, per root (alternated A, B, A, B …), each in a fresh process
//    (bench/webhooks-idle/child.mjs) on a copy of the fixture:
//    catchup   the build's WebhookDispatcher from the start of that log (its group forgotten):
//              events/s, CPU µs per event of the process, events.db statements (write kinds,
//              BEGIN IMMEDIATE) and WAL frames (pages written; no checkpoint during the run).
//    appender  appends at IDLE_BENCH_LIVE_RATE appends/s of IDLE_BENCH_LIVE_EVENTS_PER_APPEND
//              public events (replayed from the fixture) for IDLE_BENCH_LIVE_SECONDS, no
//              dispatcher: the reference for `live`.
//    live      the same appends with the dispatcher following the log's end: its CPU per event is
//              (live − appender) CPU / events; its transactions and writes the difference too.
//
// Env: IDLE_BENCH_ROOTS (comma list of label=dir with dist/ + node_modules; default this repo),
//      IDLE_BENCH_ROUNDS (2), IDLE_BENCH_ROWS (10000), IDLE_BENCH_FIXTURE, IDLE_BENCH_ONLY
//      (catchup,appender,live), IDLE_BENCH_LIVE_RATE (500), IDLE_BENCH_LIVE_SECONDS (6),
//      IDLE_BENCH_LIVE_EVENTS_PER_APPEND (2), IDLE_BENCH_OUT (JSON of every run).
// Run under `flock /tmp/bench.lock` like every bench here.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { runMain } from './lib/common.mjs';
import { cleanup, cleanupOnExit, tempDir, trackChild } from './lib/resources.mjs';
import { freshApp, prepareSessions, pushAll, rowMaker } from './webhooks/api.mjs';
import { stopApp } from './webhooks/app.mjs';
import { ROOT } from './webhooks/config.mjs';

const log = (msg) => process.stderr.write(`[webhooks-idle ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
cleanupOnExit(log);

const roots = (process.env.IDLE_BENCH_ROOTS ?? `this=${ROOT}`).split(',').map((s) => {
  const [label, dir] = s.includes('=') ? s.split('=') : [s, s];
  return { label, dir: resolve(dir) };
});
const rounds = Number(process.env.IDLE_BENCH_ROUNDS ?? 2);
const rows = Number(process.env.IDLE_BENCH_ROWS ?? 10_000);
const only = (process.env.IDLE_BENCH_ONLY ?? 'catchup,appender,live').split(',');

async function makeFixture() {
  if (process.env.IDLE_BENCH_FIXTURE) return process.env.IDLE_BENCH_FIXTURE;
  const app = await freshApp('idle-fixture', roots[0].dir, {});
  const dataDir = readFileSync(`/proc/${app.child.pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith('DATA_DIR='))?.slice(9);
  if (!dataDir) throw new Error('no DATA_DIR in the fixture app\'s environment');
  try {
    const nextRow = await rowMaker();
    const { sessions } = await prepareSessions(app, rows, 1_000, nextRow);
    const pushed = await pushAll(app, sessions);
    log(`fixture: pushed ${pushed.events} rows in ${pushed.seconds} s`);
    // Let the projections and the dispatcher finish before stopping.
    await new Promise((r) => setTimeout(r, 5_000));
  } finally {
    await stopApp(app);
  }
  // Kept after the run: IDLE_BENCH_FIXTURE=<this path> reuses it.
  const out = join(mkdtempSync(join(tmpdir(), 'bench-webhooks-idle-fixture-')), 'events.db');
  copyFileSync(join(dataDir, 'events.db'), out);
  for (const ext of ['-wal', '-shm']) if (existsSync(join(dataDir, `events.db${ext}`))) copyFileSync(join(dataDir, `events.db${ext}`), out + ext);
  return out;
}

function child(root, fixture, scenario) {
  const work = tempDir('bench-webhooks-idle-run-');
  return new Promise((res, rej) => {
    const c = execFile(process.execPath, [join(ROOT, 'bench/webhooks-idle/child.mjs'), root.dir, fixture, scenario, work], { env: process.env, maxBuffer: 1 << 24, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) rej(new Error(`${root.label} ${scenario}: ${error.message}\n${stderr}`));
      else res(JSON.parse(stdout.trim().split('\n').pop()));
    });
    trackChild(c);
  });
}

const per = (n, events) => Math.round((n / events) * 1000) / 1000;

async function main() {
  const fixture = await makeFixture();
  log(`fixture ${fixture}`);
  const results = [];
  for (let round = 1; round <= rounds; round += 1) {
    for (const root of roots) {
      const entry = { round, build: root.label };
      for (const scenario of only) {
        const r = await child(root, fixture, scenario);
        entry[scenario] = r;
      }
      if (entry.catchup) {
        const c = entry.catchup;
        log(
          `${root.label} r${round} catchup: ${c.events} events in ${Math.round(c.wallMs)} ms = ${Math.round(c.events / (c.wallMs / 1000))} ev/s, ` +
            `CPU ${per(c.cpuMs * 1000, c.events)} µs/ev, tx ${c.counts.begin} (${per(c.counts.begin, c.events)}/ev), ` +
            `ins/upd/del ${c.counts.insert}/${c.counts.update}/${c.counts.delete}, WAL frames ${c.walFrames} (${per(c.walFrames, c.events)}/ev), read queries ${c.readQueries}`,
        );
      }
      if (entry.live && entry.appender) {
        const l = entry.live;
        const a = entry.appender;
        const d = (k) => l.counts[k] - a.counts[k];
        entry.liveDispatcher = {
          events: l.events,
          cpuUsPerEvent: per((l.cpuMs - a.cpuMs) * 1000, l.events),
          txPerEvent: per(d('begin') - 0, l.events),
          writesPerEvent: per(d('insert') + d('update') + d('delete'), l.events),
          walFramesPerEvent: per(l.walFrames - a.walFrames, l.events),
        };
        log(
          `${root.label} r${round} live: ${l.events} events (${l.appends} appends), CPU ${Math.round(a.cpuMs)} → ${Math.round(l.cpuMs)} ms: dispatcher ${entry.liveDispatcher.cpuUsPerEvent} µs/ev, ` +
            `+tx ${d('begin')} (${entry.liveDispatcher.txPerEvent}/ev), +writes ${entry.liveDispatcher.writesPerEvent}/ev, WAL frames ${a.walFrames} → ${l.walFrames}, read queries ${l.readQueries}`,
        );
      }
      results.push(entry);
    }
  }
  const out = process.env.IDLE_BENCH_OUT ?? join(tmpdir(), `bench-webhooks-idle-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.json`);
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), node: process.versions.node, roots, rows, fixture, results }, null, 2));
  log(`results: ${out}`);
}

runMain(main, { timeoutSeconds: Number(process.env.BENCH_TIMEOUT ?? 1800), cleanup, log });
