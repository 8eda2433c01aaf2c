// Trades: the escrow-like lifecycle. initiated → paid → shipped → delivered → completed → settled
// (the seller's money is released only at settled, and only from completed: after the buyer
// confirmed delivery, a dispute was resolved for the seller, or the dispute window passed);
// cancelled from initiated or paid (a paid cancel owes a refund); disputed from shipped or
// delivered, resolved by a refund (→ cancelled) or a release (→ completed). Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import {
  type CancelParty,
  NAMED_MOVES,
  type TradeEvent,
  type TradeInitiated,
  type TradeStatus,
  type TradeStatusChanged,
} from './trade.events';

/** The moves each status allows. `settled` and `cancelled` are final. */
export const TRADE_MOVES: Readonly<Record<TradeStatus, readonly TradeStatus[]>> = {
  initiated: ['paid', 'cancelled'],
  paid: ['shipped', 'cancelled'],
  shipped: ['delivered', 'disputed'],
  delivered: ['completed', 'disputed'],
  disputed: ['completed', 'cancelled'],
  completed: ['settled'],
  settled: [],
  cancelled: [],
};

export function allowedMoves(status: TradeStatus): TradeStatus[] {
  return [...TRADE_MOVES[status]];
}

export interface InitiateTrade {
  type: 'InitiateTrade';
  trade: Omit<TradeInitiated, 'initiatedAt'>;
  now: Date;
}

export interface MoveTrade {
  type: 'MoveTrade';
  tradeId: string;
  to: TradeStatus;
  reason?: string | null;
  reference?: string | null;
  carrier?: string | null;
  trackingNumber?: string | null;
  /** With `cancelled`: who caused it (unstated when absent). */
  cancelledBy?: CancelParty | null;
  now: Date;
}

/** The durable timer's command: completes a delivered trade once the dispute window has passed. */
export interface CompleteAfterDisputeWindow {
  type: 'CompleteAfterDisputeWindow';
  tradeId: string;
  disputeWindowMs: number;
  now: Date;
}

export type TradeCommand = InitiateTrade | MoveTrade | CompleteAfterDisputeWindow;

/** The trade as its stream folds (the workspace is the stream's: another one's reads as none). */
export interface Trade {
  tradeId: string;
  status: TradeStatus;
  inventoryItemId: string;
  buyerRequestId: string | null;
  matchId: string | null;
  offerId: string | null;
  holdId: string | null;
  reservationId: string;
  quantity: number;
  amountMinor: number;
  currency: string;
  depositMinor: number;
  deliveredAt: string | null;
  /** What the move into the current status said (null for `initiated`): a repeat must say the same. */
  lastMove: MoveSaid | null;
}

/** What a move says beside its status: a repeat of the move that says otherwise is a conflict. */
export interface MoveSaid {
  reason: string | null;
  reference: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  cancelledBy: CancelParty | null;
}

const SAID_FIELDS = ['reason', 'reference', 'carrier', 'trackingNumber', 'cancelledBy'] as const;

export type TradeState = { status: 'none' } | { status: 'exists'; trade: Trade };

export const tradeDecider: Decider<TradeCommand, TradeEvent, TradeState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'InitiateTrade': {
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Trade ${command.trade.tradeId} already exists`);
        validateTerms(command.trade);
        return [{ type: 'trade.initiated', data: { ...command.trade, initiatedAt: command.now.toISOString() } }];
      }
      case 'MoveTrade': {
        const trade = existing(state, command.tradeId);
        // Repeating a move that took effect is a no-op (the house rule for repeated actions), as
        // long as it says what the move said: another payment reference is not the same move.
        if (trade.status === command.to) {
          assertSameMove(trade, command);
          return [];
        }
        assertMove(trade, command.to);
        if (command.to === 'disputed' && !command.reason?.trim()) {
          throw DomainError.validation('A dispute needs a reason', [{ path: 'reason', message: 'required to open a dispute' }]);
        }
        if (command.cancelledBy && command.to !== 'cancelled') {
          throw DomainError.validation('cancelledBy goes only with a cancel', [{ path: 'cancelledBy', message: 'only with `to: cancelled`' }]);
        }
        return move(trade, command.to, {
          reason: command.reason ?? null,
          reference: command.reference ?? null,
          carrier: command.carrier ?? null,
          trackingNumber: command.trackingNumber ?? null,
          cancelledBy: command.cancelledBy ?? null,
          by: 'client',
          at: command.now,
        });
      }
      case 'CompleteAfterDisputeWindow': {
        if (state.status === 'none') return [];
        const { trade } = state;
        // Anything but a delivered trade past its window: the timer has nothing to do.
        if (trade.status !== 'delivered' || trade.deliveredAt === null) return [];
        if (command.now.getTime() < Date.parse(trade.deliveredAt) + command.disputeWindowMs) return [];
        return move(trade, 'completed', {
          reason: 'the dispute window passed without a dispute',
          reference: null,
          carrier: null,
          trackingNumber: null,
          cancelledBy: null,
          by: 'timer',
          at: command.now,
        });
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'trade.initiated': {
        const { initiatedAt: _at, ...terms } = event.data;
        return { status: 'exists', trade: { ...terms, status: 'initiated', deliveredAt: null, lastMove: null } };
      }
      case 'trade.status_changed':
        if (state.status === 'none') return state;
        return {
          status: 'exists',
          trade: {
            ...state.trade,
            status: event.data.to,
            deliveredAt: event.data.to === 'delivered' ? event.data.at : state.trade.deliveredAt,
            lastMove: {
              reason: event.data.reason,
              reference: event.data.reference,
              carrier: event.data.carrier,
              trackingNumber: event.data.trackingNumber,
              cancelledBy: event.data.cancelledBy ?? null,
            },
          },
        };
      default:
        return state;
    }
  },
};

interface MoveDetails {
  reason: string | null;
  reference: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  cancelledBy: CancelParty | null;
  by: TradeStatusChanged['by'];
  at: Date;
}

function move(trade: Trade, to: TradeStatus, details: MoveDetails): TradeEvent[] {
  const at = details.at.toISOString();
  const changed: TradeStatusChanged = {
    tradeId: trade.tradeId,
    from: trade.status,
    to,
    reason: details.reason,
    reference: details.reference,
    carrier: details.carrier,
    trackingNumber: details.trackingNumber,
    refundDue: to === 'cancelled' && (trade.status === 'paid' || trade.status === 'disputed'),
    resolution: trade.status === 'disputed' ? (to === 'cancelled' ? 'refund' : 'release') : null,
    ...(to === 'cancelled' ? { cancelledBy: details.cancelledBy } : {}),
    by: details.by,
    at,
  };
  const events: TradeEvent[] = [];
  if (to in NAMED_MOVES) {
    const type = NAMED_MOVES[to as keyof typeof NAMED_MOVES];
    events.push({ type, data: { tradeId: trade.tradeId, offerId: trade.offerId, amountMinor: trade.amountMinor, currency: trade.currency, status: to, at } });
  }
  events.push({ type: 'trade.status_changed', data: changed });
  return events;
}

/** A repeated move that names a detail (a reference, a carrier…) other than the one recorded: 409, naming it. */
function assertSameMove(trade: Trade, command: MoveTrade): void {
  const said = trade.lastMove;
  if (said === null) return;
  for (const field of SAID_FIELDS) {
    const given = command[field];
    if (given === undefined || given === said[field]) continue;
    throw new DomainError(
      'CONFLICT',
      `Trade ${trade.tradeId} is ${trade.status} already, with ${field} ${JSON.stringify(said[field])}; this move names ${JSON.stringify(given)}`,
      { status: trade.status, field, recorded: said[field], given },
    );
  }
}

function existing(state: TradeState, tradeId: string): Trade {
  if (state.status === 'none') throw new DomainError('NOT_FOUND', `No trade with id ${tradeId}`);
  return state.trade;
}

function assertMove(trade: Trade, to: TradeStatus): void {
  const allowed = TRADE_MOVES[trade.status];
  if (allowed.includes(to)) return;
  throw new DomainError(
    'INVALID_TRANSITION',
    `Trade ${trade.tradeId} cannot go from ${trade.status} to ${to}` +
      (allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ` (${trade.status} is final)`),
    { from: trade.status, to, allowed: [...allowed] },
  );
}

function validateTerms(terms: InitiateTrade['trade']): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!(Number.isInteger(terms.quantity) && terms.quantity >= 1)) issues.push({ path: 'quantity', message: 'must be an integer of at least 1' });
  if (!(Number.isInteger(terms.amountMinor) && terms.amountMinor >= 0)) issues.push({ path: 'amount', message: 'must not be negative' });
  if (!(Number.isInteger(terms.depositMinor) && terms.depositMinor >= 0 && terms.depositMinor <= terms.amountMinor)) {
    issues.push({ path: 'depositAmount', message: 'must be between 0 and the trade amount' });
  }
  if (issues.length > 0) throw DomainError.validation(`Invalid trade: ${issues[0].path} ${issues[0].message}`, issues);
}
