// What two linked runners (the API's and its worker process's, WORKER_MODE=process) tell each
// other: the side that runs the projections reports each batch's checkpoints and, asked to, ends
// the eventual lane's pause and says where its projections stand; the other side takes those
// reports as the positions its waiters wait on.
import type { WorkerChannel } from '../workers/worker-channel';

/** What a runner lends the link. */
export interface LinkedRunner {
  /** The position each projection has applied, as this process knows it (the runner's map). */
  positions: Map<string, number>;
  /** Whether this process applies the projection. */
  isLocal(name: string): boolean;
  /** Whether the projection is registered here. */
  knows(name: string): boolean;
  wakeEventual(): void;
  wakeWaiters(): void;
}

/** Answers the linked runner's messages on `channel`. */
export function listenToLinkedRunner(channel: WorkerChannel, runner: LinkedRunner): void {
  channel.onMessage((message) => {
    if (message.t === 'wake') {
      // Someone waits: end the eventual lane's pause, and say where every projection stands now
      // (a waiter for a position applied already would otherwise wait for the next batch).
      runner.wakeEventual();
      const local = [...runner.positions].filter(([name]) => runner.isLocal(name));
      if (local.length > 0) channel.send({ t: 'positions', positions: Object.fromEntries(local) });
    } else if (message.t === 'positions') {
      // The other process's word on its own projections is exact (a rebuild there moves a
      // checkpoint back): taken as said, never as a maximum; ours stay ours.
      for (const [name, position] of Object.entries(message.positions)) {
        if (typeof position === 'number' && runner.knows(name) && !runner.isLocal(name)) runner.positions.set(name, position);
      }
      runner.wakeWaiters();
    }
  });
}
