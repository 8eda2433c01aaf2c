// The processes `npm run bench:scale` starts: servers (up once they listen, with their inspector URL
// when asked), node scripts, the real CLI (workspaces) and the event-log seeder (bench/seed/seed-log.mjs).
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';

import { children } from '../lib/resources.mjs';

import { log, ROOT, SEEDER, settings } from './config.mjs';

export function startServer(name, args, env, { startTimeoutMs = 120_000 } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const proc = { name, child, output: '', url: null, inspector: null, linesAfterReady: [], spawnedAt: performance.now() };
  proc.exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  child.once('exit', () => children.delete(child));
  const wantInspector = args.some((a) => a.startsWith('--inspect'));
  child.once('exit', (code, signal) => {
    if (proc.url) log(`${name} exited (${code ?? signal})${proc.linesAfterReady.length ? `: ${proc.linesAfterReady.slice(-3).join(' | ').slice(0, 500)}` : ''}`);
  });
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${name} did not start within ${startTimeoutMs / 1000} s:\n${proc.output}`)), startTimeoutMs);
    const onData = (chunk) => {
      const text = chunk.toString();
      if (proc.url) {
        for (const line of text.split('\n')) if (line.trim() && proc.linesAfterReady.length < 200) proc.linesAfterReady.push(line);
        return;
      }
      proc.output += text;
      const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(proc.output);
      if (inspector) proc.inspector = inspector[1];
      const m = /listening on (http:\/\/\S+)/.exec(proc.output);
      if (m && (!wantInspector || proc.inspector)) {
        clearTimeout(timer);
        proc.url = m[1].replace('localhost', '127.0.0.1');
        proc.listeningAfterMs = performance.now() - proc.spawnedAt;
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
}

export async function stopServer(proc) {
  if (!proc) return;
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await proc.exited;
  clearTimeout(timer);
}

export function runNode(args, { env = {}, timeoutMs = 60_000, maxBuffer = 64 * 1024 * 1024 } = {}) {
  return new Promise((res, rej) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, timeout: timeoutMs, maxBuffer },
      (error, stdout, stderr) => {
        children.delete(child);
        if (error) rej(new Error(`node ${args[0]} ${args.slice(1, 3).join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else res({ stdout, stderr });
      },
    );
    children.add(child);
    if (env.SCALE_STREAM_STDERR) child.stderr.on('data', (c) => process.stderr.write(c));
  });
}

export const cli = async (appRoot, dataDir, args) =>
  JSON.parse((await runNode([join(appRoot, 'dist/apps/cli/src/main.js'), ...args], { env: { DATA_DIR: dataDir } })).stdout);

export async function createWorkspace(appRoot, dataDir, slug) {
  const created = await cli(appRoot, dataDir, ['workspace', 'create', '--name', `Scale ${slug}`, '--slug', slug]);
  if (!created.apiKey || !created.workspace?.id) throw new Error(`CLI gave no workspace/key: ${JSON.stringify(created)}`);
  return { id: created.workspace.id, apiKey: created.apiKey, slug };
}

export async function seedLog(appRoot, plan) {
  const t0 = performance.now();
  const { stdout } = await runNode([SEEDER, JSON.stringify({ ...plan, appRoot })], {
    timeoutMs: settings.catchUpTimeoutSeconds * 1000,
    env: { SCALE_STREAM_STDERR: '1' },
  });
  const summary = JSON.parse(stdout.trim().split('\n').pop());
  summary.wallSeconds = (performance.now() - t0) / 1000;
  return summary;
}
