// WORKER_MODE=process: `npm start` runs the workers (projections, process managers, timers, webhook
// dispatch) in a child process beside the API — the second core — and keeps it running: a worker
// that exits is started again (after 0.5 s, doubling to 30 s while it keeps failing), and it stops
// with the API. Both processes share DATA_DIR; the IPC channel only makes them prompt (see
// WorkerChannel): read-your-writes waits for the worker's checkpoints, exactly as with inline workers.
// WORKER_MODE=background: the worker takes only what no request waits for, and runs at a lower CPU
// priority than the API (BACKGROUND_WORKER_NICE).
import { type ChildProcess, fork } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { join } from 'node:path';

import { IpcChannel } from '@app/platform';

export const WORKER_MAIN = join(__dirname, '..', '..', 'worker', 'src', 'main.js');

/**
 * How many nice steps below the API the background worker runs. It starts with the API (a restart)
 * and then boots and catches up on the log, CPU-bound, on the same cores as the API's first
 * requests, which waited behind it although none needs it; the kernel now serves the API first.
 * The worker's own work (analytics, process managers, timers, webhooks) has no request waiting.
 */
export const BACKGROUND_WORKER_NICE = 10;

export interface SupervisorLog {
  info(message: string): void;
  error(message: string): void;
}

export class WorkerSupervisor {
  readonly channel = new IpcChannel();
  private child: ChildProcess | null = null;
  private stopping = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: SupervisorLog,
    /** What the worker takes: every worker (`process`), or what no request waits for (`background`). */
    private readonly role: 'all' | 'background',
    private readonly entry = WORKER_MAIN,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const startedAt = Date.now();
    // The worker inherits the environment (DATA_DIR, stores, secrets) and this process's stdout
    // and stderr; WORKER_ROLE says which of the workers it runs.
    const child = fork(this.entry, [], { env: { ...process.env, RUN_WORKERS: 'true', WORKER_ROLE: this.role }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: process.execArgv.filter((a) => !a.startsWith('--inspect')) });
    this.child = child;
    // A failed start (or a failed signal) is an 'error' event: logged, never fatal to the API; the
    // 'exit' that follows a failed start restarts it.
    child.on('error', (error) => this.log.error(`worker process (pid ${child.pid ?? 'none'}): ${error.message}`));
    this.channel.attach(child);
    const nice = this.role === 'background' ? this.lowerPriority(child) : null;
    this.log.info(`worker process started (pid ${child.pid}, ${this.role === 'all' ? 'every worker' : 'background work'}${nice === null ? '' : `, nice ${nice}`})`);
    child.once('exit', (code, signal) => {
      if (this.child === child) {
        this.child = null;
        this.channel.detach();
      }
      if (this.stopping) return;
      // A worker that ran a while before failing starts the back-off again.
      this.failures = Date.now() - startedAt > 60_000 ? 1 : this.failures + 1;
      const delay = Math.min(30_000, 500 * 2 ** (this.failures - 1));
      this.log.error(`worker process exited (${signal ?? `code ${code}`}); starting it again in ${delay} ms`);
      this.restartTimer = setTimeout(() => this.start(), delay);
    });
  }

  /**
   * Lowers the worker's CPU priority below this process's (on Linux, of its main thread, where its
   * work runs; threads it starts later inherit it). Returns the niceness set, or null when the
   * system refused (the worker then runs at the API's priority, as before).
   */
  private lowerPriority(child: ChildProcess): number | null {
    if (child.pid === undefined) return null;
    const nice = Math.min(19, getPriority() + BACKGROUND_WORKER_NICE);
    try {
      setPriority(child.pid, nice);
      return nice;
    } catch (error) {
      this.log.error(`could not lower the worker process's priority: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  /** From now on a worker that exits is not started again (the API is shutting down: Ctrl-C reaches both). */
  shuttingDown(): void {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
  }

  /** Stops the worker at a checkpoint (SIGTERM; SIGKILL after `graceMs`) and does not start it again. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
