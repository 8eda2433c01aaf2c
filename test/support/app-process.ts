// Boots the real compiled API (dist/) as a child process on a random port with its own DATA_DIR,
// and runs the real CLI against the same DATA_DIR — what a user does, over HTTP.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const API_MAIN = join(ROOT, 'dist/apps/api/src/main.js');
const CLI_MAIN = join(ROOT, 'dist/apps/cli/src/main.js');
const WORKER_MAIN = join(ROOT, 'dist/apps/worker/src/main.js');
const ENTRY_POINTS = { api: API_MAIN, worker: WORKER_MAIN, cli: CLI_MAIN } as const;
/** How long a process may take to start, or a CLI command to end: only catches a hang (a busy machine is slow). */
const PROCESS_TIMEOUT_MS = 60_000;

export interface RunningApp {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Output the process wrote so far (stdout + stderr). */
  output(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL (kill -9) and wait for exit. */
  kill(): Promise<void>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'cc-e2e-'));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Rate limits lifted far above what any suite sends: the suites fire requests back to back from
 * one IP and one workspace, which the production defaults (20/s, 100/min) would refuse. The
 * rate-limit suite sets its own through `env`.
 */
export const UNLIMITED_RATE_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
  RATE_LIMIT_PUBLIC_PER_SECOND: '1000000',
  RATE_LIMIT_WIDGET_SELLER_PER_MINUTE: '1000000',
  RATE_LIMIT_WIDGET_SELLER_PER_SECOND: '1000000',
  RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_WIDGET_SUBMIT_PER_SECOND: '1000000',
  PORTAL_SIGN_IN_PER_MINUTE: '1000000',
  // The suites that walk every operation create a webhook per call.
  WEBHOOK_MAX_PER_WORKSPACE: '10000',
};

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** Options for node itself, before the script (e.g. `--require` of a test hook). */
  nodeArgs?: string[];
  /** Opens an IPC channel to the app (`child.send`), for such hooks. */
  ipc?: boolean;
  /** With a worker process beside the API: wait for it to run too (default), or only for the API. */
  waitForWorker?: boolean;
}

export async function startApp(options: StartOptions = {}): Promise<RunningApp> {
  const dataDir = options.dataDir ?? tempDataDir();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), API_MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...UNLIMITED_RATE_ENV, ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start in time:\n${out}`)), PROCESS_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      // With a worker process beside the API (WORKER_MODE=background|process), the app is up once
      // both are: the worker prints its line when its projections, timers and deliveries run.
      if (m && (options.waitForWorker === false || !out.includes('worker process started') || out.includes('worker running projections'))) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${String(code)} before listening:\n${out}`));
    });
  });
  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return {
    url: url.replace('localhost', '127.0.0.1'),
    dataDir,
    child,
    output: () => out,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}

/**
 * Starts a worker process on its own (as docker-compose runs one beside APIs with
 * RUN_WORKERS=false): ready once it prints that it runs its projections.
 */
export async function startWorker(options: Omit<StartOptions, 'nodeArgs' | 'ipc'> = {}): Promise<Omit<RunningApp, 'url'>> {
  const dataDir = options.dataDir ?? tempDataDir();
  const child = spawn(process.execPath, [WORKER_MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start in time:\n${out}`)), PROCESS_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('worker running projections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${String(code)} before running:\n${out}`));
    });
  });
  // 'close', not 'exit': what it wrote last may still be in the pipes when it exits.
  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { dataDir, child, output: () => out, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
}

export interface ExitResult {
  /** null when the process had to be killed (it did not stop by itself in time). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an entry point (api, worker, cli) that is expected to stop by itself, e.g. refusing to start. */
export function runToExit(entry: keyof typeof ENTRY_POINTS, env: Record<string, string>, args: string[] = []): Promise<ExitResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ENTRY_POINTS[entry], ...args], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), PROCESS_TIMEOUT_MS);
    // 'close', not 'exit': the output may still be in the pipes when the process exits.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = unknown>(): T;
}

/** Runs the CLI on a DATA_DIR; `input`, when given, is written to its standard input (then closed). */
export function cli(dataDir: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI_MAIN, ...args],
      { env: { ...process.env, DATA_DIR: dataDir, ...env }, timeout: PROCESS_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** A workspace and its full-access key, made through the CLI. */
export async function createWorkspace(dataDir: string, slug: string): Promise<{ id: string; apiKey: string }> {
  const result = await cli(dataDir, ['workspace', 'create', '--name', `Workspace ${slug}`, '--slug', slug]);
  if (result.code !== 0) throw new Error(`workspace create failed: ${result.stderr}`);
  const body = result.json<{ workspace: { id: string }; apiKey: string }>();
  return { id: body.workspace.id, apiKey: body.apiKey };
}
