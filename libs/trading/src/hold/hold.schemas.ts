// Request and response schemas of /api/v1/holds (they validate and they document), with examples,
// and the mapper from the read model to the answer.
import { z } from 'zod';

import { currencyCode, fromMinor, listResponseSchema, moneyAmount, paginationQuery } from '@app/platform';

import { HOLD_STATUSES } from './hold.events';
import type { HoldDoc } from './hold.projection';

const id = (what: string) => z.string().trim().min(1).max(64).meta({ description: what });

export const placeHoldBody = z
  .strictObject({
    inventoryItemId: id('The item to hold (`inv_…`).'),
    buyerRequestId: id('The buyer request it is held for (`br_…`).').optional(),
    quantity: z.number().int().min(1).max(10_000).optional().meta({ description: 'Units to hold; default 1.' }),
    depositAmount: moneyAmount.meta({ description: 'The deposit due, in the item\'s currency (0 for none); counted toward the trade when paid.' }),
    currency: currencyCode.optional().meta({ description: 'Must be the item\'s currency; default it.' }),
    expiresAt: z.iso.datetime({ offset: true }).meta({ description: 'When the hold lapses unless converted (ISO 8601, in the future).' }),
  })
  .meta({ id: 'PlaceHold' });

export const holdDepositBody = z
  .strictObject({ reference: z.string().trim().min(1).max(200).optional().meta({ description: 'The payment reference.' }) })
  .meta({ id: 'HoldDeposit' });

export const releaseHoldBody = z
  .strictObject({ reason: z.string().trim().min(1).max(500).optional().meta({ description: 'Why (kept for the record).' }) })
  .meta({ id: 'ReleaseHold' });

export const holdIdParams = z.object({ id: id('Hold id (`hld_…`).').meta({ examples: ['hld_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }) });

export const listHoldsQuery = paginationQuery.extend({
  status: z.enum(HOLD_STATUSES).optional().meta({ description: 'Only holds in this status.' }),
  inventoryItemId: id('Only holds of this item.').optional(),
  buyerRequestId: id('Only holds for this buyer request.').optional(),
});

export const holdResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Hold id (`hld_…`).' }),
    status: z.enum(HOLD_STATUSES).meta({ description: '`active` until converted, released or expired.' }),
    inventoryItemId: z.string(),
    buyerRequestId: z.string().nullable(),
    quantity: z.number().int(),
    amount: z.number().meta({ description: 'The price of the held units when the hold was placed: what a conversion trades them for.' }),
    depositAmount: z.number(),
    currency: z.string(),
    depositStatus: z.enum(['none', 'due', 'paid']).meta({ description: '`none` when no deposit is asked.' }),
    depositReference: z.string().nullable(),
    expiresAt: z.iso.datetime(),
    tradeId: z.string().nullable().meta({ description: 'The trade a conversion opened.' }),
    reason: z.string().nullable(),
    buyer: z.strictObject({ externalId: z.string().nullable(), displayName: z.string().nullable() }).nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Hold' });
export type HoldResponse = z.output<typeof holdResponse>;

export const holdListResponse = listResponseSchema(holdResponse).meta({ id: 'HoldList' });

const at = '2025-11-23T09:00:00.000Z';
export const holdExample: HoldResponse = {
  id: 'hld_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  status: 'active',
  inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5',
  buyerRequestId: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  quantity: 1,
  amount: 425,
  depositAmount: 50,
  currency: 'USD',
  depositStatus: 'due',
  depositReference: null,
  expiresAt: '2025-11-25T09:00:00.000Z',
  tradeId: null,
  reason: null,
  buyer: { externalId: 'cust_8812', displayName: 'Ash K.' },
  createdAt: at,
  updatedAt: at,
};

export function toHoldResponse(doc: HoldDoc, buyer: HoldResponse['buyer']): HoldResponse {
  return {
    id: doc.id,
    status: doc.status,
    inventoryItemId: doc.inventoryItemId,
    buyerRequestId: doc.buyerRequestId,
    quantity: doc.quantity,
    amount: fromMinor(doc.amountMinor),
    depositAmount: fromMinor(doc.depositMinor),
    currency: doc.currency,
    depositStatus: doc.depositMinor === 0 ? 'none' : doc.depositPaidAt ? 'paid' : 'due',
    depositReference: doc.depositReference,
    expiresAt: doc.expiresAt,
    tradeId: doc.tradeId,
    reason: doc.reason,
    buyer,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
