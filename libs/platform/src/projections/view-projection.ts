// A view projection: a read model whose documents an event changes across collections and ids that
// the event alone does not name (a set's demand, a seller's score, a delivery's endpoint health) —
// what a one-document-per-stream `documentProjection` cannot express.
//
// Its `evolve(event)` is pure: a generator that yields what it needs to read and what it writes, as
// data (`view.get`, `view.find`, `view.put`, …), and receives the documents it asked for. The
// runner owns the I/O (`runView` against the read store, inside its batch transaction); a spec
// drives the same generator against documents in memory (given documents, when events, then
// documents), with no store at all.
import type { RecordedEvent } from '../event-store/event-store.port';
import type { CollectionSpec, Doc, Filter, FindOptions, Page, ReadStore } from '../read-store/read-store.port';
import type { Projection, ProjectionConsistency } from './projection';

/** One thing a view's evolve asks of the store. */
export type ViewEffect =
  | { op: 'get'; collection: CollectionSpec; id: string }
  | { op: 'getMany'; collection: CollectionSpec; ids: readonly string[] }
  | { op: 'find'; collection: CollectionSpec; filter: Filter; options?: FindOptions }
  | { op: 'put'; collection: CollectionSpec; doc: Doc }
  | { op: 'delete'; collection: CollectionSpec; id: string };

/** A step of a view's evolve: yields effects, receives their results, returns R. */
export type ViewStep<R = void> = Generator<ViewEffect, R, unknown>;

/** The effects, typed: `const item = yield* view.get<ItemDoc>(ITEMS, id)`. */
export const view = {
  *get<D extends Doc>(collection: CollectionSpec, id: string): ViewStep<D | null> {
    return (yield { op: 'get', collection, id }) as D | null;
  },
  *getMany<D extends Doc>(collection: CollectionSpec, ids: readonly string[]): ViewStep<D[]> {
    return (yield { op: 'getMany', collection, ids }) as D[];
  },
  *find<D extends Doc>(collection: CollectionSpec, filter: Filter, options?: FindOptions): ViewStep<Page<D>> {
    return (yield { op: 'find', collection, filter, options }) as Page<D>;
  },
  *put<D extends Doc>(collection: CollectionSpec, doc: D): ViewStep {
    yield { op: 'put', collection, doc };
  },
  *delete(collection: CollectionSpec, id: string): ViewStep {
    yield { op: 'delete', collection, id };
  },
};

export interface ViewProjectionDefinition {
  name: string;
  version: number;
  collections: readonly CollectionSpec[];
  eventTypes: readonly string[];
  consistency?: ProjectionConsistency;
  /** Pure: what the event reads and writes, as effects (see `view`). */
  evolve(event: RecordedEvent): ViewStep;
}

export interface ViewProjection extends Projection {
  evolve(event: RecordedEvent): ViewStep;
}

export function viewProjection(def: ViewProjectionDefinition): ViewProjection {
  return {
    name: def.name,
    version: def.version,
    collections: def.collections,
    eventTypes: def.eventTypes,
    consistency: def.consistency,
    evolve: def.evolve,
    apply: (event, store) => runView(def.evolve(event), store),
  };
}

/** Performs a view step's effects against a read store (the runner's side of the contract). */
export async function runView<R>(step: ViewStep<R>, store: ReadStore): Promise<R> {
  let next = step.next();
  while (!next.done) {
    next = step.next(await perform(next.value, store));
  }
  return next.value;
}

async function perform(effect: ViewEffect, store: ReadStore): Promise<unknown> {
  const collection = store.collection<Doc>(effect.collection);
  switch (effect.op) {
    case 'get':
      return collection.get(effect.id);
    case 'getMany':
      return collection.getMany(effect.ids);
    case 'find':
      return collection.find(effect.filter, effect.options);
    case 'put':
      return collection.put(effect.doc);
    case 'delete':
      return collection.delete(effect.id);
  }
}
