import { fold } from '@app/platform/domain';
import { deciderSpec } from '@app/testing/support/decider-spec';

import { TRADE_MOVES, tradeDecider } from './trade.decider';
import { TRADE_STATUSES, type TradeEvent, type TradeInitiated, type TradeStatus, type TradeStatusChanged } from './trade.events';

const spec = deciderSpec(tradeDecider);
const now = new Date('2026-11-24T12:00:00.000Z');
const at = now.toISOString();
const DAY = 24 * 3600 * 1000;

const terms: Omit<TradeInitiated, 'initiatedAt'> = {
  tradeId: 'trd_1',
  inventoryItemId: 'inv_1',
  buyerRequestId: 'br_1',
  matchId: 'mt_1',
  offerId: null,
  holdId: null,
  reservationId: 'trd_1',
  quantity: 1,
  amountMinor: 42500,
  currency: 'USD',
  depositMinor: 0,
};
const initiated: TradeEvent = { type: 'trade.initiated', data: { ...terms, initiatedAt: at } };

function changed(from: TradeStatus, to: TradeStatus, extra: Partial<TradeStatusChanged> = {}): TradeEvent {
  return {
    type: 'trade.status_changed',
    data: {
      tradeId: 'trd_1',
      from,
      to,
      reason: null,
      reference: null,
      carrier: null,
      trackingNumber: null,
      refundDue: false,
      resolution: null,
      by: 'client',
      at,
      ...extra,
    },
  };
}

/** The events that bring a trade to `status` by the shortest legal path. */
const PATHS: Record<TradeStatus, TradeStatus[]> = {
  initiated: [],
  paid: ['paid'],
  shipped: ['paid', 'shipped'],
  delivered: ['paid', 'shipped', 'delivered'],
  disputed: ['paid', 'shipped', 'disputed'],
  completed: ['paid', 'shipped', 'delivered', 'completed'],
  settled: ['paid', 'shipped', 'delivered', 'completed', 'settled'],
  cancelled: ['cancelled'],
};
function history(status: TradeStatus): TradeEvent[] {
  let from: TradeStatus = 'initiated';
  return [
    initiated,
    ...PATHS[status].map((to) => {
      const event = changed(from, to);
      from = to;
      return event;
    }),
  ];
}

const facts = (status: TradeStatus) => ({ tradeId: 'trd_1', offerId: null, amountMinor: 42500, currency: 'USD', status, at });

describe('trade decider', () => {
  it('initiates a trade with its terms', () => {
    spec.given([]).when({ type: 'InitiateTrade', trade: terms, now }).then([initiated]);
  });

  it('refuses a second initiation and bad terms', () => {
    spec.given([initiated]).when({ type: 'InitiateTrade', trade: terms, now }).thenThrows('CONFLICT');
    spec.given([]).when({ type: 'InitiateTrade', trade: { ...terms, quantity: 0 }, now }).thenThrows('VALIDATION_FAILED', 'quantity');
    spec.given([]).when({ type: 'InitiateTrade', trade: { ...terms, depositMinor: 50000 }, now }).thenThrows('VALIDATION_FAILED', 'depositAmount');
  });

  it('answers NOT_FOUND for a move on no trade', () => {
    spec.given([]).when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'paid', now }).thenThrows('NOT_FOUND');
  });

  describe('every move from every status', () => {
    const cases = TRADE_STATUSES.flatMap((from) => TRADE_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const));
    it.each(cases)('%s → %s', (from, to) => {
      const when = spec.given(history(from)).when({ type: 'MoveTrade', tradeId: 'trd_1', to, reason: 'because', now });
      if (!TRADE_MOVES[from].includes(to)) {
        when.thenThrows('INVALID_TRANSITION', `from ${from} to ${to}`);
        return;
      }
      const expected: TradeEvent[] = [];
      if (to === 'paid' || to === 'shipped' || to === 'completed' || to === 'cancelled') expected.push({ type: `trade.${to}`, data: facts(to) });
      expected.push(
        changed(from, to, {
          reason: 'because',
          refundDue: to === 'cancelled' && (from === 'paid' || from === 'disputed'),
          resolution: from === 'disputed' ? (to === 'cancelled' ? 'refund' : 'release') : null,
          ...(to === 'cancelled' ? { cancelledBy: null } : {}),
        }),
      );
      when.then(expected);
    });
  });

  it('names the allowed moves in an illegal move\'s error', () => {
    try {
      tradeDecider.decide({ type: 'MoveTrade', tradeId: 'trd_1', to: 'shipped', now }, { status: 'exists', trade: { ...terms, status: 'initiated', deliveredAt: null, lastMove: null } });
      throw new Error('no error');
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'initiated', to: 'shipped', allowed: ['paid', 'cancelled'] } });
    }
  });

  it('repeats a move that took effect as a no-op', () => {
    for (const status of TRADE_STATUSES.filter((s) => s !== 'initiated')) {
      spec.given(history(status)).when({ type: 'MoveTrade', tradeId: 'trd_1', to: status, now }).then([]);
    }
  });

  it('refuses a repeat that says otherwise than the move it repeats (409 naming the field); saying the same or less is the no-op', () => {
    const paid = [initiated, changed('initiated', 'paid', { reference: 'pi_1' })];
    spec.given(paid).when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'paid', reference: 'pi_1', now }).then([]);
    spec.given(paid).when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'paid', now }).then([]);
    spec.given(paid).when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'paid', reference: 'pi_2', now }).thenThrows('CONFLICT', 'reference "pi_1"');
    expect(() => tradeDecider.decide({ type: 'MoveTrade', tradeId: 'trd_1', to: 'paid', reference: 'pi_2', now }, fold(tradeDecider, paid))).toThrow(
      expect.objectContaining({ details: { status: 'paid', field: 'reference', recorded: 'pi_1', given: 'pi_2' } }),
    );
  });

  it('keeps what comes with a move: payment reference, carrier and tracking number', () => {
    spec
      .given(history('paid'))
      .when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'shipped', carrier: 'USPS', trackingNumber: '9400 1000', reference: null, now })
      .then([{ type: 'trade.shipped', data: facts('shipped') }, changed('paid', 'shipped', { carrier: 'USPS', trackingNumber: '9400 1000' })]);
  });

  it('records who caused a cancel, and takes cancelledBy with a cancel only', () => {
    spec
      .given(history('paid'))
      .when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'cancelled', cancelledBy: 'buyer', now })
      .then([{ type: 'trade.cancelled', data: facts('cancelled') }, changed('paid', 'cancelled', { refundDue: true, cancelledBy: 'buyer' })]);
    spec.given(history('paid')).when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'shipped', cancelledBy: 'seller', now }).thenThrows('VALIDATION_FAILED', 'cancelledBy');
  });

  it('needs a reason to open a dispute', () => {
    spec.given(history('shipped')).when({ type: 'MoveTrade', tradeId: 'trd_1', to: 'disputed', now }).thenThrows('VALIDATION_FAILED', 'reason');
  });

  describe('the dispute window', () => {
    const delivered = history('delivered');
    const window = 3 * DAY;
    it('completes a delivered trade once the window has passed, as the timer', () => {
      spec
        .given(delivered)
        .when({ type: 'CompleteAfterDisputeWindow', tradeId: 'trd_1', disputeWindowMs: window, now: new Date(now.getTime() + window) })
        .then([
          { type: 'trade.completed', data: { ...facts('completed'), at: new Date(now.getTime() + window).toISOString() } },
          changed('delivered', 'completed', { by: 'timer', reason: 'the dispute window passed without a dispute', at: new Date(now.getTime() + window).toISOString() }),
        ]);
    });
    it('does nothing before the window has passed, nor on a trade that moved on', () => {
      spec.given(delivered).when({ type: 'CompleteAfterDisputeWindow', tradeId: 'trd_1', disputeWindowMs: window, now: new Date(now.getTime() + window - 1) }).then([]);
      for (const status of ['disputed', 'completed', 'settled'] as const) {
        spec.given(history(status)).when({ type: 'CompleteAfterDisputeWindow', tradeId: 'trd_1', disputeWindowMs: 0, now }).then([]);
      }
      spec.given([]).when({ type: 'CompleteAfterDisputeWindow', tradeId: 'trd_1', disputeWindowMs: 0, now }).then([]);
    });
  });
});
