// The machine around the webhooks bench: CPU windows (app, this process, others), a wait for a
// quiet machine, the build (npm run build) and a hash of the compiled webhooks library.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { cpuSecondsOf, fmt } from '../lib/common.mjs';
import { machineBusySeconds } from '../lib/resources.mjs';

import { log, ROOT, settings, sleep } from './config.mjs';
import { round } from './stats.mjs';

const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** CPU of the app, of this process (receiver, push client) and of everything else, over a window. */
export function cpuWindow(appPids) {
  const pids = [appPids].flat().filter((pid) => pid !== null && pid !== undefined);
  const appCpu = () => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const a0 = appCpu();
  const o0 = ownCpuSeconds();
  const m0 = machineBusySeconds();
  const w0 = performance.now();
  return () => {
    const wall = (performance.now() - w0) / 1000;
    const app = appCpu() - a0;
    const own = ownCpuSeconds() - o0;
    const machine = machineBusySeconds() - m0;
    return {
      wallSeconds: round(wall, 2),
      appCpuSeconds: round(app, 2),
      appCores: round(app / wall, 2),
      benchProcessCores: round(own / wall, 2),
      otherCores: round((machine - app - own) / wall, 2),
    };
  };
}

/**
 * Waits (up to WEBHOOK_BENCH_QUIET_WAIT) until other people's work leaves this shared machine
 * quiet: < `threshold` cores busy over a 2 s window beyond what `pids` (our idle app) and this
 * process use. Returns what it saw, for the report.
 */
export async function awaitQuiet(label, pids, threshold = 0.25) {
  const t0 = performance.now();
  for (;;) {
    const m0 = machineBusySeconds();
    const c0 = pids.reduce((sum, p) => sum + cpuSecondsOf(p), 0) + ownCpuSeconds();
    const w0 = performance.now();
    await sleep(2000);
    const wall = (performance.now() - w0) / 1000;
    const busy = (machineBusySeconds() - m0 - (pids.reduce((sum, p) => sum + cpuSecondsOf(p), 0) + ownCpuSeconds() - c0)) / wall;
    const waited = (performance.now() - t0) / 1000;
    if (!(busy >= threshold) || waited >= settings.quietWaitSeconds) {
      if (busy >= threshold) log(`${label}: the machine is still busy (${fmt(busy, 2)} cores used by others) after ${fmt(waited, 0)} s; measuring anyway`);
      return { otherCoresBefore: round(busy, 2), waitedSeconds: round(waited, 1) };
    }
    if (waited < 3) log(`${label}: waiting for a quiet machine (others use ${fmt(busy, 2)} cores) …`);
  }
}

/** A short hash of the compiled webhooks library, to tell which state of that work was measured. */
export function webhooksBuildHash(appRoot) {
  const base = join(appRoot, 'dist/libs/webhooks/src');
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, name.name);
      if (name.isDirectory()) walk(p);
      else if (name.name.endsWith('.js')) hash.update(name.name).update(readFileSync(p));
    }
  };
  walk(base);
  return hash.digest('hex').slice(0, 12);
}

export function build() {
  const bin = join(ROOT, 'node_modules', '.bin');
  const env = { ...process.env, PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], timeout: 300_000 });
}
