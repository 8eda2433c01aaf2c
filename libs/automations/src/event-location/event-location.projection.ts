// Where each public event is in the log, by its public id: what `POST /automations/:id/test
// {eventId}` reads the event back with (the log has no look-up by id). Small: id, workspace, position.
// A stored event standing for several public events (the catalogue's fan-out) is one document
// each, all at its position.
import { type CollectionSpec, publicEventId, type PublicEventCatalogue, type StreamDoc, view, type ViewProjection, viewProjection } from '@app/platform';

export interface EventLocationDoc extends StreamDoc {
  workspaceId: string;
  position: number;
}

export const EVENT_LOCATIONS = { name: 'automation_event_locations', indexes: [] } satisfies CollectionSpec;

/** The projection of where the public events of `catalogue` (the composed one) are. */
export function eventLocationProjection(catalogue: Pick<PublicEventCatalogue, 'storedTypes' | 'publicEvents'>): ViewProjection {
  return viewProjection({
    name: 'automation_event_locations',
    version: 1,
    collections: [EVENT_LOCATIONS],
    eventTypes: catalogue.storedTypes(),
    *evolve(event) {
      // Keyed by the public id: applying it again writes the same document.
      for (const published of catalogue.publicEvents(event)) {
        yield* view.put<EventLocationDoc>(EVENT_LOCATIONS, {
          id: publicEventId(published.eventId),
          revision: event.revision,
          workspaceId: event.metadata.workspaceId,
          position: event.position,
        });
      }
    },
  });
}
