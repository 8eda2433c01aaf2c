// Read models of inventory: one document per live item, with the normalized identity flattened
// to top-level fields so that listing and the matching engine query it through indexes, and its
// unit counts; and one document per reservation held (the view trading's process manager reads
// to release reservations whose holder never came to exist).
import { type CollectionSpec, documentProjection, streamEntityId, type StreamDoc } from '@app/platform';

import type { HeldReservationView, InventoryItemView } from './inventory-reader.port';
import { INVENTORY_EVENT_TYPES, INVENTORY_RESERVATION_EVENT_TYPES, parseInventoryEvent } from './inventory.events';
import { availableUnits } from './reservation-ledger';

/** The read model's document: what others may read of it (the view), and the rest of the item. */
export interface InventoryItemDoc extends StreamDoc, InventoryItemView {
  sku: string | null;
  cardNumber: string | null;
  notes: string | null;
  ingestion: { sessionId: string; row: number } | null;
  createdAt: string;
  updatedAt: string;
}

export const INVENTORY_ITEMS = {
  name: 'inventory_items',
  indexes: [
    // The list, newest first (and the paging order of every filtered list below).
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
    // Instant matching: equality on identity, status, currency and condition class, then the price
    // bound, in price order (`id`: the store's tie-breaker, so no sort step). conditionScore comes
    // last so the score bound is checked on the index entry: only the items that pass it are read
    // from the table, not every item in the price range (which at scale is most of the query's cost).
    {
      name: 'by_match',
      fields: [
        ['workspaceId', 1],
        ['matchKey', 1],
        ['status', 1],
        ['currency', 1],
        ['conditionClass', 1],
        ['priceMinor', 1],
        ['id', 1],
        ['conditionScore', 1],
      ],
    },
    // The same for a request of any printing of a card (any set): by card, not by set|card.
    {
      name: 'by_card_match',
      fields: [
        ['workspaceId', 1],
        ['cardKey', 1],
        ['status', 1],
        ['currency', 1],
        ['conditionClass', 1],
        ['priceMinor', 1],
        ['id', 1],
        ['conditionScore', 1],
      ],
    },
    // Typo candidates: the items of one set.
    { name: 'by_ws_set', fields: [['workspaceId', 1], ['setKey', 1], ['status', 1], ['currency', 1]] },
    { name: 'by_ws_status_created', fields: [['workspaceId', 1], ['status', 1], ['createdAt', -1], ['id', -1]] },
    // List filters by card (any set) and by set, newest first. No price index on purpose: without
    // statistics SQLite prefers any range index, and one on (workspaceId, priceMinor) would take
    // the matching engine's and the card filters' queries away from their far narrower indexes;
    // a price-only listing walks the workspace's items newest first instead.
    { name: 'by_ws_card_created', fields: [['workspaceId', 1], ['cardKey', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_set_created', fields: [['workspaceId', 1], ['setKey', 1], ['createdAt', -1], ['id', -1]] },
  ],
} as const satisfies CollectionSpec;

/** The counts after a change: `availableQuantity` follows status, quantity, reserved and sold. */
function withCounts<D extends InventoryItemDoc>(doc: D, reservedQuantity: number, soldQuantity: number): D {
  return { ...doc, reservedQuantity, soldQuantity, availableQuantity: availableUnits(doc.status, doc.quantity, reservedQuantity, soldQuantity) };
}

export const inventoryProjection = documentProjection<InventoryItemDoc>({
  name: 'inventory_items',
  // 2: unit counts (availableQuantity, reservedQuantity, soldQuantity) and the reservation events.
  version: 2,
  // The inventory routes' own read model: every write to an item — its own routes, an intake push,
  // a trade's or hold's reservation — brings it up to date, so its GET shows the counts at once.
  inline: true,
  collection: INVENTORY_ITEMS,
  eventTypes: INVENTORY_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseInventoryEvent(recorded);
    switch (event.type) {
      case 'inventory.created': {
        const d = event.data;
        const doc: InventoryItemDoc = {
          id: streamEntityId(recorded.streamId),
          revision: recorded.revision,
          workspaceId: recorded.metadata.workspaceId,
          cardName: d.cardName,
          setName: d.setName,
          condition: d.condition,
          priceMinor: d.priceMinor,
          currency: d.currency,
          quantity: d.quantity,
          availableQuantity: 0,
          reservedQuantity: 0,
          soldQuantity: 0,
          status: d.status,
          sku: d.sku,
          cardNumber: d.cardNumber,
          notes: d.notes,
          ...d.match,
          ingestion: d.ingestion,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
        };
        return withCounts(doc, 0, 0);
      }
      case 'inventory.updated': {
        // An update of an item this read model never saw (cannot happen in an ordered log) is skipped.
        if (!doc) return null;
        const d = event.data;
        const next: InventoryItemDoc = {
          ...doc,
          revision: recorded.revision,
          cardName: d.cardName,
          setName: d.setName,
          condition: d.condition,
          priceMinor: d.priceMinor,
          currency: d.currency,
          quantity: d.quantity,
          status: d.status,
          sku: d.sku,
          cardNumber: d.cardNumber,
          notes: d.notes,
          ...d.match,
          updatedAt: d.updatedAt,
        };
        return withCounts(next, doc.reservedQuantity, doc.soldQuantity);
      }
      case 'inventory.deleted':
        return null;
      case 'inventory.reserved': {
        if (!doc) return null;
        const d = event.data;
        return withCounts({ ...doc, status: d.status, updatedAt: d.reservedAt }, doc.reservedQuantity + d.quantity, doc.soldQuantity);
      }
      case 'inventory.released': {
        if (!doc) return null;
        const d = event.data;
        return withCounts({ ...doc, status: d.status, updatedAt: d.releasedAt }, doc.reservedQuantity - d.quantity, doc.soldQuantity);
      }
      case 'inventory.sold': {
        if (!doc) return null;
        const d = event.data;
        return withCounts({ ...doc, status: d.status, updatedAt: d.soldAt }, doc.reservedQuantity - d.quantity, doc.soldQuantity + d.quantity);
      }
      case 'inventory.reservation_transferred':
        // Nothing the item shows changes (who holds its units is the reservations view's).
        return doc;
    }
  },
});

/** One document per reservation held; released and sold ones are removed. */
export interface InventoryReservationDoc extends StreamDoc, HeldReservationView {}

export const INVENTORY_RESERVATIONS = {
  name: 'inventory_reservations',
  indexes: [
    // Trading's process manager: held reservations older than a cutoff, every workspace, oldest first.
    { name: 'by_reserved', fields: [['reservedAt', 1], ['id', 1]] },
    { name: 'by_ws_item', fields: [['workspaceId', 1], ['inventoryItemId', 1]] },
  ],
} as const satisfies CollectionSpec;

/** A reservation's document id: unique per item (reservation ids are the caller's). */
export const reservationDocId = (inventoryItemId: string, reservationId: string) => `${inventoryItemId}/${reservationId}`;

export const inventoryReservationsProjection = documentProjection<InventoryReservationDoc>({
  name: 'inventory_reservations',
  version: 1,
  collection: INVENTORY_RESERVATIONS,
  eventTypes: INVENTORY_RESERVATION_EVENT_TYPES,
  documentId: (recorded) => reservationDocId(streamEntityId(recorded.streamId), (recorded.data as { reservationId: string }).reservationId),
  evolve(doc, recorded) {
    const event = parseInventoryEvent(recorded);
    switch (event.type) {
      case 'inventory.reserved': {
        const d = event.data;
        return {
          id: reservationDocId(d.inventoryItemId, d.reservationId),
          revision: recorded.revision,
          workspaceId: recorded.metadata.workspaceId,
          inventoryItemId: d.inventoryItemId,
          reservationId: d.reservationId,
          holderId: d.holderId,
          quantity: d.quantity,
          reservedAt: d.reservedAt,
        };
      }
      case 'inventory.reservation_transferred':
        return doc ? { ...doc, holderId: event.data.holderId } : null;
      case 'inventory.released':
      case 'inventory.sold':
        return null;
      default:
        return doc;
    }
  },
});
