// Inventory items: created (by hand or by an intake push), edited, moved through their sale states,
// deleted; and their units reserved, released, sold and handed on by trades and holds. Pure:
// normalization happened before (the commands carry normalized data).
//
// Reservations. An item's `quantity` units are available, reserved (held under a reservation id
// by a trade or a hold) or sold: available = quantity − reserved − sold while the item is on sale
// (status `available`), else 0. While reservations are in play the stored `status` follows the
// counts: no unit available and some reserved → `reserved`; every unit sold → `sold` (final);
// units available again after a release → `available` (a withdrawn item stays withdrawn, but it
// cannot hold reservations: withdrawing one that does is refused). The seller's manual status
// moves stay as before for an item without reservations; with reservations, a withdrawal (or a
// delete) is 409 CONFLICT naming them, any other status move is INVALID_TRANSITION, and a quantity
// below reserved + sold is INVALID_TRANSITION.
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

/** Reserves `quantity` units for `holderId` under `reservationId` (idempotent by reservationId). */
export interface ReserveInventory {
  type: 'ReserveInventory';
  inventoryItemId: string;
  reservationId: string;
  holderId: string;
  quantity: number;
  now: Date;
}

/** Gives a reservation's units back (no-op when it is not held). */
export interface ReleaseReservation {
  type: 'ReleaseReservation';
  inventoryItemId: string;
  reservationId: string;
  reason: string;
  now: Date;
}

/** Sells a held reservation's units (no-op when already sold under this id). */
export interface SellReservation {
  type: 'SellReservation';
  inventoryItemId: string;
  reservationId: string;
  now: Date;
}

/** Hands a held reservation to another holder (no-op when it already has that holder). */
export interface TransferReservation {
  type: 'TransferReservation';
  inventoryItemId: string;
  reservationId: string;
  holderId: string;
  now: Date;
}

export type InventoryCommand =
  | CreateInventoryItem
  | UpdateInventoryItem
  | DeleteInventoryItem
  | ReserveInventory
  | ReleaseReservation
  | SellReservation
  | TransferReservation;

/** Units held under one reservation id. */
export interface HeldReservation {
  quantity: number;
  holderId: string;
  reservedAt: string;
}

export interface LiveInventory {
  status: 'live';
  item: InventoryItemState;
  /** Reservations held now, by reservation id. */
  reservations: Readonly<Record<string, HeldReservation>>;
  /** Units sold through reservations. */
  soldQuantity: number;
  /** Reservation ids no longer held and how they ended: an id is used once. */
  closed: Readonly<Record<string, 'sold' | 'released'>>;
}

export type InventoryState = { status: 'none' } | LiveInventory | { status: 'deleted'; inventoryItemId: string };

/** Units held by all the item's reservations. */
export function reservedUnits(state: Pick<LiveInventory, 'reservations'>): number {
  let units = 0;
  for (const r of Object.values(state.reservations)) units += r.quantity;
  return units;
}

/** Units a trade or hold can reserve now: the free ones while the item is on sale, else 0. */
export function availableUnits(status: InventoryStatus, quantity: number, reserved: number, sold: number): number {
  return status === 'available' ? Math.max(0, quantity - reserved - sold) : 0;
}

/**
 * The sale state the counts give an item on sale: every unit sold → `sold`; none free (some
 * reserved) → `reserved`; else `available`. `sold` stays final and `withdrawn` the seller's.
 */
export function statusFollowingCounts(current: InventoryStatus, quantity: number, reserved: number, sold: number): InventoryStatus {
  if (current === 'sold' || current === 'withdrawn') return current;
  if (sold > 0 && sold >= quantity) return 'sold';
  return quantity - reserved - sold > 0 ? 'available' : 'reserved';
}

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
        return reserve(command, liveState(state, command.inventoryItemId));
      case 'ReleaseReservation':
        return release(command, liveState(state, command.inventoryItemId));
      case 'SellReservation':
        return sell(command, liveState(state, command.inventoryItemId));
      case 'TransferReservation':
        return transfer(command, liveState(state, command.inventoryItemId));
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'inventory.created':
        return { status: 'live', item: itemOf(event.data), reservations: {}, soldQuantity: 0, closed: {} };
      case 'inventory.updated':
        return state.status === 'live'
          ? { ...state, item: itemOf(event.data) }
          : { status: 'live', item: itemOf(event.data), reservations: {}, soldQuantity: 0, closed: {} };
      case 'inventory.deleted':
        return { status: 'deleted', inventoryItemId: event.data.inventoryItemId };
      case 'inventory.reserved': {
        if (state.status !== 'live') return state;
        const { reservationId, quantity, holderId, reservedAt, status } = event.data;
        return {
          ...state,
          item: { ...state.item, status },
          reservations: { ...state.reservations, [reservationId]: { quantity, holderId, reservedAt } },
        };
      }
      case 'inventory.released':
      case 'inventory.sold': {
        if (state.status !== 'live') return state;
        const { reservationId, quantity, status } = event.data;
        const { [reservationId]: _gone, ...reservations } = state.reservations;
        const sold = event.type === 'inventory.sold';
        return {
          ...state,
          item: { ...state.item, status },
          reservations,
          soldQuantity: state.soldQuantity + (sold ? quantity : 0),
          closed: { ...state.closed, [reservationId]: sold ? 'sold' : 'released' },
        };
      }
      case 'inventory.reservation_transferred': {
        if (state.status !== 'live') return state;
        const held = state.reservations[event.data.reservationId];
        if (!held) return state;
        return { ...state, reservations: { ...state.reservations, [event.data.reservationId]: { ...held, holderId: event.data.holderId } } };
      }
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

function reserve(command: ReserveInventory, live: LiveInventory): InventoryEvent[] {
  const { item } = live;
  const { reservationId, holderId, quantity } = command;
  validateReservation({ reservationId, holderId, quantity });
  const held = live.reservations[reservationId];
  if (held) {
    // Its own earlier decision (a retry, or the rest of a partial multi-stream append): done.
    if (held.quantity === quantity) return [];
    throw new DomainError(
      'CONFLICT',
      `Reservation ${reservationId} of inventory item ${item.inventoryItemId} holds ${units(held.quantity)}, not ${quantity}`,
      { inventoryItemId: item.inventoryItemId, reservationId, quantity: held.quantity, requested: quantity },
    );
  }
  const closed = live.closed[reservationId];
  if (closed === 'sold') return []; // reserved and sold under this id already: nothing left to do
  if (closed === 'released') {
    throw new DomainError(
      'INVALID_TRANSITION',
      `Reservation ${reservationId} of inventory item ${item.inventoryItemId} was released; a reservation id is used once`,
      { inventoryItemId: item.inventoryItemId, reservationId, reservation: 'released' },
    );
  }
  if (item.status === 'withdrawn' || item.status === 'sold') {
    throw new DomainError('INVALID_TRANSITION', `Inventory item ${item.inventoryItemId} is ${item.status}: none of it can be reserved`, {
      inventoryItemId: item.inventoryItemId,
      status: item.status,
    });
  }
  const reserved = reservedUnits(live);
  const available = availableUnits(item.status, item.quantity, reserved, live.soldQuantity);
  if (quantity > available) {
    throw new DomainError(
      'INSUFFICIENT_QUANTITY',
      `Inventory item ${item.inventoryItemId} has ${units(available)} available, ${quantity} requested`,
      { inventoryItemId: item.inventoryItemId, requested: quantity, available },
    );
  }
  const status = statusFollowingCounts(item.status, item.quantity, reserved + quantity, live.soldQuantity);
  return [
    {
      type: 'inventory.reserved',
      data: { inventoryItemId: item.inventoryItemId, reservationId, holderId, quantity, status, reservedAt: command.now.toISOString() },
    },
  ];
}

function release(command: ReleaseReservation, live: LiveInventory): InventoryEvent[] {
  const { item } = live;
  const held = live.reservations[command.reservationId];
  if (!held) return []; // never held, released or sold already: nothing to give back
  const status = statusFollowingCounts(item.status, item.quantity, reservedUnits(live) - held.quantity, live.soldQuantity);
  return [
    {
      type: 'inventory.released',
      data: {
        inventoryItemId: item.inventoryItemId,
        reservationId: command.reservationId,
        holderId: held.holderId,
        quantity: held.quantity,
        status,
        reason: command.reason,
        releasedAt: command.now.toISOString(),
      },
    },
  ];
}

function sell(command: SellReservation, live: LiveInventory): InventoryEvent[] {
  const { item } = live;
  const closed = live.closed[command.reservationId];
  if (closed === 'sold') return [];
  const held = heldReservation(live, command.reservationId, 'sold');
  const sold = live.soldQuantity + held.quantity;
  const status = statusFollowingCounts(item.status, item.quantity, reservedUnits(live) - held.quantity, sold);
  return [
    {
      type: 'inventory.sold',
      data: {
        inventoryItemId: item.inventoryItemId,
        reservationId: command.reservationId,
        holderId: held.holderId,
        quantity: held.quantity,
        status,
        soldAt: command.now.toISOString(),
      },
    },
  ];
}

function transfer(command: TransferReservation, live: LiveInventory): InventoryEvent[] {
  const { item } = live;
  if (!command.holderId) throw DomainError.validation('Invalid reservation: holderId is required', [{ path: 'holderId', message: 'is required' }]);
  const held = heldReservation(live, command.reservationId, 'transferred');
  if (held.holderId === command.holderId) return [];
  return [
    {
      type: 'inventory.reservation_transferred',
      data: {
        inventoryItemId: item.inventoryItemId,
        reservationId: command.reservationId,
        fromHolderId: held.holderId,
        holderId: command.holderId,
        quantity: held.quantity,
        transferredAt: command.now.toISOString(),
      },
    },
  ];
}

function heldReservation(live: LiveInventory, reservationId: string, action: string): HeldReservation {
  const held = live.reservations[reservationId];
  if (held) return held;
  const closed = live.closed[reservationId];
  throw new DomainError(
    'INVALID_TRANSITION',
    `Reservation ${reservationId} is not held on inventory item ${live.item.inventoryItemId}` +
      (closed ? ` (it was ${closed})` : '') +
      `, so it cannot be ${action}`,
    { inventoryItemId: live.item.inventoryItemId, reservationId, reservation: closed ?? 'unknown' },
  );
}

/** A withdrawal or delete while units are reserved: the seller cancels those trades or holds first. */
function assertNoReservations(live: LiveInventory, action: 'withdrawn' | 'deleted'): void {
  const count = Object.keys(live.reservations).length;
  if (count === 0) return;
  const reserved = reservedUnits(live);
  throw new DomainError(
    'CONFLICT',
    `Inventory item ${live.item.inventoryItemId} cannot be ${action}: ${count} reservation${count === 1 ? '' : 's'} hold ${units(reserved)}; ` +
      'cancel the trades or holds that hold them first',
    { inventoryItemId: live.item.inventoryItemId, reservations: count, reservedQuantity: reserved },
  );
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

function validateReservation(fields: { reservationId: string; holderId: string; quantity: number }): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!fields.reservationId) issues.push({ path: 'reservationId', message: 'is required' });
  if (!fields.holderId) issues.push({ path: 'holderId', message: 'is required' });
  if (!(Number.isInteger(fields.quantity) && fields.quantity >= 1)) issues.push({ path: 'quantity', message: 'must be an integer of at least 1' });
  if (issues.length > 0) throw DomainError.validation(`Invalid reservation: ${issues[0].path} ${issues[0].message}`, issues);
}

function units(n: number): string {
  return `${n} unit${n === 1 ? '' : 's'}`;
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
