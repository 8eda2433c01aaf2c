// The commands supply accepts from trading: reserve an item's units for a trade or a hold, release
// them, sell them, hand them to another holder. They run inside the caller's write-path
// transaction, so a trade and the units it reserves are decided together (on SQLite one append;
// on EventStoreDB the item first — it was loaded first — then the trade). Each command recognises
// its own earlier decision (by reservation id), so a retry after a partial append completes it
// instead of doubling it; what a crash leaves without a holder, trading's process manager finds
// through INVENTORY_READER.reservationsOlderThan and releases.
import type { CommandMetadata, StreamHandle, Transaction } from '@app/platform/domain';

import { inventoryAggregate } from './inventory.aggregate';
import type { InventoryCommand, InventoryState, LiveInventory } from './inventory.decider';
import { type InventoryEvent, type InventoryStatus, inventoryStream } from './inventory.events';
import { availableUnits, reservedUnits } from './reservation-ledger';

type InventoryStreamHandle = StreamHandle<InventoryCommand, InventoryEvent, InventoryState>;

/** An inventory item loaded for reservations, within one transaction. */
export interface ReservableItem {
  readonly inventoryItemId: string;
  readonly workspaceId: string;
  /** Price per unit, in minor units of `currency`. */
  readonly priceMinor: number;
  readonly currency: string;
  /** The sale state; while reservations are in play it follows the counts. */
  readonly status: InventoryStatus;
  /** Total units. */
  readonly quantity: number;
  /** Units that can be reserved now: quantity − reserved − sold while the item is `available`, else 0. */
  readonly available: number;
  readonly reserved: number;
  readonly sold: number;
  /** The reservation with this id, if held: {quantity, holderId}. */
  reservation(reservationId: string): { quantity: number; holderId: string } | undefined;
  /**
   * Reserves `quantity` units for `holderId` (a `trd_`/`hld_` id) under `reservationId`, in `tx`.
   * Idempotent: the same reservationId again decides nothing (while held, or once sold; a
   * different quantity under a held id is CONFLICT; a released id is spent: INVALID_TRANSITION).
   * Throws DomainError INSUFFICIENT_QUANTITY (details {inventoryItemId, requested, available})
   * when fewer are available (a `reserved` item has none), INVALID_TRANSITION when the item is
   * withdrawn or sold.
   */
  reserve(tx: Transaction, reservationId: string, quantity: number, holderId: string, now: Date, metadata?: Partial<CommandMetadata>): void;
  /** Releases the reservation's units back to available; no-op when not held (idempotent). */
  release(tx: Transaction, reservationId: string, reason: string, now: Date, metadata?: Partial<CommandMetadata>): void;
  /** Sells the reservation's units (reserved → sold); no-op when already sold under this id; INVALID_TRANSITION when not held. */
  sell(tx: Transaction, reservationId: string, now: Date, metadata?: Partial<CommandMetadata>): void;
  /** Hands a held reservation to a new holder (a hold converted into a trade); no-op when it already has that holder; INVALID_TRANSITION when not held. */
  transfer(tx: Transaction, reservationId: string, holderId: string, now: Date, metadata?: Partial<CommandMetadata>): void;
}

class LoadedReservableItem implements ReservableItem {
  constructor(
    /** The item's stream in the transaction that loaded it: only supply decides on it. */
    private readonly stream: InventoryStreamHandle,
    readonly workspaceId: string,
  ) {}

  /** The state after everything decided on it so far in this transaction. */
  private get live(): LiveInventory {
    const { state } = this.stream;
    if (state.status !== 'live') throw new Error(`Inventory item stream ${this.stream.streamId} is not live`);
    return state;
  }

  get inventoryItemId(): string {
    return this.live.item.inventoryItemId;
  }

  get priceMinor(): number {
    return this.live.item.priceMinor;
  }

  get currency(): string {
    return this.live.item.currency;
  }

  get status(): InventoryStatus {
    return this.live.item.status;
  }

  get quantity(): number {
    return this.live.item.quantity;
  }

  get reserved(): number {
    return reservedUnits(this.live);
  }

  get sold(): number {
    return this.live.soldQuantity;
  }

  get available(): number {
    const { item, soldQuantity } = this.live;
    return availableUnits(item.status, item.quantity, this.reserved, soldQuantity);
  }

  reservation(reservationId: string): { quantity: number; holderId: string } | undefined {
    const held = this.live.reservations[reservationId];
    return held ? { quantity: held.quantity, holderId: held.holderId } : undefined;
  }

  reserve(tx: Transaction, reservationId: string, quantity: number, holderId: string, now: Date, metadata?: Partial<CommandMetadata>): void {
    this.decide(tx, { type: 'ReserveInventory', inventoryItemId: this.inventoryItemId, reservationId, holderId, quantity, now }, metadata);
  }

  release(tx: Transaction, reservationId: string, reason: string, now: Date, metadata?: Partial<CommandMetadata>): void {
    this.decide(tx, { type: 'ReleaseReservation', inventoryItemId: this.inventoryItemId, reservationId, reason, now }, metadata);
  }

  sell(tx: Transaction, reservationId: string, now: Date, metadata?: Partial<CommandMetadata>): void {
    this.decide(tx, { type: 'SellReservation', inventoryItemId: this.inventoryItemId, reservationId, now }, metadata);
  }

  transfer(tx: Transaction, reservationId: string, holderId: string, now: Date, metadata?: Partial<CommandMetadata>): void {
    this.decide(tx, { type: 'TransferReservation', inventoryItemId: this.inventoryItemId, reservationId, holderId, now }, metadata);
  }

  private decide(tx: Transaction, command: InventoryCommand, metadata?: Partial<CommandMetadata>): void {
    tx.decide(this.stream, command, { metadata: { ...metadata, workspaceId: this.workspaceId } });
  }
}

/** Loads an item of `workspaceId` in `tx`; null when there is none (another workspace's, or deleted, is none). */
export async function loadReservableItem(tx: Transaction, workspaceId: string, inventoryItemId: string): Promise<ReservableItem | null> {
  const stream = await tx.load(inventoryStream(inventoryItemId), inventoryAggregate, { workspaceId });
  return stream.state.status === 'live' ? new LoadedReservableItem(stream, workspaceId) : null;
}
