// Whether the app has caught up with its event log: the checkpoints read straight from read.db / eventual.db and
// the log's head from events.db (read-only node:sqlite connections), confirmed with the real CLI.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { cpuSecondsOf, fmt } from '../lib/common.mjs';
import { onCleanup } from '../lib/resources.mjs';

import { log, PM_NAME, sleep } from './config.mjs';
import { cli } from './processes.mjs';

// Every connection opened here is closed at cleanup (exit, failure or signal).
const openDbs = new Set();
onCleanup(() => {
  for (const db of openDbs) if (db.isOpen) db.close();
});

// ---------------------------------------------------------------------------------------------
// Catch-up: read the checkpoints straight from read.db (node:sqlite, read-only connection; the
// collections are tables `c_<name>` of JSON docs) and the log's head from events.db.

function openReadOnly(path) {
  const db = new DatabaseSync(path, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  openDbs.add(db);
  return db;
}

function pmEventTypes(appRoot) {
  try {
    const require = createRequire(join(appRoot, 'package.json'));
    require('reflect-metadata');
    const { ReverseMatching } = require(join(appRoot, 'dist/libs/matching/src/reverse/reverse-matching.js'));
    const types = new ReverseMatching().eventTypes;
    if (Array.isArray(types) && types.length > 0) return [...types];
  } catch {
    /* fall through */
  }
  return ['inventory.created', 'inventory.updated', 'buyer_request.created', 'buyer_request.updated'];
}

export class LogWatch {
  constructor(appRoot, dataDir) {
    this.events = openReadOnly(join(dataDir, 'events.db'));
    this.dataDir = dataDir;
    this.reads = null;
    this.pmTypes = pmEventTypes(appRoot);
    this.headStmt = this.events.prepare('SELECT coalesce(max(position), 0) AS p FROM events');
    this.pmTargetStmt = this.events.prepare(
      `SELECT coalesce(max(position), 0) AS p FROM events WHERE type IN (${this.pmTypes.map(() => '?').join(', ')})`,
    );
  }

  head() {
    return this.headStmt.get().p;
  }

  pmTarget() {
    return this.pmTargetStmt.get(...this.pmTypes).p;
  }

  checkpoints() {
    // read.db: the read-your-writes lane's checkpoints; eventual.db: the eventual lane's and the
    // process managers'.
    const open = (file) => (existsSync(join(this.dataDir, file)) ? openReadOnly(join(this.dataDir, file)) : undefined);
    this.reads ??= open('read.db');
    this.eventual ??= open('eventual.db'); // made by the app at its start
    const rows = (db, sql) => {
      if (!db) return [];
      try {
        return db.prepare(sql).all();
      } catch {
        return []; // table not created yet
      }
    };
    // Both files, larger position first: a build from before eventual.db kept everything in read.db.
    const positions = (table) => {
      const found = {};
      for (const r of [this.reads, this.eventual].flatMap((db) => rows(db, `SELECT id, json_extract(doc, '$.position') AS p FROM ${table}`))) {
        found[r.id] = Math.max(found[r.id] ?? 0, r.p);
      }
      return found;
    };
    const projections = positions('c_projection_checkpoints');
    const pm = positions('c_process_manager_checkpoints')[PM_NAME] ?? 0;
    return { projections, pm };
  }

  /** One look: head, slowest projection, the process manager against its last event. */
  state() {
    const head = this.head();
    const pmTarget = this.pmTarget();
    const { projections, pm } = this.checkpoints();
    const names = Object.keys(projections);
    const minProjection = names.length ? Math.min(...names.map((n) => projections[n])) : 0;
    return { head, pmTarget, minProjection, pm, projectionCount: names.length, projectionsDone: names.length > 0 && minProjection >= head, pmDone: pm >= pmTarget };
  }

  count(sql, ...params) {
    return this.events.prepare(sql).get(...params);
  }
}

/**
 * Waits until the projections have applied the log's head and the process manager its last
 * event, polling read.db every `pollMs`; then confirms with the real CLI (`projections status`
 * lag 0 on two consecutive polls one second apart). Returns the timings (ms after `since`).
 */
export async function waitCaughtUp(watch, { start = watch.state(), since, timeoutMs, pollMs = 1000, label, appRoot, dataDir, pid }) {
  const deadline = performance.now() + timeoutMs;
  let projectionsAt = null;
  let pmAt = null;
  let lastLog = 0;
  let s;
  for (;;) {
    s = watch.state();
    const now = performance.now();
    if (s.projectionsDone && projectionsAt === null) projectionsAt = now;
    if (!s.projectionsDone) projectionsAt = null; // the process manager appended more
    if (s.pmDone && pmAt === null) pmAt = now;
    if (s.projectionsDone && s.pmDone) break;
    if (now > deadline) throw new Error(`${label}: not caught up within ${timeoutMs / 1000} s: ${JSON.stringify(s)}`);
    if (now - lastLog > 15_000) {
      lastLog = now;
      log(`${label}: projections ${s.minProjection}/${s.head}, ${PM_NAME} ${s.pm}/${s.pmTarget}` + (pid ? `, app CPU ${fmt(cpuSecondsOf(pid), 0)} s` : ''));
    }
    await sleep(pollMs);
  }
  const caughtAt = performance.now();
  // Confirmation with the product's own tool.
  const polls = [];
  for (let ok = 0; ok < 2; ) {
    const status = await cli(appRoot, dataDir, ['projections', 'status']);
    const lag = Math.max(...status.projections.map((p) => p.lag));
    polls.push({ atMs: Math.round(performance.now() - since), maxLag: lag, head: status.projections[0]?.head });
    ok = lag === 0 ? ok + 1 : 0;
    if (performance.now() > deadline) throw new Error(`${label}: CLI projections status never showed lag 0 twice: ${JSON.stringify(polls)}`);
    if (ok < 2) await sleep(1000);
  }
  return {
    startHead: start.head,
    startMinProjection: start.minProjection,
    head: s.head,
    pmTarget: s.pmTarget,
    projectionsCaughtUpMs: Math.round((projectionsAt ?? caughtAt) - since),
    processManagerCaughtUpMs: Math.round((pmAt ?? caughtAt) - since),
    bothCaughtUpMs: Math.round(caughtAt - since),
    cliConfirmations: polls,
  };
}
