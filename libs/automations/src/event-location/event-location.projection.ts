// Where each public event is in the log, by its public id: what `POST /automations/:id/test
// {eventId}` reads the event back with (the log has no look-up by id). Small: id, workspace, position.
import { type CollectionSpec, publicEventId, type StreamDoc, view, type ViewProjection, viewProjection } from '@app/platform';

export interface EventLocationDoc extends StreamDoc {
  workspaceId: string;
  position: number;
}

export const EVENT_LOCATIONS = { name: 'automation_event_locations', indexes: [] } satisfies CollectionSpec;

/** The projection of where the events of `types` (the public ones) are. */
export function eventLocationProjection(types: readonly string[]): ViewProjection {
  return viewProjection({
    name: 'automation_event_locations',
    version: 1,
    collections: [EVENT_LOCATIONS],
    eventTypes: types,
    *evolve(event) {
      // Keyed by the event's public id: applying it again writes the same document.
      yield* view.put<EventLocationDoc>(EVENT_LOCATIONS, {
        id: publicEventId(event.id),
        revision: event.revision,
        workspaceId: event.metadata.workspaceId,
        position: event.position,
      });
    },
  });
}
