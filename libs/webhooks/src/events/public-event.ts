// A stored event as the outside world sees it: the spec's envelope `{id, type, created_at,
// workspace_id, data}` with `data` in snake_case, exactly the fields the catalogue declares.
import { parseBuyerRequestEvent } from '@app/demand';
import { parseMatchCompleted } from '@app/matching';
import { fromMinor, publicEventId, type RecordedEvent } from '@app/platform';
import { type InventoryItemState, parseInventoryEvent } from '@app/supply';

import { isPublicEventType } from './event-catalogue';

export interface PublicEvent {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

/** Stored field names → public ones; the normalized identity (`match`) is not public. */
const PUBLIC_ITEM_FIELD: Readonly<Record<string, string>> = {
  cardName: 'card_name',
  setName: 'set_name',
  condition: 'condition',
  priceMinor: 'price',
  currency: 'currency',
  quantity: 'quantity',
  status: 'status',
  sku: 'sku',
  cardNumber: 'card_number',
  notes: 'notes',
};

function inventoryData(item: InventoryItemState): Record<string, unknown> {
  return {
    inventory_item_id: item.inventoryItemId,
    card_name: item.cardName,
    set_name: item.setName,
    condition: item.condition,
    price: fromMinor(item.priceMinor),
    currency: item.currency,
    quantity: item.quantity,
    status: item.status,
    sku: item.sku,
  };
}

/** The public `data` of an event the service emits today; null for internal or unknown types. */
export function publicData(event: RecordedEvent): Record<string, unknown> | null {
  if (!isPublicEventType(event.type)) return null;
  if (event.type.startsWith('buyer_request.') || event.type === 'match.created') {
    const e = parseBuyerRequestEvent(event);
    switch (e.type) {
      case 'buyer_request.created':
        return {
          buyer_request_id: e.data.buyerRequestId,
          card_name: e.data.cardName,
          set_name: e.data.setName,
          condition: e.data.condition,
          max_price: fromMinor(e.data.maxPriceMinor),
          currency: e.data.currency,
          source: e.data.source,
        };
      case 'buyer_request.matched':
        return {
          buyer_request_id: e.data.buyerRequestId,
          match_count: e.data.matchCount,
          match_ids: e.data.matches.map((m) => m.matchId),
          inventory_item_ids: e.data.matches.map((m) => m.inventoryItemId),
        };
      case 'buyer_request.archived':
        return { buyer_request_id: e.data.buyerRequestId, reason: e.data.reason };
      case 'match.created':
        return {
          match_id: e.data.matchId,
          buyer_request_id: e.data.buyerRequestId,
          inventory_item_id: e.data.inventoryItemId,
          kind: e.data.kind,
          score: e.data.score,
        };
      default:
        return null;
    }
  }
  if (event.type === 'match.completed') {
    const d = parseMatchCompleted(event);
    return {
      match_pack_id: d.matchPackId,
      buyer_request_id: d.buyerRequestId,
      full_count: d.fullCount,
      near_miss_count: d.nearMissCount,
      match_ids: d.matches.map((m) => m.matchId),
    };
  }
  if (event.type.startsWith('inventory.')) {
    const e = parseInventoryEvent(event);
    switch (e.type) {
      case 'inventory.created':
        return inventoryData(e.data);
      case 'inventory.updated':
        return {
          ...inventoryData(e.data),
          changed_fields: e.data.changedFields.flatMap((name) => (PUBLIC_ITEM_FIELD[name] ? [PUBLIC_ITEM_FIELD[name]] : [])),
        };
      case 'inventory.deleted':
        return { inventory_item_id: e.data.inventoryItemId };
    }
  }
  // Catalogued, but not emitted yet (trades, offers, holds, live selling, trust).
  return null;
}

export function toPublicEvent(event: RecordedEvent): PublicEvent | null {
  const data = publicData(event);
  if (!data) return null;
  return { id: publicEventId(event.id), type: event.type, created_at: event.createdAt, workspace_id: event.metadata.workspaceId, data };
}
