// How a deployment sets the projection runner up (batch sizes, lanes, where the eventual lane's
// read models live, the link to the write path) and what the runner reports of each projection.
import type { ReadStore } from '../read-store/read-store.port';
import type { InlineProjections } from './inline-projections';
import type { ProjectionConsistency } from './projection';

export interface ProjectionStatus {
  name: string;
  version: number;
  position: number;
  head: number;
  /** head − position: events still to apply (on EventStoreDB, log bytes). */
  lag: number;
  consistency: ProjectionConsistency;
}

export interface RunnerLogger {
  error(message: string, error?: unknown): void;
  info?(message: string): void;
}

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** The eventual lane's largest batch (default 1000): its transaction holds the read store's writer. */
  eventualBatchSize?: number;
  /** The eventual lane's pause between batches while nobody waits for it (default 100 ms). */
  eventualIntervalMs?: number;
  logger?: RunnerLogger;
  /** How often `waitFor` polls checkpoints when the projections run in another process (default 10 ms; 200 ms when linked to it). */
  pollMs?: number;
  /** The lanes this process runs once started (default both); the others run in the linked process. */
  lanes?: { primary: boolean; eventual: boolean };
  /**
   * Where the eventual lane's read models and checkpoints live (default: the same store). On SQLite
   * a file of its own: the process applying that lane then never takes the write lock of the file
   * the read-your-writes lane commits to (see createEventualReadStore).
   */
  eventualStore?: ReadStore;
  /** Where the inline projections are registered too, for the write path to apply (see InlineProjections). */
  inline?: InlineProjections;
}
