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
  /**
   * A resource's own read model (what its GET and list routes read): applied by the write itself,
   * right after the append and before the write answers (InlineProjections), as well as by the
   * runner, which then finds it applied. Off: the runner alone applies it.
   */
  inline?: boolean;
}

/** A projection with one document per stream, built by a pure `evolve` (see documentProjection). */
export interface DocumentProjection<D extends StreamDoc = StreamDoc> extends Projection {
  readonly collection: CollectionSpec;
  readonly inline: boolean;
  documentId(event: RecordedEvent): string;
  evolve(doc: D | null, event: RecordedEvent): D | null;
}

export function isDocumentProjection(p: Projection): p is DocumentProjection {
  return 'evolve' in p && 'documentId' in p;
}

export function streamEntityId(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(dash + 1);
}

/**
 * A projection with one document per stream, built by a pure `evolve`. Idempotent by
 * construction: an event whose revision the document already reflects is ignored.
 */
export function documentProjection<D extends StreamDoc>(def: DocumentProjectionDefinition<D>): DocumentProjection<D> {
  const documentId = (event: RecordedEvent): string => (def.documentId ? def.documentId(event) : streamEntityId(event.streamId));
  return {
    name: def.name,
    version: def.version,
    collections: [def.collection],
    collection: def.collection,
    eventTypes: def.eventTypes,
    inline: def.inline === true,
    documentId,
    evolve: def.evolve,
    async apply(event, store) {
      const collection = store.collection<D>(def.collection);
      const id = documentId(event);
      const current = await collection.get(id);
      const next = evolveDocument(def.evolve, current, event, id);
      if (next === current) return;
      if (next === null) await collection.delete(id);
      else await collection.put(next);
    },
  };
}

/**
 * One step of a document projection, idempotent: an event whose revision the document already
 * reflects returns the document itself (unchanged); otherwise the next document with its id and
 * the event's revision, or null (deleted, or never made).
 */
export function evolveDocument<D extends StreamDoc>(
  evolve: (doc: D | null, event: RecordedEvent) => D | null,
  current: D | null,
  event: RecordedEvent,
  id: string,
): D | null {
  if (current && current.revision >= event.revision) return current;
  const next = evolve(current, event);
  return next === null ? null : { ...next, id, revision: event.revision };
}
