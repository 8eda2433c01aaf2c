// Request and response schemas of /api/v1/inventory (they validate and they document), with examples.
import { z } from 'zod';

import { currencyCode, fromMinor, listResponseSchema, MAX_AMOUNT, moneyAmount, paginationQuery } from '@app/platform';

import { INVENTORY_STATUSES } from './inventory.events';
import type { InventoryItemDoc } from './inventory.projection';

export const MAX_QUANTITY = 100_000;

const status = z.enum(INVENTORY_STATUSES);
const itemFields = {
  cardName: z.string().trim().min(1).max(200).meta({ description: 'Card name as the seller writes it; normalized (see `normalization`).' }),
  setName: z.string().trim().min(1).max(200).meta({ description: 'Set name or code; normalized to the catalogue\'s set when known.' }),
  condition: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .meta({ description: 'Condition (`NM`, `lightly played`…) or grade (`PSA 9.5`); normalized.' }),
  price: moneyAmount.meta({ description: 'Asking price per unit: a decimal with at most 2 places.' }),
  currency: currencyCode.meta({ description: 'ISO 4217 code of `price`; default `USD`.' }),
  quantity: z.number().int().min(1).max(MAX_QUANTITY).meta({ description: `Units in stock, 1 to ${MAX_QUANTITY}; default 1.` }),
  status: status.meta({ description: 'Sale state; default `available`. Only available items are matched.' }),
  sku: z.string().trim().min(1).max(100).meta({ description: 'The seller\'s own stock keeping unit.' }),
  cardNumber: z.string().trim().min(1).max(40).meta({ description: 'Collector number printed on the card, e.g. `4/102`.' }),
  notes: z.string().trim().min(1).max(2000).meta({ description: 'Free text, up to 2000 characters.' }),
};

export const createInventoryItemBody = z
  .strictObject({
    cardName: itemFields.cardName,
    setName: itemFields.setName,
    condition: itemFields.condition,
    price: itemFields.price,
    currency: itemFields.currency.optional(),
    quantity: itemFields.quantity.optional(),
    status: itemFields.status.optional(),
    sku: itemFields.sku.optional(),
    cardNumber: itemFields.cardNumber.optional(),
    notes: itemFields.notes.optional(),
  })
  .meta({ id: 'CreateInventoryItem' });

export const updateInventoryItemBody = z
  .strictObject({
    cardName: itemFields.cardName.optional(),
    setName: itemFields.setName.optional(),
    condition: itemFields.condition.optional(),
    price: itemFields.price.optional(),
    currency: itemFields.currency.optional(),
    quantity: itemFields.quantity.optional(),
    status: itemFields.status.optional(),
    // null clears an optional field.
    sku: itemFields.sku.nullable().optional(),
    cardNumber: itemFields.cardNumber.nullable().optional(),
    notes: itemFields.notes.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'name at least one field to change')
  .meta({
    id: 'UpdateInventoryItem',
    description:
      'Any subset of the creation fields; `null` clears `sku`, `cardNumber` or `notes`. Status moves: available ↔ reserved, ' +
      'available/reserved → sold, anything but sold → withdrawn, withdrawn → available; sold is final. While trades or ' +
      'holds hold units of the item its status follows them: withdrawing it is 409 CONFLICT, another status move or a ' +
      '`quantity` below reserved + sold is 409 INVALID_TRANSITION.',
  });

/** A decimal query value (`12.5`) with at most 2 places; query strings are text, so no coercion surprises. */
const decimalQuery = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a decimal with at most 2 places, e.g. 12.50')
  .transform(Number)
  .pipe(z.number().max(MAX_AMOUNT));

export const listInventoryQuery = paginationQuery.extend({
  status: status.optional().meta({ description: 'Only items in this sale state.' }),
  cardName: z.string().trim().min(1).max(200).optional().meta({ description: 'Only this card, compared after normalization.' }),
  setName: z.string().trim().min(1).max(200).optional().meta({ description: 'Only this set, compared after normalization.' }),
  minPrice: decimalQuery.optional().meta({ description: 'Lowest price, inclusive.' }),
  maxPrice: decimalQuery.optional().meta({ description: 'Highest price, inclusive.' }),
  currency: currencyCode.optional().meta({ description: 'Only prices in this ISO 4217 currency.' }),
});

export const inventoryItemIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Inventory item id (`inv_…`).', examples: ['inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

const itemResponseShape = {
  id: z.string().meta({ description: 'Inventory item id (`inv_…`).' }),
  cardName: z.string().meta({ description: 'Display name after normalization.' }),
  setName: z.string().meta({ description: 'Display set name after normalization.' }),
  condition: z.string().meta({ description: 'Condition label after normalization, e.g. `Near Mint` or `PSA 9.5`.' }),
  price: z.number().meta({ description: 'Decimal, at most 2 places, in `currency`.' }),
  currency: z.string().meta({ description: 'ISO 4217 code.' }),
  quantity: z.number().int().min(1).meta({ description: 'Units in stock: available + reserved + sold (+ units of an item not on sale).' }),
  availableQuantity: z
    .number()
    .int()
    .min(0)
    .meta({ description: 'Units a trade or hold can reserve now: `quantity` − reserved − sold while the item is `available`, else 0.' }),
  reservedQuantity: z.number().int().min(0).meta({ description: 'Units held by trades and holds.' }),
  soldQuantity: z.number().int().min(0).meta({ description: 'Units sold through trades.' }),
  status: status.meta({
    description:
      'Sale state. While trades or holds hold units it follows the counts: `reserved` when none is left available, `sold` ' +
      'when every unit is sold, `available` again when a release frees units.',
  }),
  sku: z.string().nullable(),
  cardNumber: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const inventoryItemResponse = z.strictObject(itemResponseShape).meta({ id: 'InventoryItem' });
export type InventoryItemResponse = z.output<typeof inventoryItemResponse>;

const fieldNormalization = z
  .strictObject({
    input: z.string().meta({ description: 'What was sent.' }),
    changes: z.array(z.string()).meta({ description: 'What normalization changed, e.g. `expanded "NM" to "Near Mint"`.' }),
    confidence: z.number().min(0).max(1).meta({ description: '1 = exact/known; lower for guesses and unknown values.' }),
    warnings: z.array(z.string()).meta({ description: 'Things to check, e.g. an unknown set kept as given.' }),
    recognized: z.boolean().meta({ description: 'False when the value was not recognised and was kept as given.' }),
  })
  .meta({ id: 'FieldNormalization' });

export const createdInventoryItemResponse = z
  .strictObject({
    ...itemResponseShape,
    normalization: z
      .strictObject({ cardName: fieldNormalization, setName: fieldNormalization, condition: fieldNormalization })
      .meta({ description: 'How `cardName`, `setName` and `condition` were normalized.' }),
  })
  .meta({ id: 'CreatedInventoryItem' });
export type CreatedInventoryItemResponse = z.output<typeof createdInventoryItemResponse>;

export const updatedInventoryItemResponse = z
  .strictObject({
    ...itemResponseShape,
    normalization: z
      .strictObject({
        cardName: fieldNormalization.optional(),
        setName: fieldNormalization.optional(),
        condition: fieldNormalization.optional(),
      })
      .meta({ description: 'How the changed `cardName`, `setName` or `condition` were normalized (only those sent).' }),
  })
  .meta({ id: 'UpdatedInventoryItem' });
export type UpdatedInventoryItemResponse = z.output<typeof updatedInventoryItemResponse>;

export const deletedInventoryItemResponse = z
  .strictObject({ id: z.string().meta({ description: 'The deleted item\'s id.' }), deleted: z.literal(true) })
  .meta({ id: 'DeletedInventoryItem' });

export const inventoryItemListResponse = listResponseSchema(inventoryItemResponse).meta({ id: 'InventoryItemList' });

export const createExample = {
  cardName: 'charizard',
  setName: 'base set',
  condition: 'nm',
  price: 450.5,
  currency: 'USD',
  quantity: 1,
  sku: 'CHZ-BS-001',
  cardNumber: '4/102',
  notes: 'Light corner wear on the back',
};

export const itemExample: InventoryItemResponse = {
  id: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  price: 450.5,
  currency: 'USD',
  quantity: 1,
  availableQuantity: 1,
  reservedQuantity: 0,
  soldQuantity: 0,
  status: 'available',
  sku: 'CHZ-BS-001',
  cardNumber: '4/102',
  notes: 'Light corner wear on the back',
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:05.000Z',
};

const recognized = (input: string, changes: string[]) => ({ input, changes, confidence: 1, warnings: [], recognized: true });
export const createdExample: CreatedInventoryItemResponse = {
  ...itemExample,
  normalization: {
    cardName: recognized('charizard', ['capitalized "charizard" to "Charizard"']),
    setName: recognized('base set', ['resolved "base set" to the set "Base"']),
    condition: recognized('nm', ['expanded "nm" to "Near Mint"']),
  },
};

type ItemFields = Pick<
  InventoryItemDoc,
  | 'id'
  | 'cardName'
  | 'setName'
  | 'condition'
  | 'priceMinor'
  | 'currency'
  | 'quantity'
  | 'availableQuantity'
  | 'reservedQuantity'
  | 'soldQuantity'
  | 'status'
  | 'sku'
  | 'cardNumber'
  | 'notes'
  | 'createdAt'
  | 'updatedAt'
>;

export function toInventoryItemResponse(doc: ItemFields): InventoryItemResponse {
  return {
    id: doc.id,
    cardName: doc.cardName,
    setName: doc.setName,
    condition: doc.condition,
    price: fromMinor(doc.priceMinor),
    currency: doc.currency,
    quantity: doc.quantity,
    availableQuantity: doc.availableQuantity,
    reservedQuantity: doc.reservedQuantity,
    soldQuantity: doc.soldQuantity,
    status: doc.status,
    sku: doc.sku,
    cardNumber: doc.cardNumber,
    notes: doc.notes,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
