// Stored contract of the inventory aggregate. inventory.created / updated / deleted are public
// (webhooks). Every item carries its normalized identity so that matching can query it by index.
import { z } from 'zod';

import type { RecordedEvent } from '@app/platform/domain';

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

export type InventoryEvent =
  | { type: 'inventory.created'; data: InventoryCreated }
  | { type: 'inventory.updated'; data: InventoryUpdated }
  | { type: 'inventory.deleted'; data: InventoryDeleted };

export const INVENTORY_EVENT_TYPES = ['inventory.created', 'inventory.updated', 'inventory.deleted'] as const;

export function parseInventoryEvent(event: RecordedEvent): InventoryEvent {
  switch (event.type) {
    case 'inventory.created':
      return { type: event.type, data: inventoryCreated.parse(event.data) };
    case 'inventory.updated':
      return { type: event.type, data: inventoryUpdated.parse(event.data) };
    case 'inventory.deleted':
      return { type: event.type, data: inventoryDeleted.parse(event.data) };
    default:
      throw new Error(`Not an inventory event: ${event.type}`);
  }
}

export const inventoryStream = (id: string) => `inventory-${id}`;
