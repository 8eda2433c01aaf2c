// Load for `npm run bench:scale`: autocannon with exact 2xx percentiles, an open-loop client at a
// fixed rate, the measured run (warm-up, quiet wait, CPU, I/O, instruments) and distributions.
import { Agent, request as httpRequest } from 'node:http';

import autocannon from 'autocannon';

import { cpuSecondsOf, fmt, problems, summarize } from '../lib/common.mjs';
import { machineBusySeconds } from '../lib/resources.mjs';
import { requestBody } from '../seed/generator.mjs';

import { log, settings } from './config.mjs';
import { Profiler, SqlWindow } from './instruments.mjs';
import { awaitQuiet, ioDelta, ioOf } from './system.mjs';

function cannon(opts) {
  return new Promise((res, rej) => {
    const times = [];
    const instance = autocannon({ pipelining: settings.pipelining, timeout: 10, ...opts }, (err, result) => {
      if (err) return rej(err);
      times.sort((a, b) => a - b);
      result.preciseLatency = percentiles(times);
      return res(result);
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  });
}

export function percentiles(sorted) {
  const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
  return {
    samples: sorted.length,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    p50: pct(50),
    p90: pct(90),
    p97_5: pct(97.5),
    p99: pct(99),
    p99_9: pct(99.9),
    max: sorted[sorted.length - 1],
  };
}

/**
 * Open-loop load at an even rate: request i is due at start + i / rate, over at most `connections`
 * keep-alive sockets. Latency counts from the due time (not from when a socket was free), so a
 * server that falls behind is charged for the wait (no coordinated omission). autocannon's own
 * `overallRate` sends each second's quota as one burst, which measures bursts, not a rate.
 */
export async function openLoop(target, { rate, durationSeconds, connections, nextBody, nextRequest, raw = false }) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * durationSeconds);
  const latencies = [];
  const byVariant = {};
  const statuses = {};
  let errors = 0;
  let bytes = 0;
  const start = performance.now() + 50;
  // A POST of nextBody() to target.path, or whatever nextRequest() says ({ method, path, body?, variant? }).
  const describe = nextRequest ?? (() => ({ method: 'POST', path: target.path, body: nextBody() }));
  const send = (due) =>
    new Promise((resolveSend) => {
      const { method, path, body, variant } = describe();
      const headers = { accept: 'application/json', ...target.headers };
      if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      const req = httpRequest(new URL(path, target.url), { method, agent, headers }, (res) => {
        res.on('data', (chunk) => {
          bytes += chunk.length;
        });
        res.on('end', () => {
          const ms = performance.now() - due;
          latencies.push(ms);
          if (variant !== undefined && res.statusCode >= 200 && res.statusCode < 300) (byVariant[variant] ??= []).push(ms);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          resolveSend();
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors += 1;
        resolveSend();
      });
      req.end(body);
    });
  const pending = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(due));
  }
  await Promise.all(pending);
  agent.destroy();
  const non2xx = Object.entries(statuses).filter(([code]) => !code.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  latencies.sort((a, b) => a - b);
  const summary = { requestsTotal: total, statusCodes: statuses, non2xx, errors, latencyMs: percentiles(latencies), duration: durationSeconds };
  // raw: every latency (sorted), per variant, and the bytes received, beside the summary.
  return raw ? { ...summary, latencies, byVariant, bytes } : summary;
}

function postOptions(target, nextBody, onAnswer) {
  return {
    url: target.url,
    requests: [
      {
        method: 'POST',
        path: target.path,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...target.headers },
        setupRequest: (req) => {
          req.body = nextBody();
          return req;
        },
        ...(onAnswer ? { onResponse: (status, body) => onAnswer(status, body) } : {}),
      },
    ],
  };
}

/** Runs a warm-up (statuses checked) then the measured run; CPU of the server process beside it. */
export async function measure(label, server, target, bodies, { onAnswer, profile, sql } = {}) {
  const failures = [];
  if (settings.warmupSeconds > 0) {
    const warm = await cannon({ ...postOptions(target, bodies.warm), connections: settings.connections, duration: settings.warmupSeconds });
    const bad = problems(warm);
    if (bad) failures.push(`${label} (warm-up): ${bad}`);
  }
  log(`${label}: ${settings.durationSeconds} s × ${settings.connections} connections …`);
  const quiet = await awaitQuiet(label, [server.child.pid], settings.quietWaitSeconds);
  const profiler = profile ? await Profiler.connect(server.inspector) : null;
  if (profiler) await profiler.start();
  const sql0 = sql ? await sql.snapshot() : null;
  const cpu0 = cpuSecondsOf(server.child.pid);
  const io0 = ioOf(server.child.pid);
  const gen0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  const wall0 = performance.now();
  const result = await cannon({ ...postOptions(target, bodies.measured, onAnswer), connections: settings.connections, duration: settings.durationSeconds });
  const wall = (performance.now() - wall0) / 1000;
  const serverCpu = cpuSecondsOf(server.child.pid) - cpu0;
  const io = ioDelta(io0, ioOf(server.child.pid), Math.max(1, result['2xx']));
  const gen = process.cpuUsage(gen0);
  const machineBusy = machineBusySeconds() - machine0;
  const sqlPerRequest = sql ? SqlWindow.diff(sql0, await sql.snapshot(), Math.max(1, result['2xx'])) : null;
  const prof = profiler ? await profiler.stop(profile) : null;
  const bad = problems(result);
  if (bad) failures.push(`${label}: ${bad}`);
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    failures.push(`${label}: the server process exited (${server.child.exitCode ?? server.child.signalCode}); its last output: ${server.linesAfterReady.slice(-5).join(' | ')}`);
  }
  const out = {
    label,
    ...summarize(result),
    serverCpuCores: serverCpu / wall,
    serverCpuUsPerRequest: (serverCpu * 1e6) / Math.max(1, result['2xx']),
    // The server's file I/O per 2xx request (/proc/<pid>/io: SQLite page reads/writes are pread/pwrite).
    serverIoPerRequest: io,
    loadGeneratorCpuCores: (gen.user + gen.system) / 1e6 / wall,
    // Everything else the machine did meanwhile (other people's work on a shared machine).
    otherCpuCores: (machineBusy - serverCpu - (gen.user + gen.system) / 1e6) / wall,
    quietBefore: quiet,
    wallSeconds: wall,
    failures,
    ...(prof ? { profile: { cpuprofile: prof.file, summary: prof.summary } } : {}),
    ...(sqlPerRequest ? { sqlPerRequest } : {}),
  };
  log(
    `${label}: ${fmt(out.reqPerSecMean)} req/s, p50 ${fmt(out.latencyMs.p50, 2)} ms, p99 ${fmt(out.latencyMs.p99, 2)} ms, ` +
      `max ${fmt(out.latencyMs.max, 1)} ms${bad ? `  !! ${bad}` : ''}`,
  );
  return out;
}

export function bodyStream(gen) {
  return () => JSON.stringify(requestBody(gen.buyerRequest()));
}

export function distribution(values, buckets) {
  const sorted = [...values].sort((a, b) => a - b);
  const out = {};
  for (const [name, lo, hi] of buckets) out[name] = sorted.filter((v) => v >= lo && v <= hi).length;
  const p = percentiles(sorted);
  return {
    answers: sorted.length,
    mean: p.mean,
    p50: p.p50,
    p90: p.p90,
    max: p.max,
    withMatches: sorted.filter((v) => v > 0).length,
    shareWithMatches: sorted.filter((v) => v > 0).length / Math.max(1, sorted.length),
    buckets: out,
  };
}

export const MATCH_BUCKETS = [
  ['0', 0, 0],
  ['1', 1, 1],
  ['2-4', 2, 4],
  ['5-9', 5, 9],
  ['10-19', 10, 19],
  ['20-49', 20, 49],
  ['50-99', 50, 99],
  ['100', 100, Infinity],
];
