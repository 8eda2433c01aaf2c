import { deciderSpec } from '@app/testing/support/decider-spec';
import { fold } from '@app/platform/domain';

import { bestOf, lotDecider, minimumOf, type PlaceReserve, winnersOf } from './lot.decider';
import type { LotEvent, ReservePlaced } from './lot.events';

const spec = deciderSpec(lotDecider);
const now = new Date('2026-11-24T20:00:00.000Z');
const at = now.toISOString();
const auction = { lotId: 'lot_1', sessionId: 'ls_1', inventoryItemId: 'inv_1', cardName: 'Charizard', setName: 'Base Set', quantity: 1, startingPriceMinor: 10000, incrementMinor: 500, currency: 'USD' };
const claim = { ...auction, quantity: 2, incrementMinor: null };
const added = (terms: typeof auction | typeof claim): LotEvent => ({ type: 'lot.added', data: { ...terms, addedAt: at } });
const opened: LotEvent = { type: 'lot.opened', data: { lotId: 'lot_1', sessionId: 'ls_1', openedAt: at } };
const reserve = (reserveId: string, amountMinor: number): PlaceReserve => ({
  type: 'PlaceReserve',
  lotId: 'lot_1',
  reserveId,
  amountMinor,
  buyerSealed: `sb1.${reserveId}`,
  buyerRequestId: null,
  sessionLive: true,
  now,
});
const placed = (reserveId: string, amountMinor: number, sequence: number, standing: ReservePlaced['standing'], quantity: number): LotEvent => ({
  type: 'reserve.placed',
  data: { reserveId, lotId: 'lot_1', sessionId: 'ls_1', amountMinor, currency: 'USD', buyerSealed: `sb1.${reserveId}`, buyerRequestId: null, sequence, standing, quantity, placedAt: at },
});

describe('lot decider', () => {
  it('adds a lot; refuses a second one and bad terms', () => {
    spec.given([]).when({ type: 'AddLot', lot: auction, now }).then([added(auction)]);
    spec.given([added(auction)]).when({ type: 'AddLot', lot: auction, now }).thenThrows('CONFLICT');
    spec.given([]).when({ type: 'AddLot', lot: { ...auction, quantity: 0 }, now }).thenThrows('VALIDATION_FAILED', 'quantity');
    spec.given([]).when({ type: 'AddLot', lot: { ...auction, incrementMinor: 0 }, now }).thenThrows('VALIDATION_FAILED', 'increment');
  });

  it('opens only while the session is live; once; never after closing', () => {
    spec.given([added(auction)]).when({ type: 'OpenLot', lotId: 'lot_1', sessionLive: true, now }).then([opened]);
    spec.given([added(auction)]).when({ type: 'OpenLot', lotId: 'lot_1', sessionLive: false, now }).thenThrows('INVALID_TRANSITION', 'session is live');
    spec.given([added(auction), opened]).when({ type: 'OpenLot', lotId: 'lot_1', sessionLive: true, now }).then([]);
    const closed: LotEvent = { type: 'lot.closed', data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [], unsold: 1, closedAt: at } };
    spec.given([added(auction), opened, closed]).when({ type: 'OpenLot', lotId: 'lot_1', sessionLive: true, now }).thenThrows('INVALID_TRANSITION', 'closed');
  });

  describe('an auction', () => {
    const first = placed('rsv_a', 10000, 1, 'leading', 1);
    it('takes a first reserve at the starting price, then only those beating the best by the increment', () => {
      spec.given([added(auction), opened]).when(reserve('rsv_a', 10000)).then([first]);
      spec.given([added(auction), opened]).when(reserve('rsv_a', 9999)).thenThrows('RESERVE_TOO_LOW', 'at least 100.00 USD');
      spec.given([added(auction), opened, first]).when(reserve('rsv_b', 10499)).thenThrows('RESERVE_TOO_LOW', 'at least 105.00 USD');
      spec.given([added(auction), opened, first]).when(reserve('rsv_b', 10500)).then([placed('rsv_b', 10500, 2, 'leading', 1)]);
    });

    it('names the best and the minimum in a refusal', () => {
      const state = fold(lotDecider, [added(auction), opened, first]);
      expect(() => lotDecider.decide(reserve('rsv_b', 10000), state)).toThrow(expect.objectContaining({ code: 'RESERVE_TOO_LOW', details: { best: { reserveId: 'rsv_a', amount: 100 }, minimumAmount: 105, currency: 'USD' } }));
    });

    it('makes the newest leader the only one, and closes with it as the winner of the whole lot', () => {
      const state = fold(lotDecider, [added(auction), opened, first, placed('rsv_b', 10500, 2, 'leading', 1)]);
      expect(state.status === 'exists' && state.lot.leader).toEqual({ reserveId: 'rsv_b', amountMinor: 10500, quantity: 1, buyerSealed: 'sb1.rsv_b', buyerRequestId: null });
      expect(state.status === 'exists' && [bestOf(state.lot), minimumOf(state.lot)]).toEqual([{ reserveId: 'rsv_b', amountMinor: 10500 }, 11000]);
      spec
        .given([added(auction), opened, first, placed('rsv_b', 10500, 2, 'leading', 1)])
        .when({ type: 'CloseLot', lotId: 'lot_1', now })
        .then([{ type: 'lot.closed', data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [{ reserveId: 'rsv_b', amountMinor: 10500, quantity: 1 }], unsold: 0, closedAt: at } }]);
    });
  });

  describe('a claim sale', () => {
    it('gives a unit to each claim at or above the starting price while units last, then waitlists in order', () => {
      const events = [added(claim), opened, placed('rsv_a', 10000, 1, 'won', 1), placed('rsv_b', 12000, 2, 'won', 1)];
      spec.given([added(claim), opened]).when(reserve('rsv_a', 10000)).then([placed('rsv_a', 10000, 1, 'won', 1)]);
      spec.given(events).when(reserve('rsv_c', 10000)).then([placed('rsv_c', 10000, 3, 'waitlisted', 0)]);
      spec.given([added(claim), opened]).when(reserve('rsv_a', 9000)).thenThrows('RESERVE_TOO_LOW', 'at least 100.00 USD');
      spec
        .given([...events, placed('rsv_c', 10000, 3, 'waitlisted', 0)])
        .when({ type: 'CloseLot', lotId: 'lot_1', now })
        .then([
          {
            type: 'lot.closed',
            data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [{ reserveId: 'rsv_a', amountMinor: 10000, quantity: 1 }, { reserveId: 'rsv_b', amountMinor: 12000, quantity: 1 }], unsold: 0, closedAt: at },
          },
        ]);
    });

    it('keeps who each winner is (its sealed buyer, its buyer request) for the settlement, out of lot.closed', () => {
      const state = fold(lotDecider, [added(claim), opened, placed('rsv_a', 10000, 1, 'won', 1), placed('rsv_b', 12000, 2, 'won', 1), placed('rsv_c', 10000, 3, 'waitlisted', 0)]);
      expect(state.status === 'exists' && winnersOf(state.lot).map((w) => [w.reserveId, w.buyerSealed, w.buyerRequestId])).toEqual([
        ['rsv_a', 'sb1.rsv_a', null],
        ['rsv_b', 'sb1.rsv_b', null],
      ]);
    });

    it('closes with the unsold units counted', () => {
      spec
        .given([added(claim), opened, placed('rsv_a', 10000, 1, 'won', 1)])
        .when({ type: 'CloseLot', lotId: 'lot_1', now })
        .then([{ type: 'lot.closed', data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [{ reserveId: 'rsv_a', amountMinor: 10000, quantity: 1 }], unsold: 1, closedAt: at } }]);
    });
  });

  it('takes reserves only while open and the session live', () => {
    spec.given([added(auction)]).when(reserve('rsv_a', 10000)).thenThrows('INVALID_TRANSITION', 'open');
    spec.given([added(auction), opened]).when({ ...reserve('rsv_a', 10000), sessionLive: false }).thenThrows('INVALID_TRANSITION');
    const closed: LotEvent = { type: 'lot.closed', data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [], unsold: 1, closedAt: at } };
    spec.given([added(auction), opened, closed]).when(reserve('rsv_a', 10000)).thenThrows('INVALID_TRANSITION', 'open');
  });

  it('keeps a small state whatever the number of reserves: 5,000 bids fold to one leader', () => {
    const bids = Array.from({ length: 5000 }, (_, i) => placed(`rsv_${i}`, 10000 + 500 * i, i + 1, 'leading', 1));
    const state = fold(lotDecider, [added(auction), opened, ...bids]);
    expect(state.status === 'exists' && [state.lot.placed, state.lot.leader?.reserveId, state.lot.claims.length, minimumOf(state.lot)]).toEqual([5000, 'rsv_4999', 0, 10000 + 500 * 5000]);
  });

  it('is settled once, only after closing, with what each winner got', () => {
    const closed: LotEvent = { type: 'lot.closed', data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [{ reserveId: 'rsv_a', amountMinor: 10000, quantity: 1 }], unsold: 0, closedAt: at } };
    const awards = [{ reserveId: 'rsv_a', holdId: 'hld_a', tradeId: null }];
    const settled: LotEvent = { type: 'lot.settled', data: { lotId: 'lot_1', sessionId: 'ls_1', awards, settledAt: at } };
    const history = [added(auction), opened, placed('rsv_a', 10000, 1, 'leading', 1)];
    spec.given(history).when({ type: 'SettleLot', lotId: 'lot_1', awards, now }).thenThrows('INVALID_TRANSITION', 'open');
    spec.given([...history, closed]).when({ type: 'SettleLot', lotId: 'lot_1', awards, now }).then([settled]);
    spec.given([...history, closed, settled]).when({ type: 'SettleLot', lotId: 'lot_1', awards, now }).then([]);
  });

  it('closes once; NOT_FOUND for no lot', () => {
    const closed: LotEvent = { type: 'lot.closed', data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [], unsold: 1, closedAt: at } };
    spec.given([added(auction), opened, closed]).when({ type: 'CloseLot', lotId: 'lot_1', now }).then([]);
    spec.given([]).when({ type: 'CloseLot', lotId: 'lot_1', now }).thenThrows('NOT_FOUND');
  });
});
