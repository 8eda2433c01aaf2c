// What the machine and the app's process are doing, from /proc (Linux): a wait for a quiet machine,
// a process's I/O and memory; and the sizes of a DATA_DIR's files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { childPids, cpuSecondsOf, fmt } from '../lib/common.mjs';
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

const STATUS_KEYS = { rssMiB: 'VmRSS', peakRssMiB: 'VmHWM', anonMiB: 'RssAnon', fileMiB: 'RssFile', shmemMiB: 'RssShmem' };

/** One process's memory from /proc/<pid>/status (kB → MiB, unrounded); null when it is gone. */
function statusMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return Object.fromEntries(Object.entries(STATUS_KEYS).map(([k, key]) => [k, kb(key) / 1024]));
  } catch {
    return null;
  }
}

/**
 * The memory of a process and its live children (the worker of WORKER_MODE=process|background),
 * from /proc/<pid>/status, in MiB: VmRSS (rssMiB), VmHWM (peakRssMiB: the kernel's high-water mark
 * of VmRSS; summed over the processes, so an upper bound of their joint peak when there are
 * children), RssAnon (anonMiB: heap, V8 and SQLite's page cache), RssFile (fileMiB: mapped files —
 * code and SQLite's mmap of the databases), RssShmem (shmemMiB: e.g. the WAL index). `processes`
 * counts the processes summed.
 */
export function memoryOf(pid) {
  const all = [pid, ...childPids(pid)].map(statusMemory).filter((m) => m && Number.isFinite(m.rssMiB));
  const out = { processes: all.length };
  for (const k of Object.keys(STATUS_KEYS)) out[k] = all.length ? Math.round(all.reduce((s, m) => s + m[k], 0)) : NaN;
  return out;
}

/**
 * Samples `memoryOf(pid)` every `everyMs` until stopped: the highest VmRSS seen (with the phase it
 * was seen in, as last named with `phase`). The kernel's VmHWM covers what falls between samples.
 */
export function memorySampler(pid, everyMs = 500) {
  let phase = 'start';
  let peak = null;
  let samples = 0;
  const take = () => {
    const m = memoryOf(pid);
    if (!Number.isFinite(m.rssMiB)) return;
    samples += 1;
    if (!peak || m.rssMiB > peak.rssMiB) peak = { ...m, phase };
  };
  take();
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    phase: (name) => {
      take();
      phase = name;
    },
    stop: () => {
      take();
      clearInterval(timer);
      return { ...peak, samples, everyMs };
    },
  };
}

/**
 * Resident memory of one process by mapping (/proc/<pid>/smaps), MiB, the largest `top`: a mapped
 * file under its name (SQLite's mmap of a database shows as that .db file), anonymous memory as
 * [anon] / [heap] (V8's heap, malloc, SQLite's page cache). Reading smaps walks the page tables:
 * for a few points of a run, not for the sampler.
 */
export function residentByMapping(pid, top = 8) {
  try {
    const kb = new Map();
    let name = '[anon]';
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+ *(.*)$/.exec(line);
      if (header) name = header[1].replace(/^.*\/(?=[^/]+\.db)/, '') || '[anon]';
      else if (line.startsWith('Rss:')) kb.set(name, (kb.get(name) ?? 0) + Number(line.split(/\s+/)[1]));
    }
    return Object.fromEntries([...kb].sort((a, b) => b[1] - a[1]).slice(0, top).map(([n, k]) => [n, Math.round(k / 1024)]));
  } catch {
    return null;
  }
}

export function dirSizes(dataDir) {
  const out = {};
  for (const f of readdirSync(dataDir)) out[f] = Math.round(statSync(join(dataDir, f)).size / 2 ** 20);
  return out;
}
