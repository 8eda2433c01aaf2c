// What the machine and the app's process are doing, from /proc (Linux): a wait for a quiet machine,
// a process's I/O and memory; and the sizes of a DATA_DIR's files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { cpuSecondsOf, fmt } from '../lib/common.mjs';
import { machineBusySeconds } from '../lib/resources.mjs';

import { log, round, sleep } from './config.mjs';

/**
 * Waits (up to `maxSeconds`) until the machine is quiet: other people's work on a shared machine
 * disturbs a latency run. Quiet = less than `threshold` cores busy over a 3 s window, beyond what
 * the given pids (our own idle servers) use. Returns what it saw, for the report.
 */
export async function awaitQuiet(label, pids, maxSeconds, threshold = 0.25) {
  const t0 = performance.now();
  let busy = NaN;
  for (;;) {
    const m0 = machineBusySeconds();
    const c0 = pids.reduce((s, p) => s + cpuSecondsOf(p), 0);
    const w0 = performance.now();
    await sleep(3000);
    const wall = (performance.now() - w0) / 1000;
    busy = (machineBusySeconds() - m0 - (pids.reduce((s, p) => s + cpuSecondsOf(p), 0) - c0)) / wall;
    const waited = (performance.now() - t0) / 1000;
    if (!(busy >= threshold) || waited >= maxSeconds) {
      if (busy >= threshold) log(`${label}: machine still busy (${fmt(busy, 2)} cores by others) after ${fmt(waited, 0)} s; measuring anyway`);
      return { otherBusyCores: round(busy), waitedSeconds: round(waited, 1), quiet: !(busy >= threshold) };
    }
    if (waited < 4) log(`${label}: waiting for a quiet machine (others use ${fmt(busy, 2)} cores) …`);
  }
}

/** I/O counters of a process (/proc/<pid>/io): syscalls and bytes through read/write/pread/pwrite, and disk bytes. */
export function ioOf(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8');
    return Object.fromEntries(text.trim().split('\n').map((l) => l.split(':').map((x) => x.trim())).map(([k, v]) => [k, Number(v)]));
  } catch {
    return null;
  }
}

/** The I/O a process did between two `ioOf` readings, per unit of work (e.g. per request). */
export function ioDelta(a, b, per) {
  if (!a || !b) return null;
  const d = (k) => b[k] - a[k];
  return {
    readSyscallsPer: d('syscr') / per,
    writeSyscallsPer: d('syscw') / per,
    readKiBPer: d('rchar') / 1024 / per,
    writtenKiBPer: d('wchar') / 1024 / per,
    diskWrittenKiBPer: d('write_bytes') / 1024 / per,
    totalWrittenMiB: d('wchar') / 2 ** 20,
  };
}

export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: Math.round(kb('VmRSS') / 1024), peakRssMiB: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return { rssMiB: NaN, peakRssMiB: NaN };
  }
}

export function dirSizes(dataDir) {
  const out = {};
  for (const f of readdirSync(dataDir)) out[f] = Math.round(statSync(join(dataDir, f)).size / 2 ** 20);
  return out;
}
