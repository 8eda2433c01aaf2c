// The workspace's public events, newest first, as a read model of the log: what `GET /events`
// lists and what a replay selects from. The envelope is kept as delivered; a stored event standing
// for several public events (the catalogue's fan-out) is one document each, at its position.
import { type Doc, type PublicEvent, type PublicEventCatalogue, view, type ViewProjection, viewProjection } from '@app/platform';

export interface PublicEventDoc extends Doc {
  workspaceId: string;
  type: string;
  createdAt: string;
  position: number;
  envelope: PublicEvent;
}

export const PUBLIC_EVENTS = {
  name: 'public_events',
  indexes: [
    // Log order within a millisecond: position, not the (partly random) id; the public events of
    // one stored event (its position) in their order: their ids begin with it (fannedOutEventId).
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['position', -1], ['id', -1]] },
    { name: 'by_ws_type_created', fields: [['workspaceId', 1], ['type', 1], ['createdAt', -1], ['position', -1], ['id', -1]] },
  ],
} as const;

/** The projection of the public events of `catalogue` (the composed one). */
export function publicEventProjection(catalogue: PublicEventCatalogue): ViewProjection {
  return viewProjection({
    name: 'public_events',
    version: 1,
    collections: [PUBLIC_EVENTS],
    eventTypes: catalogue.storedTypes(),
    *evolve(event) {
      // Keyed by the public event's id: applying it again writes the same document.
      for (const envelope of catalogue.envelopes(event)) {
        yield* view.put<PublicEventDoc>(PUBLIC_EVENTS, {
          id: envelope.id,
          workspaceId: envelope.workspace_id,
          type: envelope.type,
          createdAt: envelope.created_at,
          position: event.position,
          envelope,
        });
      }
    },
  });
}
