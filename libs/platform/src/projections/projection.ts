// What a projection is: named, versioned, owning some collections, applying events to them.
import type { RecordedEvent } from '../event-store/event-store.port';
import type { CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';

export interface Projection {
  readonly name: string;
  /** Bump when the read model's shape changes: a changed version rebuilds it from the log at start. */
  readonly version: number;
  /** The collections this projection owns (cleared on rebuild). */
  readonly collections: readonly CollectionSpec[];
  readonly eventTypes: readonly string[];
  /**
   * `read-your-writes` (the default): a write answers once this projection has applied it.
   * `eventual` (analytics): followed on a lane of its own, in larger batches applied through a
   * write-behind cache (see BatchCache: a document many events touch is read and written once a
   * batch); writes do not wait for it — its readers do (`ProjectionRunner.waitFor` with its name).
   */
  readonly consistency?: ProjectionConsistency;
  /** Applies one event (only types in `eventTypes`), inside the runner's transaction. */
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
}

export type ProjectionConsistency = 'read-your-writes' | 'eventual';

export const isEventual = (p: Pick<Projection, 'consistency'>): boolean => p.consistency === 'eventual';

/** A document that mirrors one stream: `revision` is the stream revision last applied to it. */
export interface StreamDoc extends Doc {
  revision: number;
}

export interface DocumentProjectionDefinition<D extends StreamDoc> {
  name: string;
  version: number;
  collection: CollectionSpec;
  eventTypes: readonly string[];
  /** Pure: the next document (null deletes it) from the current one (null when absent). */
  evolve(doc: D | null, event: RecordedEvent): D | null;
  /** The id of the document an event concerns; by default the stream's id part after the first `-`. */
  documentId?(event: RecordedEvent): string;
}

export function streamEntityId(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(dash + 1);
}

/**
 * A projection with one document per stream, built by a pure `evolve`. Idempotent by
 * construction: an event whose revision the document already reflects is ignored.
 */
export function documentProjection<D extends StreamDoc>(def: DocumentProjectionDefinition<D>): Projection {
  return {
    name: def.name,
    version: def.version,
    collections: [def.collection],
    eventTypes: def.eventTypes,
    async apply(event, store) {
      const collection = store.collection<D>(def.collection);
      const id = def.documentId ? def.documentId(event) : streamEntityId(event.streamId);
      const current = await collection.get(id);
      if (current && current.revision >= event.revision) return;
      const next = def.evolve(current, event);
      if (next === null) {
        if (current) await collection.delete(id);
        return;
      }
      await collection.put({ ...next, id, revision: event.revision });
    },
  };
}
