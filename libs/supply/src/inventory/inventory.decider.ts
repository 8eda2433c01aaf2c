// Inventory items: created (by hand or by an intake push), edited, moved through their sale states,
// deleted; their units reserved, released, sold and handed on by trades and holds through the
// item's reservation ledger (reservation-ledger.ts), which this decider composes. Pure:
// normalization happened before (the commands carry normalized data).
//
// The seller moves an item without reservations between its sale states by hand (TRANSITIONS).
// While reservations are in play the status follows the ledger's counts, so a withdrawn item
// cannot hold reservations; with reservations, a withdrawal (or a delete) is 409 CONFLICT naming
// them, any other status move is INVALID_TRANSITION, and a quantity below reserved + sold is
// INVALID_TRANSITION.
import { type Decider, DomainError } from '@app/platform/domain';

import {
  INVENTORY_STATUSES,
  type InventoryCreated,
  type InventoryEvent,
  type InventoryItemState,
  type InventoryMatchFields,
  type InventoryStatus,
  type InventoryUpdated,
} from './inventory.events';
import {
  assertNoReservations,
  decideReservation,
  emptyLedger,
  evolveLedger,
  type ReservationCommand,
  type ReservationLedger,
  reservedUnits,
  statusFollowingCounts,
  units,
} from './reservation-ledger';

export interface CreateInventoryItem {
  type: 'CreateInventoryItem';
  item: Omit<InventoryCreated, 'createdAt'>;
  now: Date;
}

/** What an update may change: the item's fields (display names come with their `match`). */
export type InventoryItemChanges = Partial<Omit<InventoryItemState, 'inventoryItemId'>> & {
  /** What the caller typed for the names/condition it changed (kept in the event, not compared). */
  input?: InventoryUpdated['input'];
};

export interface UpdateInventoryItem {
  type: 'UpdateInventoryItem';
  /** Only for error messages: the stream already says which item. */
  inventoryItemId: string;
  changes: InventoryItemChanges;
  now: Date;
}

export interface DeleteInventoryItem {
  type: 'DeleteInventoryItem';
  inventoryItemId: string;
  now: Date;
}

export type InventoryCommand =
  | CreateInventoryItem
  | UpdateInventoryItem
  | DeleteInventoryItem
  | ReservationCommand;

export interface LiveInventory extends ReservationLedger {
  status: 'live';
  item: InventoryItemState;
}

export type InventoryState = { status: 'none' } | LiveInventory | { status: 'deleted'; inventoryItemId: string };

/**
 * The sale states an item may move to from each state. `sold` is final; `withdrawn` (off sale)
 * only comes back by relisting as `available`.
 */
const TRANSITIONS: Readonly<Record<InventoryStatus, readonly InventoryStatus[]>> = {
  available: ['reserved', 'sold', 'withdrawn'],
  reserved: ['available', 'sold', 'withdrawn'],
  sold: [],
  withdrawn: ['available'],
};

/** The comparable fields of an item, in the order `changedFields` lists them. */
const ITEM_FIELDS = [
  'cardName',
  'setName',
  'condition',
  'match',
  'priceMinor',
  'currency',
  'quantity',
  'status',
  'sku',
  'cardNumber',
  'notes',
] as const satisfies ReadonlyArray<keyof InventoryItemState>;

export const inventoryDecider: Decider<InventoryCommand, InventoryEvent, InventoryState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateInventoryItem': {
        if (state.status !== 'none') {
          throw new DomainError('CONFLICT', `Inventory item ${command.item.inventoryItemId} already exists`);
        }
        validate(command.item);
        return [{ type: 'inventory.created', data: { ...command.item, createdAt: command.now.toISOString() } }];
      }
      case 'UpdateInventoryItem': {
        const live = liveState(state, command.inventoryItemId);
        const current = live.item;
        const { input, ...fields } = command.changes;
        validate(fields);
        // Spread only defined values: an absent key and `undefined` both mean "unchanged".
        const next: InventoryItemState = { ...current, ...definedOnly(fields) };
        const reserved = reservedUnits(live);
        const sold = live.soldQuantity;
        if (next.quantity < reserved + sold) {
          throw new DomainError(
            'INVALID_TRANSITION',
            `Inventory item ${current.inventoryItemId} has ${units(reserved)} reserved and ${sold} sold: its quantity cannot go below ${reserved + sold}`,
            { inventoryItemId: current.inventoryItemId, quantity: next.quantity, reserved, sold, minimum: reserved + sold },
          );
        }
        // Under reservations (or with every unit sold) the status is the one the counts give.
        const following = reserved > 0 || (sold > 0 && next.quantity <= sold) ? statusFollowingCounts(current.status, next.quantity, reserved, sold) : null;
        if (next.status !== current.status && next.status !== following) assertManualStatusMove(live, next.status);
        else if (following) next.status = following;
        const changedFields = ITEM_FIELDS.filter((f) => !sameValue(current[f], next[f]));
        if (changedFields.length === 0) return [];
        return [
          {
            type: 'inventory.updated',
            data: { ...next, changedFields, input: input ?? {}, updatedAt: command.now.toISOString() },
          },
        ];
      }
      case 'DeleteInventoryItem': {
        const live = liveState(state, command.inventoryItemId);
        assertNoReservations(live, 'deleted');
        const current = live.item;
        return [
          { type: 'inventory.deleted', data: { inventoryItemId: current.inventoryItemId, deletedAt: command.now.toISOString() } },
        ];
      }
      case 'ReserveInventory':
      case 'ReleaseReservation':
      case 'SellReservation':
      case 'TransferReservation':
        return decideReservation(command, liveState(state, command.inventoryItemId));
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'inventory.created':
        return { status: 'live', item: itemOf(event.data), ...emptyLedger() };
      case 'inventory.updated':
        return state.status === 'live'
          ? { ...state, item: itemOf(event.data) }
          : { status: 'live', item: itemOf(event.data), ...emptyLedger() };
      case 'inventory.deleted':
        return { status: 'deleted', inventoryItemId: event.data.inventoryItemId };
      case 'inventory.reserved':
      case 'inventory.released':
      case 'inventory.sold':
      case 'inventory.reservation_transferred':
        return state.status === 'live' ? evolveLedger(state, event) : state;
      default:
        return state;
    }
  },
};

function liveState(state: InventoryState, id: string): LiveInventory {
  // A deleted item answers like one that never existed (as a GET on it does).
  if (state.status !== 'live') throw new DomainError('NOT_FOUND', `No inventory item with id ${id}`);
  return state;
}

/** A status the seller sets by hand: the usual moves without reservations; with them, none. */
function assertManualStatusMove(live: LiveInventory, to: InventoryStatus): void {
  const { item } = live;
  const count = Object.keys(live.reservations).length;
  if (count > 0) {
    if (to === 'withdrawn') assertNoReservations(live, 'withdrawn');
    throw new DomainError(
      'INVALID_TRANSITION',
      `Inventory item ${item.inventoryItemId} cannot go from ${item.status} to ${to}: its status follows its ${count} reservation${count === 1 ? '' : 's'}`,
      { from: item.status, to, allowed: [], reservations: count },
    );
  }
  assertTransition(item.status, to, item.inventoryItemId);
}

function assertTransition(from: InventoryStatus, to: InventoryStatus, id: string): void {
  if (TRANSITIONS[from].includes(to)) return;
  const allowed = TRANSITIONS[from];
  throw new DomainError(
    'INVALID_TRANSITION',
    `Inventory item ${id} cannot go from ${from} to ${to}` +
      (allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ` (${from} is final)`),
    { from, to, allowed: [...allowed] },
  );
}

/** The rules the types cannot carry; the intake path reaches the decider without HTTP validation. */
function validate(fields: Partial<Pick<InventoryItemState, 'quantity' | 'priceMinor' | 'status'>>): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (fields.quantity !== undefined && !(Number.isInteger(fields.quantity) && fields.quantity >= 1)) {
    issues.push({ path: 'quantity', message: 'must be an integer of at least 1' });
  }
  if (fields.priceMinor !== undefined && !(Number.isInteger(fields.priceMinor) && fields.priceMinor >= 0)) {
    issues.push({ path: 'priceMinor', message: 'must be a non-negative integer (minor units)' });
  }
  if (fields.status !== undefined && !INVENTORY_STATUSES.includes(fields.status)) {
    issues.push({ path: 'status', message: `must be one of ${INVENTORY_STATUSES.join(', ')}` });
  }
  if (issues.length > 0) {
    throw new DomainError('VALIDATION_FAILED', `Invalid inventory item: ${issues[0].path} ${issues[0].message}`, { issues });
  }
}

/** The item state out of a created/updated event (dropping its input, timestamps and change list). */
function itemOf(data: InventoryItemState): InventoryItemState {
  return {
    inventoryItemId: data.inventoryItemId,
    cardName: data.cardName,
    setName: data.setName,
    condition: data.condition,
    priceMinor: data.priceMinor,
    currency: data.currency,
    quantity: data.quantity,
    status: data.status,
    sku: data.sku,
    cardNumber: data.cardNumber,
    notes: data.notes,
    match: { ...data.match },
  };
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function sameValue(a: InventoryItemState[keyof InventoryItemState], b: InventoryItemState[keyof InventoryItemState]): boolean {
  if (isMatch(a) && isMatch(b)) return sameMatch(a, b);
  return a === b;
}

function isMatch(value: unknown): value is InventoryMatchFields {
  return typeof value === 'object' && value !== null;
}

function sameMatch(a: InventoryMatchFields, b: InventoryMatchFields): boolean {
  return (
    a.cardKey === b.cardKey &&
    a.setKey === b.setKey &&
    a.matchKey === b.matchKey &&
    a.conditionClass === b.conditionClass &&
    a.conditionScore === b.conditionScore &&
    a.gradingCompany === b.gradingCompany
  );
}
