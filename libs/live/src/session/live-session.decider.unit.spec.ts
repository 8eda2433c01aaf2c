import { deciderSpec } from '@app/testing/support/decider-spec';

import { liveSessionDecider } from './live-session.decider';
import type { LiveSessionEvent } from './live-session.events';

const spec = deciderSpec(liveSessionDecider);
const now = new Date('2026-11-24T20:00:00.000Z');
const at = now.toISOString();
const terms = { sessionId: 'ls_1', title: 'Friday night breaks', currency: 'USD', scheduledAt: null, settlement: 'hold' as const, depositPercent: 20, paymentWindowHours: 48 };
const created: LiveSessionEvent = { type: 'live_session.created', data: { ...terms, createdAt: at } };
const started: LiveSessionEvent = { type: 'live_session.started', data: { sessionId: 'ls_1', startedAt: at } };
const lot = (lotId: string): LiveSessionEvent => ({ type: 'live_session.lot_added', data: { sessionId: 'ls_1', lotId, inventoryItemId: 'inv_1', addedAt: at } });
const ended = (lotIds: string[]): LiveSessionEvent => ({ type: 'live_session.ended', data: { sessionId: 'ls_1', endedAt: at, lotIds } });

describe('live session decider', () => {
  it('creates a session, scheduled; refuses a second one and a bad deposit', () => {
    spec.given([]).when({ type: 'CreateLiveSession', session: terms, now }).then([created]);
    spec.given([created]).when({ type: 'CreateLiveSession', session: terms, now }).thenThrows('CONFLICT');
    spec.given([]).when({ type: 'CreateLiveSession', session: { ...terms, depositPercent: 101 }, now }).thenThrows('VALIDATION_FAILED', 'depositPercent');
    spec.given([]).when({ type: 'CreateLiveSession', session: { ...terms, paymentWindowHours: 0 }, now }).thenThrows('VALIDATION_FAILED', 'paymentWindowHours');
  });

  it('goes scheduled → live → ended; repeats are no-ops; no way back', () => {
    spec.given([created]).when({ type: 'StartLiveSession', sessionId: 'ls_1', now }).then([started]);
    spec.given([created, started]).when({ type: 'StartLiveSession', sessionId: 'ls_1', now }).then([]);
    spec.given([created, started, lot('lot_1'), lot('lot_2')]).when({ type: 'EndLiveSession', sessionId: 'ls_1', now }).then([ended(['lot_1', 'lot_2'])]);
    spec.given([created, started, ended([])]).when({ type: 'EndLiveSession', sessionId: 'ls_1', now }).then([]);
    spec.given([created, started, ended([])]).when({ type: 'StartLiveSession', sessionId: 'ls_1', now }).thenThrows('INVALID_TRANSITION', 'has ended');
    spec.given([created]).when({ type: 'EndLiveSession', sessionId: 'ls_1', now }).thenThrows('INVALID_TRANSITION', 'has not started');
  });

  it('takes lots while scheduled or live, each once, none after it ended', () => {
    spec.given([created]).when({ type: 'AddLotToSession', sessionId: 'ls_1', lotId: 'lot_1', inventoryItemId: 'inv_1', now }).then([lot('lot_1')]);
    spec.given([created, started]).when({ type: 'AddLotToSession', sessionId: 'ls_1', lotId: 'lot_1', inventoryItemId: 'inv_1', now }).then([lot('lot_1')]);
    spec.given([created, lot('lot_1')]).when({ type: 'AddLotToSession', sessionId: 'ls_1', lotId: 'lot_1', inventoryItemId: 'inv_1', now }).then([]);
    spec.given([created, started, ended([])]).when({ type: 'AddLotToSession', sessionId: 'ls_1', lotId: 'lot_2', inventoryItemId: 'inv_1', now }).thenThrows('INVALID_TRANSITION');
  });

  it('answers NOT_FOUND for no session', () => {
    spec.given([]).when({ type: 'StartLiveSession', sessionId: 'ls_1', now }).thenThrows('NOT_FOUND');
  });
});
