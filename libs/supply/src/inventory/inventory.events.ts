// Stored contract of the inventory aggregate. inventory.created / updated / deleted are public
// (webhooks). Every item carries its normalized identity so that matching can query it by index.
// The reservation events (inventory.reserved / released / sold / reservation_transferred) are
// internal: units a trade or hold holds, gives back or sells; never delivered by webhooks.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const INVENTORY_STATUSES = ['available', 'reserved', 'sold', 'withdrawn'] as const;
export type InventoryStatus = (typeof INVENTORY_STATUSES)[number];

/** What matching needs, derived by @app/catalog from the display fields. */
export const inventoryMatchFields = z.object({
  /** Normalized card name identity (catalog `CardName.key`). */
  cardKey: z.string(),
  /** Normalized set identity (catalog `SetRef.key`). */
  setKey: z.string(),
  /** `${setKey}|${cardKey}`: the equality part of every match query. */
  matchKey: z.string(),
  /** `raw` | `graded` | `unknown:<label folded>` (catalog `conditionClass`). */
  conditionClass: z.string(),
  /** Raw rank 1..6 or graded grade 1..10 (catalog `conditionScore`); 0 when unknown. */
  conditionScore: z.number(),
  /** Graded only: the grading company, else null. */
  gradingCompany: z.string().nullable(),
});
export type InventoryMatchFields = z.infer<typeof inventoryMatchFields>;

/** The item as it stands; `inventory.created` carries all of it, `inventory.updated` the new whole. */
export const inventoryItemState = z.object({
  inventoryItemId: z.string(),
  /** Display forms after normalization. */
  cardName: z.string(),
  setName: z.string(),
  condition: z.string(),
  priceMinor: z.number().int(),
  currency: z.string(),
  quantity: z.number().int(),
  status: z.enum(INVENTORY_STATUSES),
  sku: z.string().nullable(),
  cardNumber: z.string().nullable(),
  notes: z.string().nullable(),
  match: inventoryMatchFields,
});
export type InventoryItemState = z.infer<typeof inventoryItemState>;

export const inventoryCreated = inventoryItemState.extend({
  /** The caller's original text for the normalized fields (nothing typed is lost). */
  input: z.object({ cardName: z.string(), setName: z.string(), condition: z.string() }),
  /** Set when the item came from an intake session push. */
  ingestion: z.object({ sessionId: z.string(), row: z.number().int() }).nullable(),
  createdAt: z.string(),
});
export type InventoryCreated = z.infer<typeof inventoryCreated>;

export const inventoryUpdated = inventoryItemState.extend({
  /** Names of the fields this update changed (e.g. `priceMinor`, `status`). */
  changedFields: z.array(z.string()),
  input: z.object({ cardName: z.string(), setName: z.string(), condition: z.string() }).partial(),
  updatedAt: z.string(),
});
export type InventoryUpdated = z.infer<typeof inventoryUpdated>;

export const inventoryDeleted = z.object({
  inventoryItemId: z.string(),
  deletedAt: z.string(),
});
export type InventoryDeleted = z.infer<typeof inventoryDeleted>;

/** What every reservation event names: the item, the reservation, its holder and its units. */
const reservationFields = {
  inventoryItemId: z.string(),
  /** The caller's id for the reservation (unique per item; a trade's or hold's own choice). */
  reservationId: z.string(),
  /** Who holds the units: a trade (`trd_…`) or a hold (`hld_…`). */
  holderId: z.string(),
  quantity: z.number().int(),
  /** The item's sale state after the event (it follows the counts; see the decider). */
  status: z.enum(INVENTORY_STATUSES),
};

export const inventoryReserved = z.object({ ...reservationFields, reservedAt: z.string() });
export type InventoryReserved = z.infer<typeof inventoryReserved>;

export const inventoryReleased = z.object({
  ...reservationFields,
  /** Why the units came back, e.g. `trade_cancelled`, `hold_expired`, `orphaned`. */
  reason: z.string(),
  releasedAt: z.string(),
});
export type InventoryReleased = z.infer<typeof inventoryReleased>;

export const inventorySold = z.object({ ...reservationFields, soldAt: z.string() });
export type InventorySold = z.infer<typeof inventorySold>;

export const inventoryReservationTransferred = z.object({
  inventoryItemId: z.string(),
  reservationId: z.string(),
  fromHolderId: z.string(),
  holderId: z.string(),
  quantity: z.number().int(),
  transferredAt: z.string(),
});
export type InventoryReservationTransferred = z.infer<typeof inventoryReservationTransferred>;

export type InventoryEvent =
  | { type: 'inventory.created'; data: InventoryCreated }
  | { type: 'inventory.updated'; data: InventoryUpdated }
  | { type: 'inventory.deleted'; data: InventoryDeleted }
  | { type: 'inventory.reserved'; data: InventoryReserved }
  | { type: 'inventory.released'; data: InventoryReleased }
  | { type: 'inventory.sold'; data: InventorySold }
  | { type: 'inventory.reservation_transferred'; data: InventoryReservationTransferred };

export const INVENTORY_EVENT_TYPES = [
  'inventory.created',
  'inventory.updated',
  'inventory.deleted',
  'inventory.reserved',
  'inventory.released',
  'inventory.sold',
  'inventory.reservation_transferred',
] as const;

/** The reservation events (internal), which the reservations view follows. */
export const INVENTORY_RESERVATION_EVENT_TYPES = [
  'inventory.reserved',
  'inventory.released',
  'inventory.sold',
  'inventory.reservation_transferred',
] as const;

export const parseInventoryEvent = parseOnce((event: RecordedEvent): InventoryEvent => {
  switch (event.type) {
    case 'inventory.created':
      return { type: event.type, data: inventoryCreated.parse(event.data) };
    case 'inventory.updated':
      return { type: event.type, data: inventoryUpdated.parse(event.data) };
    case 'inventory.deleted':
      return { type: event.type, data: inventoryDeleted.parse(event.data) };
    case 'inventory.reserved':
      return { type: event.type, data: inventoryReserved.parse(event.data) };
    case 'inventory.released':
      return { type: event.type, data: inventoryReleased.parse(event.data) };
    case 'inventory.sold':
      return { type: event.type, data: inventorySold.parse(event.data) };
    case 'inventory.reservation_transferred':
      return { type: event.type, data: inventoryReservationTransferred.parse(event.data) };
    default:
      throw new Error(`Not an inventory event: ${event.type}`);
  }
});

export const inventoryStream = (id: string) => `inventory-${id}`;
