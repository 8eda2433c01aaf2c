// Checkpoints a WAL database from a worker thread. node:sqlite is synchronous, so a checkpoint run
// by the commit that crosses `wal_autocheckpoint` blocks the event loop for as long as it copies
// pages (tens of milliseconds on a read model of millions of documents): every request in flight
// waits. A PASSIVE checkpoint on another thread's connection copies the same pages without
// blocking writers or this thread; the stores then raise their own autocheckpoint to a safety net.
import { Worker } from 'node:worker_threads';

// Messages in: 'next' (report the next checkpoint that starts after this message), 'stop'.
// Messages out: only when asked, { answers, log, checkpointed } after a checkpoint has run.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path);
db.exec('PRAGMA busy_timeout = 1000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let asked = 0;
const timer = setInterval(() => {
  const answers = asked;
  asked = 0;
  let result;
  try {
    result = checkpoint.get();
  } catch {
    asked += answers; // busy: the next turn tries again, and answers then
    return;
  }
  if (answers > 0) parentPort.postMessage({ answers, log: result.log, checkpointed: result.checkpointed });
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'next') {
    asked += 1;
    return;
  }
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** What one checkpoint saw: frames in the WAL, and how many of them are now in the database. */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

interface Waiter {
  resolve: (result: CheckpointResult) => void;
  reject: (error: Error) => void;
}

export class WalCheckpointer {
  private readonly worker: Worker;
  /** nextCheckpoint() calls not answered yet, oldest first (the worker answers in that order). */
  private readonly waiting: Waiter[] = [];
  private exited = false;

  constructor(path: string, intervalMs: number) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, intervalMs } });
    this.worker.on('message', ({ answers, log, checkpointed }: CheckpointResult & { answers: number }) => {
      for (const waiter of this.waiting.splice(0, answers)) waiter.resolve({ log, checkpointed });
    });
    this.worker.once('exit', () => {
      this.exited = true;
      this.failWaiting();
    });
    // It must never keep the process alive, nor take it down. (unref() after the 'message'
    // listener: a listener added later refs the worker again.)
    this.worker.unref();
    this.worker.on('error', () => undefined);
  }

  /**
   * Resolves once a background checkpoint that started after this call has run (one that found
   * the database busy does not count): lets a caller (a test) wait for the checkpointer instead of
   * guessing how long it takes. The checkpoints themselves keep their own pace either way, and
   * the promise does not keep the process alive by itself.
   */
  nextCheckpoint(): Promise<CheckpointResult> {
    if (this.exited) return Promise.reject(new Error('the WAL checkpointer has stopped'));
    return new Promise<CheckpointResult>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage('next');
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    // At most a second for the worker's last checkpoint; the timer goes with the wait (left
    // running, it would keep the process alive a second after every close).
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))]);
    } finally {
      clearTimeout(timer);
    }
    await this.worker.terminate();
    this.failWaiting();
  }

  private failWaiting(): void {
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('the WAL checkpointer has stopped'));
  }
}
