import { deciderSpec } from '@app/testing/support/decider-spec';

import {
  type CreateInventoryItem,
  type DeleteInventoryItem,
  inventoryDecider,
  type InventoryItemChanges,
  type UpdateInventoryItem,
} from './inventory.decider';
import type { InventoryCreated, InventoryEvent, InventoryItemState, InventoryStatus } from './inventory.events';

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
