// The link between the API process and the worker process it starts (WORKER_MODE=process): the
// API's appends wake the worker's subscriptions at once (instead of its idle poll), the worker's
// projection checkpoints reach the API's read-your-writes waiters at once (instead of a poll of
// the checkpoint table), and a reader waiting for the eventual lane ends its pause. Messages are
// hints that make things prompt; the stored checkpoints stay the truth (a fallback poll reads them).
import type { ChildProcess } from 'node:child_process';

export type WorkerMessage =
  /** API → worker: events were appended (read the log now). */
  | { t: 'appended' }
  /** API → worker: a reader waits (end the eventual lane's pause; report where the projections stand). */
  | { t: 'wake' }
  /** Worker → API: projections' checkpoints committed. */
  | { t: 'positions'; positions: Record<string, number> };

export interface WorkerChannel {
  send(message: WorkerMessage): void;
  onMessage(listener: (message: WorkerMessage) => void): void;
}

export const WORKER_CHANNEL = Symbol('WORKER_CHANNEL');

function isWorkerMessage(value: unknown): value is WorkerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const t = (value as { t?: unknown }).t;
  return t === 'appended' || t === 'wake' || (t === 'positions' && typeof (value as { positions?: unknown }).positions === 'object');
}

/** A message the other side did not get: it is going away, and the fallback polls cover the gap. */
function ignoreSendError(): void {}

/**
 * A channel over Node's IPC: to a child process (the API's side), or to this process's parent (the
 * worker's side; null when this process was not started with an IPC channel). Sends are dropped
 * while the other side is not connected: the fallback polls cover the gap.
 */
export class IpcChannel implements WorkerChannel {
  private readonly listeners: Array<(message: WorkerMessage) => void> = [];
  private target: ChildProcess | NodeJS.Process | null = null;

  static ofParent(): IpcChannel | null {
    if (typeof process.send !== 'function') return null;
    const channel = new IpcChannel();
    channel.attach(process);
    return channel;
  }

  /** (Re)binds the channel to a process: the worker's replacement after a restart keeps the listeners. */
  attach(target: ChildProcess | NodeJS.Process): void {
    this.target = target;
    target.on('message', (message: unknown) => {
      if (this.target !== target || !isWorkerMessage(message)) return;
      for (const listener of this.listeners) listener(message);
    });
  }

  detach(): void {
    this.target = null;
  }

  send(message: WorkerMessage): void {
    const target = this.target;
    if (!target?.connected || typeof target.send !== 'function') return;
    try {
      // With a callback, a write that fails later (the other side died meanwhile: EPIPE) is handed
      // to it instead of being emitted as an 'error' nobody listens to, which would end this process.
      target.send(message, undefined, undefined, ignoreSendError);
    } catch {
      // The other side is going away; the fallback polls cover it.
    }
  }

  onMessage(listener: (message: WorkerMessage) => void): void {
    this.listeners.push(listener);
  }
}
