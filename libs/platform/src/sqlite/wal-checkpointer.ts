// Checkpoints a WAL database from a worker thread. node:sqlite is synchronous, so a checkpoint run
// by the commit that crosses `wal_autocheckpoint` blocks the event loop for as long as it copies
// pages (tens of milliseconds on a read model of millions of documents): every request in flight
// waits. A PASSIVE checkpoint on another thread's connection copies the same pages without
// blocking writers or this thread; the stores then raise their own autocheckpoint to a safety net.
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path);
db.exec('PRAGMA busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch { /* busy: the next turn tries again */ }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;

  constructor(path: string, intervalMs: number) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, intervalMs } });
    // It must never keep the process alive, nor take it down.
    this.worker.unref();
    this.worker.on('error', () => undefined);
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 1000))]);
    await this.worker.terminate();
  }
}
