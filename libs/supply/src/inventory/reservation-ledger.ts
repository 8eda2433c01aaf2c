// An inventory item's reservation ledger: its units held under reservation ids by trades and
// holds, released, sold or handed on — what `ReserveInventory`, `ReleaseReservation`,
// `SellReservation` and `TransferReservation` decide, and how their events move the ledger. Pure;
// the inventory decider composes it with the item's own lifecycle (create, edit, delete).
//
// An item's `quantity` units are available, reserved (held under a reservation id) or sold:
// available = quantity − reserved − sold while the item is on sale (status `available`), else 0.
// While reservations are in play the stored `status` follows the counts: no unit available and
// some reserved → `reserved`; every unit sold → `sold` (final); units available again after a
// release → `available`. A reservation id is used once: each command recognises its own earlier
// decision by it, so a retry completes instead of doubling.
import { DomainError } from '@app/platform/domain';

import type { InventoryEvent, InventoryItemState, InventoryStatus } from './inventory.events';

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

export type ReservationCommand = ReserveInventory | ReleaseReservation | SellReservation | TransferReservation;

/** Units held under one reservation id. */
export interface HeldReservation {
  quantity: number;
  holderId: string;
  reservedAt: string;
}

/** The ledger an item keeps beside its fields. */
export interface ReservationLedger {
  /** Reservations held now, by reservation id. */
  reservations: Readonly<Record<string, HeldReservation>>;
  /** Units sold through reservations. */
  soldQuantity: number;
  /** Reservation ids no longer held and how they ended: an id is used once. */
  closed: Readonly<Record<string, 'sold' | 'released'>>;
}

/** A live item with its ledger: what the ledger's decisions read. */
export interface ItemWithLedger extends ReservationLedger {
  item: InventoryItemState;
}

/** A new item's ledger. */
export function emptyLedger(): ReservationLedger {
  return { reservations: {}, soldQuantity: 0, closed: {} };
}

/** Units held by all the item's reservations. */
export function reservedUnits(state: Pick<ReservationLedger, 'reservations'>): number {
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

/** The events a reservation command makes on a live item (none when it was decided already). */
export function decideReservation(command: ReservationCommand, live: ItemWithLedger): InventoryEvent[] {
  switch (command.type) {
    case 'ReserveInventory':
      return reserve(command, live);
    case 'ReleaseReservation':
      return release(command, live);
    case 'SellReservation':
      return sell(command, live);
    case 'TransferReservation':
      return transfer(command, live);
    default: {
      const never: never = command;
      throw new Error(`Unknown reservation command ${JSON.stringify(never)}`);
    }
  }
}

/** A live item after a ledger event: its reservations, sold units and the status they give it. */
export function evolveLedger<S extends ItemWithLedger>(state: S, event: InventoryEvent): S {
  switch (event.type) {
    case 'inventory.reserved': {
      const { reservationId, quantity, holderId, reservedAt, status } = event.data;
      return {
        ...state,
        item: { ...state.item, status },
        reservations: { ...state.reservations, [reservationId]: { quantity, holderId, reservedAt } },
      };
    }
    case 'inventory.released':
    case 'inventory.sold': {
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
      const held = state.reservations[event.data.reservationId];
      if (!held) return state;
      return { ...state, reservations: { ...state.reservations, [event.data.reservationId]: { ...held, holderId: event.data.holderId } } };
    }
    default:
      return state;
  }
}

function reserve(command: ReserveInventory, live: ItemWithLedger): InventoryEvent[] {
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

function release(command: ReleaseReservation, live: ItemWithLedger): InventoryEvent[] {
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

function sell(command: SellReservation, live: ItemWithLedger): InventoryEvent[] {
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

function transfer(command: TransferReservation, live: ItemWithLedger): InventoryEvent[] {
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

function heldReservation(live: ItemWithLedger, reservationId: string, action: string): HeldReservation {
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
export function assertNoReservations(live: ItemWithLedger, action: 'withdrawn' | 'deleted'): void {
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

function validateReservation(fields: { reservationId: string; holderId: string; quantity: number }): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!fields.reservationId) issues.push({ path: 'reservationId', message: 'is required' });
  if (!fields.holderId) issues.push({ path: 'holderId', message: 'is required' });
  if (!(Number.isInteger(fields.quantity) && fields.quantity >= 1)) issues.push({ path: 'quantity', message: 'must be an integer of at least 1' });
  if (issues.length > 0) throw DomainError.validation(`Invalid reservation: ${issues[0].path} ${issues[0].message}`, issues);
}

export function units(n: number): string {
  return `${n} unit${n === 1 ? '' : 's'}`;
}
