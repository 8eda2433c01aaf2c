// Optional instruments of `npm run bench:scale`: a CPU profile of the app through its inspector
// (BENCH_SCALE_PROFILE) and windows on its SQL timings (BENCH_SCALE_SQL_TIMING).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROFILE_DIR, PROFILE_SUMMARY, RESULTS_DIR, ROOT, round, sleep } from './config.mjs';
import { runNode } from './processes.mjs';

// ---------------------------------------------------------------------------------------------
// CPU profiling through the inspector (only when BENCH_SCALE_PROFILE names the scenario).

export class Profiler {
  static async connect(url) {
    const ws = new WebSocket(url);
    await new Promise((res, rej) => {
      ws.addEventListener('open', res, { once: true });
      ws.addEventListener('error', () => rej(new Error(`inspector ${url}: connection failed`)), { once: true });
    });
    return new Profiler(ws);
  }

  constructor(ws) {
    this.ws = ws;
    this.id = 0;
    this.pending = new Map();
    ws.addEventListener('message', (event) => {
      const msg = JSON.parse(String(event.data));
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.rej(new Error(JSON.stringify(msg.error)));
      else p.res(msg.result);
    });
  }

  send(method, params = {}) {
    const id = (this.id += 1);
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((res, rej) => this.pending.set(id, { res, rej }));
  }

  async start() {
    await this.send('Profiler.enable');
    await this.send('Profiler.setSamplingInterval', { interval: 500 });
    await this.send('Profiler.start');
  }

  /** Writes the .cpuprofile (big: to PROFILE_DIR, outside the repo) and its summary (to bench/results). */
  async stop(name) {
    const { profile } = await this.send('Profiler.stop');
    this.ws.close();
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = join(PROFILE_DIR, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const { stdout } = await runNode([PROFILE_SUMMARY, file, '30'], { timeoutMs: 120_000 });
    const summary = join(RESULTS_DIR, `${name}.profile.txt`);
    writeFileSync(summary, stdout);
    return { file, summary: summary.slice(ROOT.length + 1) };
  }
}

// ---------------------------------------------------------------------------------------------
// SQL timing windows (BENCH_SCALE_SQL_TIMING=1): SIGUSR2 makes the preload write its running totals.

export class SqlWindow {
  constructor(proc, prefix) {
    this.proc = proc;
    this.prefix = prefix;
    this.n = 0;
  }

  async snapshot() {
    this.n += 1;
    const file = `${this.prefix}.${this.n}.json`;
    this.proc.child.kill('SIGUSR2');
    const deadline = performance.now() + 10_000;
    while (!existsSync(file)) {
      if (performance.now() > deadline) throw new Error(`no SQL timing snapshot ${file}`);
      await sleep(20);
    }
    const { rows } = JSON.parse(readFileSync(file, 'utf8'));
    return new Map(rows.map((r) => [r.key, { calls: r.calls, ns: BigInt(r.ns) }]));
  }

  /** The SQL between two snapshots, per unit of work, the `top` costliest statements first. */
  static diff(before, after, per, top = 15) {
    const rows = [];
    let totalNs = 0n;
    for (const [key, a] of after) {
      const b = before.get(key) ?? { calls: 0, ns: 0n };
      const calls = a.calls - b.calls;
      const ns = a.ns - b.ns;
      if (calls === 0) continue;
      totalNs += ns;
      rows.push({ sql: key, callsPer: round(calls / per, 2), usPer: round(Number(ns) / 1e3 / per, 1), meanUs: round(Number(ns) / 1e3 / calls, 1) });
    }
    rows.sort((x, y) => y.usPer - x.usPer);
    return { totalUsPer: round(Number(totalNs) / 1e3 / per, 1), top: rows.slice(0, top) };
  }
}
