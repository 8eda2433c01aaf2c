// The public events of live sessions: what each means, its `data` fields (snake_case) and how a
// stored event becomes that data.
import { eventField as f, type PublicEventType } from '@app/platform';

import { liveSessionEnded, liveSessionStarted } from './live-session.events';

const live_session_id = f('string', 'Live selling session id (`ls_…`).');

export const LIVE_SESSION_PUBLIC_EVENTS: readonly PublicEventType[] = [
  {
    type: 'live_session.started',
    description: 'A live selling session started: its lots can be opened and reserved on.',
    data: { live_session_id, status: f('string', 'The session\'s status after this event (`live`).'), started_at: f('string', 'ISO 8601 UTC.') },
    toData(event) {
      const d = liveSessionStarted.parse(event.data);
      return { live_session_id: d.sessionId, status: 'live', started_at: d.startedAt };
    },
  },
  {
    type: 'live_session.ended',
    description: 'A live selling session ended: its open lots closed, their winners are being settled.',
    data: {
      live_session_id,
      status: f('string', 'The session\'s status after this event (`ended`).'),
      ended_at: f('string', 'ISO 8601 UTC.'),
      lot_ids: f('array', 'Every lot of the session (`lot_…`).'),
    },
    toData(event) {
      const d = liveSessionEnded.parse(event.data);
      return { live_session_id: d.sessionId, status: 'ended', ended_at: d.endedAt, lot_ids: d.lotIds };
    },
  },
];
