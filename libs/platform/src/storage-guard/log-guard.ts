// The read side knows how far the log went: every projection and process manager keeps the log
// position it has applied. A log that ends before that position has lost events (deleted,
// truncated, replaced by an older copy); starting on it would serve read models the log no longer
// backs, take new writes into positions the read side believes applied, and let the next rebuild
// erase everything. So a start refuses it, saying what to do.
import type { EventStore } from '../event-store/event-store.port';
import { PROCESS_MANAGER_CHECKPOINTS } from '../process-managers/process-manager-runner';
import { CHECKPOINTS } from '../projections/projection-runner';
import type { CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';

interface PositionDoc extends Doc {
  position: number;
}

/** A read store and how an operator knows it (`read.db`, or `MongoDB collectibles`). */
export interface ReadSide {
  label: string;
  store: ReadStore;
}

/** How far a read store's projections and process managers went: the furthest of them. */
export interface Reach {
  label: string;
  position: number;
  /** The projection or process manager that went furthest. */
  name: string;
}

/** The furthest position the projections and process managers of `side` have applied (0: none). */
export async function reachOf(side: ReadSide): Promise<Reach> {
  let reach: Reach = { label: side.label, position: 0, name: '' };
  for (const spec of [CHECKPOINTS, PROCESS_MANAGER_CHECKPOINTS] as CollectionSpec[]) {
    const { items } = await side.store.collection<PositionDoc>(spec).find({}, { limit: 1000 });
    for (const doc of items) {
      if (typeof doc.position === 'number' && doc.position > reach.position) reach = { label: side.label, position: doc.position, name: doc.id };
    }
  }
  return reach;
}

/**
 * What is wrong when the log ends before what the read side applied, as one line naming both
 * files (or stores) and positions and what to do; undefined when the log covers it.
 */
export async function logShortfall(events: EventStore, logLabel: string, sides: readonly ReadSide[]): Promise<string | undefined> {
  // The read side first: a position it applied was in the log before, so a head read after it covers
  // it even while a running server appends and applies meanwhile (read the other way round, those
  // writes look like a lost log).
  const reaches = await Promise.all(sides.map(reachOf));
  const head = await events.headPosition();
  const ahead = reaches.filter((reach) => reach.position > head);
  if (ahead.length === 0) return undefined;
  const applied = ahead.map((r) => `${r.label} has applied it up to position ${r.position} (${r.name})`).join(', and ');
  return (
    `The event log ${logLabel} ends at position ${head}, but ${applied}: the log has lost events (deleted, truncated or ` +
    `replaced by an older copy), and nothing is started on it. Restore ${logLabel} from a backup (with the secrets key it was ` +
    'sealed with); or, knowingly, run `npm run cli -- projections reset` to drop the read models and rebuild them from the log as it is now.'
  );
}
