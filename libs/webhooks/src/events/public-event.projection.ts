// The workspace's public events, newest first, as a read model of the log: what `GET /events`
// lists (and, later, what a replay selects from). The envelope is kept as delivered.
import type { Doc, Projection } from '@app/platform';

import { EVENT_CATALOGUE } from './event-catalogue';
import { type PublicEvent, toPublicEvent } from './public-event';

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
    // Log order within a millisecond: position, not the (partly random) id.
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['position', -1], ['id', -1]] },
    { name: 'by_ws_type_created', fields: [['workspaceId', 1], ['type', 1], ['createdAt', -1], ['position', -1], ['id', -1]] },
  ],
} as const;

export const publicEventProjection: Projection = {
  name: 'public_events',
  version: 1,
  collections: [PUBLIC_EVENTS],
  eventTypes: EVENT_CATALOGUE.map((e) => e.type),
  async apply(event, store) {
    const envelope = toPublicEvent(event);
    if (!envelope) return;
    // Keyed by the event id: applying it again writes the same document.
    await store.collection<PublicEventDoc>(PUBLIC_EVENTS).put({
      id: envelope.id,
      workspaceId: envelope.workspace_id,
      type: envelope.type,
      createdAt: envelope.created_at,
      position: event.position,
      envelope,
    });
  },
};
