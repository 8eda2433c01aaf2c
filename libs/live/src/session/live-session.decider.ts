// Live sessions: scheduled → live → ended. Lots are added while the session is scheduled or live
// (never after it ended); ending it names every lot, so a process manager closes those still open.
// Starting a live session or ending an ended one again is a no-op (the house rule). Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { LiveSessionCreated, LiveSessionEvent, LiveSessionStatus } from './live-session.events';

export interface CreateLiveSession {
  type: 'CreateLiveSession';
  session: Omit<LiveSessionCreated, 'createdAt'>;
  now: Date;
}
export interface StartLiveSession {
  type: 'StartLiveSession';
  sessionId: string;
  now: Date;
}
export interface EndLiveSession {
  type: 'EndLiveSession';
  sessionId: string;
  now: Date;
}
export interface AddLotToSession {
  type: 'AddLotToSession';
  sessionId: string;
  lotId: string;
  inventoryItemId: string;
  now: Date;
}

export type LiveSessionCommand = CreateLiveSession | StartLiveSession | EndLiveSession | AddLotToSession;

export interface LiveSession extends Omit<LiveSessionCreated, 'createdAt'> {
  status: LiveSessionStatus;
  lotIds: string[];
}

export type LiveSessionState = { status: 'none' } | { status: 'exists'; session: LiveSession };

export const liveSessionDecider: Decider<LiveSessionCommand, LiveSessionEvent, LiveSessionState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateLiveSession': {
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Live session ${command.session.sessionId} already exists`);
        const { depositPercent, paymentWindowHours } = command.session;
        if (!(Number.isInteger(depositPercent) && depositPercent >= 0 && depositPercent <= 100)) {
          throw DomainError.validation('Invalid live session: depositPercent must be 0–100', [{ path: 'depositPercent', message: 'must be an integer from 0 to 100' }]);
        }
        if (!(Number.isInteger(paymentWindowHours) && paymentWindowHours >= 1 && paymentWindowHours <= 720)) {
          throw DomainError.validation('Invalid live session: paymentWindowHours must be 1–720', [{ path: 'paymentWindowHours', message: 'must be an integer from 1 to 720' }]);
        }
        return [{ type: 'live_session.created', data: { ...command.session, createdAt: command.now.toISOString() } }];
      }
      case 'StartLiveSession': {
        const session = existing(state, command.sessionId);
        if (session.status === 'live') return [];
        if (session.status === 'ended') throw invalid(session, 'start it', 'it has ended');
        return [{ type: 'live_session.started', data: { sessionId: session.sessionId, startedAt: command.now.toISOString() } }];
      }
      case 'EndLiveSession': {
        const session = existing(state, command.sessionId);
        if (session.status === 'ended') return [];
        if (session.status === 'scheduled') throw invalid(session, 'end it', 'it has not started');
        return [{ type: 'live_session.ended', data: { sessionId: session.sessionId, endedAt: command.now.toISOString(), lotIds: [...session.lotIds] } }];
      }
      case 'AddLotToSession': {
        const session = existing(state, command.sessionId);
        if (session.lotIds.includes(command.lotId)) return [];
        if (session.status === 'ended') throw invalid(session, 'add a lot', 'it has ended');
        return [
          {
            type: 'live_session.lot_added',
            data: { sessionId: session.sessionId, lotId: command.lotId, inventoryItemId: command.inventoryItemId, addedAt: command.now.toISOString() },
          },
        ];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'live_session.created') {
      const { createdAt: _at, ...terms } = event.data;
      return { status: 'exists', session: { ...terms, status: 'scheduled', lotIds: [] } };
    }
    if (state.status === 'none') return state;
    const { session } = state;
    switch (event.type) {
      case 'live_session.started':
        return { status: 'exists', session: { ...session, status: 'live' } };
      case 'live_session.ended':
        return { status: 'exists', session: { ...session, status: 'ended' } };
      case 'live_session.lot_added':
        return { status: 'exists', session: { ...session, lotIds: [...session.lotIds, event.data.lotId] } };
      default:
        return state;
    }
  },
};

function existing(state: LiveSessionState, sessionId: string): LiveSession {
  if (state.status === 'none') throw new DomainError('NOT_FOUND', `No live session with id ${sessionId}`);
  return state.session;
}

function invalid(session: LiveSession, action: string, why: string): DomainError {
  return new DomainError('INVALID_TRANSITION', `Live session ${session.sessionId} is ${session.status}: cannot ${action} (${why})`, { status: session.status });
}
