// The sessions' read model, given/when/then: given a session's events, then its document (status,
// lot count, when it started and ended). Applying an event twice is applying it once.
import { evolveDocument, type RecordedEvent } from '@app/platform';

import type { LiveSessionEvent } from './live-session.events';
import { type LiveSessionDoc, liveSessionProjection } from './live-session.projection';

const WS = 'ws_1';
const at = '2026-11-24T20:00:00.000Z';
const later = '2026-11-24T22:00:00.000Z';
const terms = { sessionId: 'ls_1', title: 'Friday night breaks', currency: 'USD', scheduledAt: null, settlement: 'hold' as const, depositPercent: 20, paymentWindowHours: 48 };
const created: LiveSessionEvent = { type: 'live_session.created', data: { ...terms, createdAt: at } };
const started: LiveSessionEvent = { type: 'live_session.started', data: { sessionId: 'ls_1', startedAt: at } };
const lot = (lotId: string): LiveSessionEvent => ({ type: 'live_session.lot_added', data: { sessionId: 'ls_1', lotId, inventoryItemId: 'inv_1', addedAt: later } });
const ended: LiveSessionEvent = { type: 'live_session.ended', data: { sessionId: 'ls_1', endedAt: later, lotIds: ['lot_1', 'lot_2'] } };

const recorded = (events: LiveSessionEvent[]): RecordedEvent[] =>
  events.map((e, revision) => ({
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    type: e.type,
    data: e.data,
    metadata: { workspaceId: WS, schemaVersion: 1 },
    streamId: 'live_session-ls_1',
    revision,
    position: 10 + revision,
    createdAt: at,
  }));

function project(events: readonly RecordedEvent[], start: LiveSessionDoc | null = null): LiveSessionDoc | null {
  return events.reduce((doc, event) => evolveDocument(liveSessionProjection.evolve, doc, event, liveSessionProjection.documentId(event)), start);
}

describe('live sessions read model (evolve)', () => {
  it('is the session routes\' own read model, applied by the write', () => {
    expect(liveSessionProjection.inline).toBe(true);
  });

  it('given a session created, then its document: scheduled, its terms, no lot', () => {
    expect(project(recorded([created]))).toEqual({
      id: 'ls_1',
      revision: 0,
      workspaceId: WS,
      status: 'scheduled',
      title: terms.title,
      currency: 'USD',
      scheduledAt: null,
      settlement: 'hold',
      depositPercent: 20,
      paymentWindowHours: 48,
      lotCount: 0,
      startedAt: null,
      endedAt: null,
      createdAt: at,
      updatedAt: at,
    });
  });

  it('given it started, took two lots and ended, then ended with its lot count and times', () => {
    expect(project(recorded([created, started, lot('lot_1'), lot('lot_2'), ended]))).toMatchObject({
      revision: 4,
      status: 'ended',
      lotCount: 2,
      startedAt: at,
      endedAt: later,
      updatedAt: later,
    });
  });

  it('an event without the session\'s creation makes no document', () => {
    expect(project(recorded([started]))).toBeNull();
  });

  it('applying an event twice is applying it once', () => {
    const events = recorded([created, lot('lot_1')]);
    const once = project(events);
    expect(project(events, once)).toBe(once);
    expect(once?.lotCount).toBe(1);
  });
});
