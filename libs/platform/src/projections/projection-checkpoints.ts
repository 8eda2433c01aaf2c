// Where each projection's checkpoint and documents live: a projection's checkpoint shares the store
// (so the transaction) of its documents — the read-your-writes lane's store, or the eventual
// lane's when it has one of its own. A checkpoint records the log position applied and the
// projection's version (a changed version rebuilds it at start).
import type { Collection, Doc, ReadStore } from '../read-store/read-store.port';
import { isEventual, type Projection } from './projection';

export interface CheckpointDoc extends Doc {
  position: number;
  version: number;
  updatedAt: string;
}

export const CHECKPOINTS = { name: 'projection_checkpoints', indexes: [] } as const;

export class ProjectionCheckpoints {
  private readonly checkpoints: Collection<CheckpointDoc>;
  private readonly eventualCheckpoints: Collection<CheckpointDoc>;

  constructor(
    private readonly store: ReadStore,
    private readonly eventualStore: ReadStore = store,
  ) {
    this.checkpoints = store.collection<CheckpointDoc>(CHECKPOINTS);
    this.eventualCheckpoints = eventualStore === store ? this.checkpoints : eventualStore.collection<CheckpointDoc>(CHECKPOINTS);
  }

  /** The store holding the projection's documents and checkpoint (its lane's). */
  storeOf(p: Projection): ReadStore {
    return isEventual(p) ? this.eventualStore : this.store;
  }

  /** The checkpoints collection the projection's checkpoint is in. */
  of(p: Projection): Collection<CheckpointDoc> {
    return isEventual(p) ? this.eventualCheckpoints : this.checkpoints;
  }

  /** The projection's stored checkpoint, if any. */
  get(p: Projection): Promise<CheckpointDoc | null> {
    return this.of(p).get(p.name);
  }

  /** The position the projection's stored checkpoint records (0 when none). */
  async positionOf(p: Projection): Promise<number> {
    return (await this.get(p))?.position ?? 0;
  }

  /** The stored positions of these projections, by name (absent when none). */
  async positions(projections: readonly Projection[]): Promise<Map<string, number>> {
    const byName = new Map<string, number>();
    for (const group of this.byStore(projections).values()) {
      for (const cp of await this.of(group[0]).getMany(group.map((p) => p.name))) byName.set(cp.id, cp.position);
    }
    return byName;
  }

  /** Drops the projection's documents and sets its checkpoint back to the start of the log. */
  async reset(p: Projection): Promise<void> {
    const store = this.storeOf(p);
    await store.transaction(async () => {
      for (const spec of p.collections) await store.collection(spec).clear();
      await this.of(p).put({ id: p.name, position: 0, version: p.version, updatedAt: new Date().toISOString() });
    });
  }

  /** The projections grouped by the store they live in (one group when both lanes share one). */
  byStore(projections: readonly Projection[]): Map<ReadStore, Projection[]> {
    const groups = new Map<ReadStore, Projection[]>();
    for (const p of projections) {
      const store = this.storeOf(p);
      const group = groups.get(store);
      if (group) group.push(p);
      else groups.set(store, [p]);
    }
    return groups;
  }
}
