// Read model of inventory items: one document per live item, with the normalized identity flattened
// to top-level fields so that listing and the matching engine query it through indexes.
import { type CollectionSpec, documentProjection, streamEntityId, type StreamDoc } from '@app/platform';

import type { InventoryItemView } from './inventory-reader.port';
import { INVENTORY_EVENT_TYPES, parseInventoryEvent } from './inventory.events';

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
    // bound, in price order (`id` last: the store's tie-breaker, so no sort step); conditionScore is
    // checked on the rows the range leaves.
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

export const inventoryProjection = documentProjection<InventoryItemDoc>({
  name: 'inventory_items',
  version: 1,
  collection: INVENTORY_ITEMS,
  eventTypes: INVENTORY_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseInventoryEvent(recorded);
    switch (event.type) {
      case 'inventory.created': {
        const d = event.data;
        return {
          id: streamEntityId(recorded.streamId),
          revision: recorded.revision,
          workspaceId: recorded.metadata.workspaceId,
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
          ingestion: d.ingestion,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
        };
      }
      case 'inventory.updated': {
        // An update of an item this read model never saw (cannot happen in an ordered log) is skipped.
        if (!doc) return null;
        const d = event.data;
        return {
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
      }
      case 'inventory.deleted':
        return null;
    }
  },
});
