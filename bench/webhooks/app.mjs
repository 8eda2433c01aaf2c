// The app processes of the webhooks bench: the API (or, split, its worker) on a temp DATA_DIR with its
// log kept, the real CLI, and running a scenario on a fresh app that is always stopped afterwards.
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { UNLIMITED_RATE_LIMITS as UNLIMITED } from '../lib/common.mjs';
import { children } from '../lib/resources.mjs';

import { LOG_DIR, log, ROOT, sleep } from './config.mjs';

const APP_ERROR_LINE = /\berror\b|\bERROR\b|"level":\s*(50|60)|exception|unhandled/i;
const APP_WARN_LINE = /\bwarn(ing)?\b|"level":\s*40/i;

/** The API (listening on a URL), or with `kind: 'worker'` the worker process (no HTTP). */
export function startApp(name, appRoot, env, { kind = 'api' } = {}) {
  const main = kind === 'api' ? 'dist/apps/api/src/main.js' : 'dist/apps/worker/src/main.js';
  const ready = kind === 'api' ? /listening on (http:\/\/\S+)/ : /worker running projections/;
  mkdirSync(LOG_DIR, { recursive: true });
  const logPath = join(LOG_DIR, `${name}-app.log`);
  const logFile = createWriteStream(logPath);
  const dataDir = env.DATA_DIR;
  const child = spawn(process.execPath, [join(appRoot, main)], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...UNLIMITED, ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const proc = { name, child, url: null, logPath, output: '', errorLines: [], warnLines: [], lines: 0 };
  proc.exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  child.once('exit', (code, signal) => {
    children.delete(child);
    logFile.end();
    proc.exitInfo = { code, signal };
    if (proc.started && !proc.stopping) log(`${name}: the app exited (${code ?? signal}) during the run; see ${logPath}`);
  });
  let pending = '';
  const onData = (chunk) => {
    logFile.write(chunk);
    const text = pending + chunk.toString();
    const lines = text.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (!line.trim()) continue;
      proc.lines += 1;
      if (APP_ERROR_LINE.test(line)) proc.errorLines.length < 50 && proc.errorLines.push(line.slice(0, 400));
      else if (APP_WARN_LINE.test(line)) proc.warnLines.length < 50 && proc.warnLines.push(line.slice(0, 400));
    }
    if (!proc.started) proc.output += chunk.toString();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${name}: the app did not start within 60 s:\n${proc.output}`)), 60_000);
    const check = setInterval(() => {
      const m = ready.exec(proc.output);
      if (m) {
        clearInterval(check);
        clearTimeout(timer);
        proc.started = true;
        if (kind === 'api') proc.url = m[1].replace('localhost', '127.0.0.1');
        proc.output = '';
        res(proc);
      }
    }, 20);
    child.once('exit', (code, signal) => {
      clearInterval(check);
      clearTimeout(timer);
      if (!proc.started) rej(new Error(`${name}: the app exited (${code ?? signal}) before it was ready:\n${proc.output}`));
    });
  });
}

export async function stopApp(proc) {
  if (!proc) return;
  await stopApp(proc.worker);
  proc.stopping = true;
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await proc.exited;
  clearTimeout(timer);
}

export function runCli(appRoot, dataDir, args) {
  return new Promise((res, rej) => {
    const child = execFile(
      process.execPath,
      [join(appRoot, 'dist/apps/cli/src/main.js'), ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        children.delete(child);
        if (error) rej(new Error(`CLI ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else res(JSON.parse(stdout));
      },
    );
    children.add(child);
  });
}

/** The app stopped under a scenario (exit 0 = it got SIGTERM/SIGINT, from outside this bench). */
export class AppExited extends Error {}

function assertAlive(app) {
  if (app?.worker) assertAlive(app.worker);
  if (app?.exitInfo && !app.stopping) {
    const { code, signal } = app.exitInfo;
    throw new AppExited(`${app.name}: the app exited (${code ?? signal}${code === 0 ? ': it received SIGTERM/SIGINT, not from this bench' : ''}); log ${app.logPath}`);
  }
}

/**
 * Runs a scenario on a fresh `app` and always stops it; the scenario's result gets the app's log
 * summary. A failure of an app stopped from outside says so (main retries the scenario once).
 */
export async function onApp(app, scenario) {
  try {
    const out = await scenario();
    out.appLog = appLogSummary(app);
    return out;
  } catch (error) {
    await sleep(300);
    assertAlive(app);
    throw error;
  } finally {
    await stopApp(app);
  }
}

export async function waitFor(label, predicate, timeoutSeconds, app = null, pollMs = 25) {
  const deadline = performance.now() + timeoutSeconds * 1000;
  while (!predicate()) {
    assertAlive(app);
    if (performance.now() > deadline) {
      log(`${label}: not reached within ${timeoutSeconds} s`);
      return false;
    }
    await sleep(pollMs);
  }
  return true;
}

function appLogSummary(app) {
  return { lines: app.lines, errorLines: app.errorLines.length, warnLines: app.warnLines.length, sample: [...app.errorLines, ...app.warnLines].slice(0, 5), log: app.logPath };
}
