// Read model of live sessions: one document per session, indexed for the list's status filter.
import { type CollectionSpec, documentProjection, type StreamDoc } from '@app/platform';

import { LIVE_SESSION_EVENT_TYPES, type LiveSessionStatus, parseLiveSessionEvent, type Settlement } from './live-session.events';

export interface LiveSessionDoc extends StreamDoc {
  workspaceId: string;
  status: LiveSessionStatus;
  title: string;
  currency: string;
  scheduledAt: string | null;
  settlement: Settlement;
  depositPercent: number;
  paymentWindowHours: number;
  lotCount: number;
  startedAt: string | null;
  endedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const LIVE_SESSIONS = {
  name: 'live_sessions',
  indexes: [
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_status_created', fields: [['workspaceId', 1], ['status', 1], ['createdAt', -1], ['id', -1]] },
  ],
} satisfies CollectionSpec;

export const liveSessionProjection = documentProjection<LiveSessionDoc>({
  name: 'live_sessions',
  version: 1,
  // The session routes' own read model: the write that changes a session brings it up to date.
  inline: true,
  collection: LIVE_SESSIONS,
  eventTypes: LIVE_SESSION_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseLiveSessionEvent(recorded);
    if (event.type === 'live_session.created') {
      const { sessionId, createdAt, ...terms } = event.data;
      return {
        id: sessionId,
        revision: recorded.revision,
        workspaceId: recorded.metadata.workspaceId,
        status: 'scheduled',
        ...terms,
        lotCount: 0,
        startedAt: null,
        endedAt: null,
        createdAt,
        updatedAt: createdAt,
      };
    }
    if (!doc) return doc;
    switch (event.type) {
      case 'live_session.started':
        return { ...doc, status: 'live', startedAt: event.data.startedAt, updatedAt: event.data.startedAt };
      case 'live_session.ended':
        return { ...doc, status: 'ended', endedAt: event.data.endedAt, updatedAt: event.data.endedAt };
      case 'live_session.lot_added':
        return { ...doc, lotCount: doc.lotCount + 1, updatedAt: event.data.addedAt };
      default:
        return doc;
    }
  },
});
