// The public events of inventory items: what each means, its `data` fields (snake_case) and how a
// stored event becomes that data. The normalized identity (`match`) and the typed input stay inside.
import { eventField as f, fromMinor, type PublicEventType } from '@app/platform';

import { inventoryCreated, inventoryDeleted, type InventoryItemState, inventoryUpdated } from './inventory.events';

const inventoryFields = {
  inventory_item_id: f('string', 'Inventory item id (`inv_…`).'),
  card_name: f('string', 'Normalized card name.'),
  set_name: f('string', 'Normalized set name.'),
  condition: f('string', 'Normalized condition label.'),
  price: f('number', 'A decimal with at most 2 places.'),
  currency: f('string', 'ISO 4217 code.'),
  quantity: f('integer', 'Units held.'),
  status: f('string', '`available`, `reserved`, `sold` or `withdrawn`.'),
  sku: f('string|null', 'The seller\'s own reference.'),
};

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

function itemData(item: InventoryItemState): Record<string, unknown> {
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

export const INVENTORY_PUBLIC_EVENTS: readonly PublicEventType[] = [
  {
    type: 'inventory.created',
    description: 'A new inventory item was added.',
    data: inventoryFields,
    toData: (event) => itemData(inventoryCreated.parse(event.data)),
  },
  {
    type: 'inventory.updated',
    description: 'An inventory item was updated (the data is the whole item after the change).',
    data: { ...inventoryFields, changed_fields: f('array', 'What changed, e.g. `price`, `status`.') },
    toData(event) {
      const d = inventoryUpdated.parse(event.data);
      return { ...itemData(d), changed_fields: d.changedFields.flatMap((name) => (PUBLIC_ITEM_FIELD[name] ? [PUBLIC_ITEM_FIELD[name]] : [])) };
    },
  },
  {
    type: 'inventory.deleted',
    description: 'An inventory item was removed.',
    data: { inventory_item_id: inventoryFields.inventory_item_id },
    toData: (event) => ({ inventory_item_id: inventoryDeleted.parse(event.data).inventoryItemId }),
  },
];
