// The processes `npm run bench` starts: the servers (baseline and app, each up until it says where it
// listens) and the real CLI on the app's DATA_DIR.
import { execFile, spawn } from 'node:child_process';

import { children } from '../lib/resources.mjs';

import { CLI_MAIN, ROOT } from './config.mjs';

export function startServer(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const proc = { name, child, output: '', url: null, exited: null, linesAfterReady: [] };
  proc.exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  child.once('exit', () => children.delete(child));
  const ready = new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${name} did not start within 30 s:\n${proc.output}`)), 30_000);
    const onData = (chunk) => {
      const text = chunk.toString();
      proc.output += text;
      if (proc.url) {
        for (const line of text.split('\n')) if (line.trim()) proc.linesAfterReady.push(line);
        return;
      }
      const m = /listening on (http:\/\/\S+)/.exec(proc.output);
      if (m) {
        clearTimeout(timer);
        proc.url = m[1].replace('localhost', '127.0.0.1');
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
  return ready;
}

export async function stopServer(proc) {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await proc.exited;
  clearTimeout(timer);
}

export function runCli(dataDir, args) {
  return new Promise((res, rej) => {
    execFile(
      process.execPath,
      [CLI_MAIN, ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) rej(new Error(`CLI ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else res(stdout);
      },
    );
  });
}
