import { fold } from '@app/platform/domain';
import { deciderSpec } from '@app/testing/support/decider-spec';

import {
  type CreateInventoryItem,
  type DeleteInventoryItem,
  inventoryDecider,
  type InventoryItemChanges,
  type LiveInventory,
  type UpdateInventoryItem,
} from './inventory.decider';
import type { InventoryCreated, InventoryEvent, InventoryItemState, InventoryStatus } from './inventory.events';
import { availableUnits, type ReleaseReservation, reservedUnits, type ReserveInventory, type SellReservation, type TransferReservation } from './reservation-ledger';

const spec = deciderSpec(inventoryDecider);
const createdAt = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-02T10:00:00.000Z');

const match = {
  cardKey: 'charizard',
  setKey: 'base1',
  matchKey: 'base1|charizard',
  conditionClass: 'raw',
  conditionScore: 5,
  gradingCompany: null,
};

const item: Omit<InventoryCreated, 'createdAt'> = {
  inventoryItemId: 'inv_1',
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  priceMinor: 45000,
  currency: 'USD',
  quantity: 1,
  status: 'available',
  sku: null,
  cardNumber: '4/102',
  notes: null,
  match,
  input: { cardName: 'charizard', setName: 'base set', condition: 'nm' },
  ingestion: null,
};

const create: CreateInventoryItem = { type: 'CreateInventoryItem', item, now: createdAt };
const created: InventoryEvent = { type: 'inventory.created', data: { ...item, createdAt: createdAt.toISOString() } };
const deleteItem: DeleteInventoryItem = { type: 'DeleteInventoryItem', inventoryItemId: 'inv_1', now: later };
const deleted: InventoryEvent = { type: 'inventory.deleted', data: { inventoryItemId: 'inv_1', deletedAt: later.toISOString() } };

const update = (changes: InventoryItemChanges): UpdateInventoryItem => ({
  type: 'UpdateInventoryItem',
  inventoryItemId: 'inv_1',
  changes,
  now: later,
});

const { input: _input, ingestion: _ingestion, ...state } = item;
const updated = (next: Partial<InventoryItemState>, changedFields: string[], input: InventoryItemChanges['input'] = {}): InventoryEvent => ({
  type: 'inventory.updated',
  data: { ...state, ...next, changedFields, input, updatedAt: later.toISOString() },
});
const withStatus = (status: InventoryStatus): InventoryEvent => updated({ status }, ['status']);

describe('inventory decider', () => {
  describe('create', () => {
    it('creates an item with its normalized identity, input and ingestion as given', () => {
      spec.given([]).when(create).then([created]);
    });

    it('creates an item in a status the caller chose', () => {
      const withdrawn = { ...item, status: 'withdrawn' as const };
      spec
        .given([])
        .when({ ...create, item: withdrawn })
        .then([{ type: 'inventory.created', data: { ...withdrawn, createdAt: createdAt.toISOString() } }]);
    });

    it('keeps an intake push origin', () => {
      const pushed = { ...item, ingestion: { sessionId: 'ing_1', row: 3 } };
      spec
        .given([])
        .when({ ...create, item: pushed })
        .then([{ type: 'inventory.created', data: { ...pushed, createdAt: createdAt.toISOString() } }]);
    });

    it.each([
      ['quantity 0', { quantity: 0 }, 'quantity'],
      ['a fractional quantity', { quantity: 1.5 }, 'quantity'],
      ['a negative price', { priceMinor: -1 }, 'priceMinor'],
      ['a fractional minor price', { priceMinor: 10.5 }, 'priceMinor'],
      ['an unknown status', { status: String('lost') as InventoryStatus }, 'status'],
    ])('refuses %s with VALIDATION_FAILED', (_label, fields, path) => {
      spec
        .given([])
        .when({ ...create, item: { ...item, ...fields } })
        .thenThrows('VALIDATION_FAILED', path);
    });

    it('accepts a price of 0', () => {
      const free = { ...item, priceMinor: 0 };
      spec
        .given([])
        .when({ ...create, item: free })
        .then([{ type: 'inventory.created', data: { ...free, createdAt: createdAt.toISOString() } }]);
    });

    it('refuses to create the same item twice, even after it was deleted', () => {
      spec.given([created]).when(create).thenThrows('CONFLICT', 'already exists');
      spec.given([created, deleted]).when(create).thenThrows('CONFLICT', 'already exists');
    });
  });

  describe('update', () => {
    it('records the whole new state and only the fields that changed', () => {
      spec
        .given([created])
        .when(update({ priceMinor: 39999, notes: 'corner wear', quantity: 1 }))
        .then([updated({ priceMinor: 39999, notes: 'corner wear' }, ['priceMinor', 'notes'])]);
    });

    it('records a renamed card with its new identity and what was typed', () => {
      const renamed = { ...match, cardKey: 'blastoise', matchKey: 'base1|blastoise' };
      spec
        .given([created])
        .when(update({ cardName: 'Blastoise', match: renamed, input: { cardName: 'blastoise' } }))
        .then([updated({ cardName: 'Blastoise', match: renamed }, ['cardName', 'match'], { cardName: 'blastoise' })]);
    });

    it('is a no-op (no event) when nothing really changes', () => {
      spec.given([created]).when(update({})).then([]);
      spec
        .given([created])
        .when(update({ priceMinor: 45000, status: 'available', match: { ...match }, sku: undefined, input: { cardName: 'CHARIZARD' } }))
        .then([]);
    });

    it('decides on the latest state', () => {
      const repriced = updated({ priceMinor: 30000 }, ['priceMinor']);
      spec.given([created, repriced]).when(update({ priceMinor: 30000 })).then([]);
      spec.given([created, repriced]).when(update({ priceMinor: 45000 })).then([updated({ priceMinor: 45000 }, ['priceMinor'])]);
    });

    it('clears an optional field with null', () => {
      spec.given([created]).when(update({ cardNumber: null })).then([updated({ cardNumber: null }, ['cardNumber'])]);
    });

    it.each([
      ['available', 'reserved'],
      ['available', 'sold'],
      ['available', 'withdrawn'],
      ['reserved', 'available'],
      ['reserved', 'sold'],
      ['reserved', 'withdrawn'],
      ['withdrawn', 'available'],
    ] as const)('allows %s → %s', (from, to) => {
      const history = from === 'available' ? [created] : [created, withStatus(from)];
      spec.given(history).when(update({ status: to })).then([withStatus(to)]);
    });

    it.each([
      ['withdrawn', 'reserved'],
      ['withdrawn', 'sold'],
      ['sold', 'available'],
      ['sold', 'reserved'],
      ['sold', 'withdrawn'],
    ] as const)('refuses %s → %s with INVALID_TRANSITION', (from, to) => {
      spec.given([created, withStatus(from)]).when(update({ status: to })).thenThrows('INVALID_TRANSITION', `from ${from} to ${to}`);
    });

    it('keeps sold final, but a sold item\'s notes may still change', () => {
      const sold = withStatus('sold');
      spec.given([created, sold]).when(update({ status: 'available' })).thenThrows('INVALID_TRANSITION', 'sold is final');
      spec
        .given([created, sold])
        .when(update({ notes: 'shipped' }))
        .then([updated({ status: 'sold', notes: 'shipped' }, ['notes'])]);
    });

    it.each([
      ['quantity 0', { quantity: 0 }, 'quantity'],
      ['a negative price', { priceMinor: -5 }, 'priceMinor'],
    ])('refuses %s with VALIDATION_FAILED', (_label, changes, path) => {
      spec.given([created]).when(update(changes)).thenThrows('VALIDATION_FAILED', path);
    });

    it('answers NOT_FOUND for a missing or deleted item', () => {
      spec.given([]).when(update({ priceMinor: 1 })).thenThrows('NOT_FOUND', 'inv_1');
      spec.given([created, deleted]).when(update({ priceMinor: 1 })).thenThrows('NOT_FOUND', 'inv_1');
    });
  });

  describe('delete', () => {
    it('deletes a live item, whatever its sale state', () => {
      spec.given([created]).when(deleteItem).then([deleted]);
      spec.given([created, withStatus('sold')]).when(deleteItem).then([deleted]);
    });

    it('answers NOT_FOUND for a missing or already deleted item', () => {
      spec.given([]).when(deleteItem).thenThrows('NOT_FOUND', 'inv_1');
      spec.given([created, deleted]).when(deleteItem).thenThrows('NOT_FOUND', 'inv_1');
    });
  });
});

describe('inventory reservations', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 3, 10, minute));
  const stock = (quantity: number, status: InventoryStatus = 'available'): InventoryEvent => ({
    type: 'inventory.created',
    data: { ...item, quantity, status, createdAt: createdAt.toISOString() },
  });

  const reserve = (reservationId: string, quantity = 1, holderId = `trd_${reservationId}`, now = at(1)): ReserveInventory => ({
    type: 'ReserveInventory',
    inventoryItemId: 'inv_1',
    reservationId,
    holderId,
    quantity,
    now,
  });
  const release = (reservationId: string, reason = 'trade_cancelled'): ReleaseReservation => ({
    type: 'ReleaseReservation',
    inventoryItemId: 'inv_1',
    reservationId,
    reason,
    now: at(2),
  });
  const sell = (reservationId: string): SellReservation => ({ type: 'SellReservation', inventoryItemId: 'inv_1', reservationId, now: at(3) });
  const transfer = (reservationId: string, holderId: string): TransferReservation => ({
    type: 'TransferReservation',
    inventoryItemId: 'inv_1',
    reservationId,
    holderId,
    now: at(4),
  });

  const reserved = (reservationId: string, quantity: number, status: InventoryStatus, holderId = `trd_${reservationId}`, now = at(1)): InventoryEvent => ({
    type: 'inventory.reserved',
    data: { inventoryItemId: 'inv_1', reservationId, holderId, quantity, status, reservedAt: now.toISOString() },
  });
  const released = (reservationId: string, quantity: number, status: InventoryStatus, holderId = `trd_${reservationId}`, reason = 'trade_cancelled'): InventoryEvent => ({
    type: 'inventory.released',
    data: { inventoryItemId: 'inv_1', reservationId, holderId, quantity, status, reason, releasedAt: at(2).toISOString() },
  });
  const sold = (reservationId: string, quantity: number, status: InventoryStatus, holderId = `trd_${reservationId}`): InventoryEvent => ({
    type: 'inventory.sold',
    data: { inventoryItemId: 'inv_1', reservationId, holderId, quantity, status, soldAt: at(3).toISOString() },
  });
  const transferred = (reservationId: string, quantity: number, fromHolderId: string, holderId: string): InventoryEvent => ({
    type: 'inventory.reservation_transferred',
    data: { inventoryItemId: 'inv_1', reservationId, fromHolderId, holderId, quantity, transferredAt: at(4).toISOString() },
  });
  const stateAfter = (events: InventoryEvent[]) => fold(inventoryDecider, events) as LiveInventory;
  const counts = (events: InventoryEvent[]) => {
    const s = stateAfter(events);
    const r = reservedUnits(s);
    return { status: s.item.status, available: availableUnits(s.item.status, s.item.quantity, r, s.soldQuantity), reserved: r, sold: s.soldQuantity };
  };

  describe('reserve', () => {
    it('reserves units within what is available; the item stays available while units are left', () => {
      spec.given([stock(3)]).when(reserve('rsv_1', 2)).then([reserved('rsv_1', 2, 'available')]);
      expect(counts([stock(3), reserved('rsv_1', 2, 'available')])).toEqual({ status: 'available', available: 1, reserved: 2, sold: 0 });
    });

    it('reserving the last units makes the item reserved', () => {
      spec.given([stock(2), reserved('rsv_1', 1, 'available')]).when(reserve('rsv_2', 1)).then([reserved('rsv_2', 1, 'reserved')]);
      spec.given([stock(1)]).when(reserve('rsv_1', 1, 'hld_1')).then([reserved('rsv_1', 1, 'reserved', 'hld_1')]);
    });

    it('refuses more than is available with INSUFFICIENT_QUANTITY, naming what was asked and what is left', () => {
      spec.given([stock(3), reserved('rsv_1', 2, 'available')]).when(reserve('rsv_2', 2)).thenThrows('INSUFFICIENT_QUANTITY', 'has 1 unit available, 2 requested');
      let caught: unknown;
      try {
        inventoryDecider.decide(reserve('rsv_2', 2), stateAfter([stock(3), reserved('rsv_1', 2, 'available')]));
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'INSUFFICIENT_QUANTITY', details: { inventoryItemId: 'inv_1', requested: 2, available: 1 } });
    });

    it('quantity 3: reserves 1 + 1 + 1, then a 4th is INSUFFICIENT_QUANTITY', () => {
      const history: InventoryEvent[] = [stock(3)];
      for (const [i, status] of (['available', 'available', 'reserved'] as const).entries()) {
        const events = inventoryDecider.decide(reserve(`rsv_${i}`), stateAfter(history));
        expect(events).toEqual([reserved(`rsv_${i}`, 1, status)]);
        history.push(...events);
      }
      expect(counts(history)).toEqual({ status: 'reserved', available: 0, reserved: 3, sold: 0 });
      spec.given(history).when(reserve('rsv_3')).thenThrows('INSUFFICIENT_QUANTITY', 'has 0 units available, 1 requested');
    });

    it('is idempotent: the same reservation id again decides nothing (even after a transfer or a sale)', () => {
      const held = [stock(2), reserved('rsv_1', 1, 'available', 'hld_1')];
      spec.given(held).when(reserve('rsv_1', 1, 'hld_1')).then([]);
      spec.given([...held, transferred('rsv_1', 1, 'hld_1', 'trd_1')]).when(reserve('rsv_1', 1, 'hld_1')).then([]);
      spec.given([...held, sold('rsv_1', 1, 'available', 'hld_1')]).when(reserve('rsv_1', 1, 'hld_1')).then([]);
      // The last unit taken by its own reservation: still recognised, not INSUFFICIENT_QUANTITY.
      spec.given([stock(1), reserved('rsv_1', 1, 'reserved')]).when(reserve('rsv_1', 1)).then([]);
    });

    it('a held id asked for another quantity is CONFLICT; a released id is spent (INVALID_TRANSITION)', () => {
      spec.given([stock(3), reserved('rsv_1', 1, 'available')]).when(reserve('rsv_1', 2)).thenThrows('CONFLICT', 'holds 1 unit, not 2');
      spec
        .given([stock(3), reserved('rsv_1', 1, 'available'), released('rsv_1', 1, 'available')])
        .when(reserve('rsv_1', 1))
        .thenThrows('INVALID_TRANSITION', 'was released');
    });

    it.each([
      ['withdrawn', [stock(2, 'withdrawn')]],
      ['sold (by hand)', [stock(2), withStatus('sold')]],
    ] as const)('refuses an item that is %s with INVALID_TRANSITION', (label, history) => {
      spec.given([...history]).when(reserve('rsv_1')).thenThrows('INVALID_TRANSITION', `is ${label.split(' ')[0]}`);
    });

    it('an item the seller set aside by hand (reserved) has nothing available', () => {
      spec.given([stock(2, 'reserved')]).when(reserve('rsv_1')).thenThrows('INSUFFICIENT_QUANTITY', 'has 0 units available');
    });

    it('refuses a bad quantity or a missing holder with VALIDATION_FAILED, a missing item with NOT_FOUND', () => {
      spec.given([stock(2)]).when(reserve('rsv_1', 0)).thenThrows('VALIDATION_FAILED', 'quantity');
      spec.given([stock(2)]).when(reserve('rsv_1', 1.5)).thenThrows('VALIDATION_FAILED', 'quantity');
      spec.given([stock(2)]).when(reserve('rsv_1', 1, '')).thenThrows('VALIDATION_FAILED', 'holderId');
      spec.given([]).when(reserve('rsv_1')).thenThrows('NOT_FOUND', 'inv_1');
      spec.given([stock(2), deleted]).when(reserve('rsv_1')).thenThrows('NOT_FOUND', 'inv_1');
    });
  });

  describe('release', () => {
    it('gives the units back: a reserved item is available again', () => {
      const history = [stock(1), reserved('rsv_1', 1, 'reserved')];
      spec.given(history).when(release('rsv_1')).then([released('rsv_1', 1, 'available')]);
      expect(counts([...history, released('rsv_1', 1, 'available')])).toEqual({ status: 'available', available: 1, reserved: 0, sold: 0 });
    });

    it('a release among several frees its units only: available again, the other reservation still held', () => {
      const history = [stock(2), reserved('rsv_1', 1, 'available'), reserved('rsv_2', 1, 'reserved')];
      const freed = released('rsv_2', 1, 'available', 'trd_rsv_2', 'hold_expired');
      spec.given(history).when(release('rsv_2', 'hold_expired')).then([freed]);
      expect(counts([...history, freed])).toEqual({ status: 'available', available: 1, reserved: 1, sold: 0 });
      expect(Object.keys(stateAfter([...history, freed]).reservations)).toEqual(['rsv_1']);
    });

    it('is a no-op for an id not held: unknown, released already, or sold', () => {
      spec.given([stock(2)]).when(release('rsv_9')).then([]);
      spec.given([stock(2), reserved('rsv_1', 1, 'available'), released('rsv_1', 1, 'available')]).when(release('rsv_1')).then([]);
      spec.given([stock(2), reserved('rsv_1', 1, 'available'), sold('rsv_1', 1, 'available')]).when(release('rsv_1')).then([]);
    });
  });

  describe('sell', () => {
    it('sells a held reservation\'s units: reserved → sold; the rest stays on sale', () => {
      const history = [stock(3), reserved('rsv_1', 2, 'available')];
      spec.given(history).when(sell('rsv_1')).then([sold('rsv_1', 2, 'available')]);
      expect(counts([...history, sold('rsv_1', 2, 'available')])).toEqual({ status: 'available', available: 1, reserved: 0, sold: 2 });
    });

    it('selling every unit makes the item sold (final)', () => {
      spec.given([stock(1), reserved('rsv_1', 1, 'reserved')]).when(sell('rsv_1')).then([sold('rsv_1', 1, 'sold')]);
      const all = [stock(2), reserved('rsv_1', 1, 'available'), reserved('rsv_2', 1, 'reserved'), sold('rsv_1', 1, 'reserved')];
      expect(counts(all)).toEqual({ status: 'reserved', available: 0, reserved: 1, sold: 1 });
      spec.given(all).when(sell('rsv_2')).then([sold('rsv_2', 1, 'sold')]);
      spec.given([...all, sold('rsv_2', 1, 'sold')]).when(update({ status: 'available' })).thenThrows('INVALID_TRANSITION', 'sold is final');
    });

    it('selling twice under one id decides nothing', () => {
      spec.given([stock(1), reserved('rsv_1', 1, 'reserved'), sold('rsv_1', 1, 'sold')]).when(sell('rsv_1')).then([]);
    });

    it('refuses a reservation that is not held with INVALID_TRANSITION', () => {
      spec.given([stock(1)]).when(sell('rsv_1')).thenThrows('INVALID_TRANSITION', 'not held');
      spec
        .given([stock(1), reserved('rsv_1', 1, 'reserved'), released('rsv_1', 1, 'available')])
        .when(sell('rsv_1'))
        .thenThrows('INVALID_TRANSITION', 'it was released');
    });
  });

  describe('transfer', () => {
    it('hands a held reservation to a new holder (a hold becomes a trade); the same holder again is a no-op', () => {
      const history = [stock(1), reserved('rsv_1', 1, 'reserved', 'hld_1')];
      spec.given(history).when(transfer('rsv_1', 'trd_1')).then([transferred('rsv_1', 1, 'hld_1', 'trd_1')]);
      spec.given([...history, transferred('rsv_1', 1, 'hld_1', 'trd_1')]).when(transfer('rsv_1', 'trd_1')).then([]);
      expect(stateAfter([...history, transferred('rsv_1', 1, 'hld_1', 'trd_1')]).reservations).toEqual({
        rsv_1: { quantity: 1, holderId: 'trd_1', reservedAt: at(1).toISOString() },
      });
      // The new holder sells it.
      spec.given([...history, transferred('rsv_1', 1, 'hld_1', 'trd_1')]).when(sell('rsv_1')).then([sold('rsv_1', 1, 'sold', 'trd_1')]);
    });

    it('refuses a reservation that is not held with INVALID_TRANSITION', () => {
      spec.given([stock(1)]).when(transfer('rsv_1', 'trd_1')).thenThrows('INVALID_TRANSITION', 'not held');
    });
  });

  describe('the seller\'s changes while units are reserved', () => {
    const held = [stock(3), reserved('rsv_1', 1, 'available'), reserved('rsv_2', 1, 'available')];

    it('refuses a quantity below reserved + sold with INVALID_TRANSITION', () => {
      const history = [...held, sold('rsv_1', 1, 'available')];
      spec.given(history).when(update({ quantity: 1 })).thenThrows('INVALID_TRANSITION', 'cannot go below 2');
    });

    it('a quantity down to reserved + sold makes the item reserved; up again, available', () => {
      spec.given(held).when(update({ quantity: 2 })).then([updated({ quantity: 2, status: 'reserved' }, ['quantity', 'status'])]);
      const tight = [stock(2), reserved('rsv_1', 1, 'available'), reserved('rsv_2', 1, 'reserved')];
      spec.given(tight).when(update({ quantity: 5 })).then([updated({ quantity: 5, status: 'available' }, ['quantity', 'status'])]);
      // Asking for the status the counts give is no manual move.
      spec.given(tight).when(update({ quantity: 5, status: 'available' })).then([updated({ quantity: 5, status: 'available' }, ['quantity', 'status'])]);
    });

    it('a quantity down to what was sold makes the item sold', () => {
      const history = [stock(3), reserved('rsv_1', 1, 'available'), sold('rsv_1', 1, 'available')];
      spec.given(history).when(update({ quantity: 1 })).then([updated({ quantity: 1, status: 'sold' }, ['quantity', 'status'])]);
    });

    it('refuses a withdrawal or a delete with CONFLICT naming the reservations', () => {
      spec.given(held).when(update({ status: 'withdrawn' })).thenThrows('CONFLICT', '2 reservations hold 2 units');
      spec.given(held).when(deleteItem).thenThrows('CONFLICT', '2 reservations hold 2 units');
      let caught: unknown;
      try {
        inventoryDecider.decide(deleteItem, stateAfter(held));
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'CONFLICT', details: { inventoryItemId: 'inv_1', reservations: 2, reservedQuantity: 2 } });
    });

    it('refuses any other status move: the status follows the reservations', () => {
      spec.given(held).when(update({ status: 'sold' })).thenThrows('INVALID_TRANSITION', 'follows its 2 reservations');
      spec.given(held).when(update({ status: 'reserved' })).thenThrows('INVALID_TRANSITION', 'follows its 2 reservations');
    });

    it('still takes other changes (a reprice), and the status it already has', () => {
      spec.given(held).when(update({ priceMinor: 40000, status: 'available' })).then([updated({ priceMinor: 40000, quantity: 3 }, ['priceMinor'])]);
    });

    it('once every reservation is released, the manual moves are back; sold units stay counted', () => {
      const history = [...held, sold('rsv_1', 1, 'available'), released('rsv_2', 1, 'available')];
      spec.given(history).when(update({ status: 'withdrawn' })).then([updated({ quantity: 3, status: 'withdrawn' }, ['status'])]);
      spec.given(history).when(deleteItem).then([deleted]);
      expect(counts(history)).toEqual({ status: 'available', available: 2, reserved: 0, sold: 1 });
      spec.given(history).when(update({ quantity: 1 })).then([updated({ quantity: 1, status: 'sold' }, ['quantity', 'status'])]);
    });
  });
});
