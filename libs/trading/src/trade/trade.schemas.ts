// Request and response schemas of /api/v1/trades (they validate and they document), with examples,
// and the mapper from the read model to the answer.
import { z } from 'zod';

import { currencyCode, fromMinor, isoInstant, listResponseSchema, moneyAmount, paginationQuery } from '@app/platform';

import { allowedMoves } from './trade.decider';
import { CANCEL_PARTIES, TRADE_STATUSES, type TradeStatus } from './trade.events';
import type { TradeDoc } from './trade.projection';

const id = (what: string) => z.string().trim().min(1).max(64).meta({ description: what });
const quantity = z.number().int().min(1).max(10_000).meta({ description: 'Units to trade; default 1.' });

export const createTradeBody = z
  .strictObject({
    matchId: id('Trade the match (`mt_…`) a match run or reverse matching recorded: its item, for its buyer request.').optional(),
    offerId: id('An accepted offer (`ofr_…`): answers the trade its acceptance opened.').optional(),
    inventoryItemId: id('Trade this item (`inv_…`) directly.').optional(),
    buyerRequestId: id('The buyer request the trade answers (`br_…`), with `inventoryItemId`.').optional(),
    amount: moneyAmount.optional().meta({ description: 'The agreed amount for all units; default the item\'s price × quantity.' }),
    currency: currencyCode.optional().meta({ description: 'Must be the item\'s currency; default it.' }),
    quantity: quantity.optional(),
  })
  .superRefine((b, ctx) => {
    const sources = [b.matchId, b.offerId, b.inventoryItemId].filter((v) => v !== undefined).length;
    if (sources !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'Give exactly one of matchId, offerId or inventoryItemId' });
    if (b.offerId !== undefined && (b.amount !== undefined || b.quantity !== undefined || b.buyerRequestId !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['offerId'], message: 'An offer\'s trade has the offer\'s terms: give only offerId' });
    }
    if (b.matchId !== undefined && b.buyerRequestId !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['buyerRequestId'], message: 'A match names its buyer request already' });
    }
  })
  .meta({ id: 'CreateTrade' });
export type CreateTradeBody = z.output<typeof createTradeBody>;

export const transitionTradeBody = z
  .strictObject({
    to: z.enum(TRADE_STATUSES).meta({ description: 'The status to move to (see `allowedTransitions`).' }),
    reason: z.string().trim().min(1).max(500).optional().meta({ description: 'Why (required to open a dispute).' }),
    reference: z.string().trim().min(1).max(200).optional().meta({ description: 'A payment reference (with `paid`) or any reference of yours.' }),
    carrier: z.string().trim().min(1).max(100).optional().meta({ description: 'With `shipped`: the carrier.' }),
    trackingNumber: z.string().trim().min(1).max(100).optional().meta({ description: 'With `shipped`: the tracking number.' }),
    cancelledBy: z
      .enum(CANCEL_PARTIES)
      .optional()
      .meta({
        description:
          'With `cancelled`: who caused the cancel. Seller trust counts a cancel against the seller when it says `seller`, or when it is unstated and the buyer had paid.',
      }),
  })
  .meta({ id: 'TransitionTrade' });

export const tradeIdParams = z.object({ id: id('Trade id (`trd_…`).').meta({ examples: ['trd_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }) });

export const listTradesQuery = paginationQuery.extend({
  status: z.enum(TRADE_STATUSES).optional().meta({ description: 'Only trades in this status.' }),
  inventoryItemId: id('Only trades of this item.').optional(),
  buyerRequestId: id('Only trades answering this buyer request.').optional(),
  createdFrom: isoInstant.optional().meta({ description: 'Created at or after this instant (ISO 8601).' }),
  createdTo: isoInstant.optional().meta({ description: 'Created before this instant (ISO 8601).' }),
});

const buyer = z
  .strictObject({ externalId: z.string().nullable(), displayName: z.string().nullable() })
  .nullable()
  .meta({ description: 'The buyer, as the buyer request names them; null without one.' });

const timelineEntry = z.strictObject({
  status: z.enum(TRADE_STATUSES),
  at: z.iso.datetime(),
  by: z.enum(['client', 'timer']).meta({ description: '`timer`: the dispute window passed.' }),
  reason: z.string().nullable(),
  reference: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
});

export const tradeResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Trade id (`trd_…`).' }),
    status: z.enum(TRADE_STATUSES),
    allowedTransitions: z.array(z.enum(TRADE_STATUSES)).meta({ description: 'Where `POST /trades/:id/transitions` may move it now.' }),
    inventoryItemId: z.string(),
    buyerRequestId: z.string().nullable(),
    matchId: z.string().nullable(),
    offerId: z.string().nullable(),
    holdId: z.string().nullable(),
    quantity: z.number().int(),
    amount: z.number().meta({ description: 'The agreed amount for all units.' }),
    currency: z.string(),
    depositAmount: z.number().meta({ description: 'A hold\'s deposit already paid toward the amount.' }),
    amountDue: z.number().meta({ description: '`amount` less `depositAmount`: what the buyer pays.' }),
    refundDue: z.boolean().meta({ description: 'True once the buyer is owed their money back (a cancel after payment, a refunded dispute).' }),
    paymentReference: z.string().nullable(),
    shipment: z.strictObject({ carrier: z.string().nullable(), trackingNumber: z.string().nullable() }).nullable(),
    dispute: z
      .strictObject({ reason: z.string().nullable(), openedAt: z.iso.datetime(), resolution: z.enum(['refund', 'release']).nullable() })
      .nullable(),
    buyer,
    timeline: z.array(timelineEntry).optional().meta({ description: 'Every move, oldest first, read from the log (on `GET /trades/:id`).' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Trade' });
export type TradeResponse = z.output<typeof tradeResponse>;
export type TimelineEntry = z.output<typeof timelineEntry>;

export const tradeListResponse = listResponseSchema(tradeResponse).meta({ id: 'TradeList' });

const at = '2025-11-23T09:00:00.000Z';
export const tradeExample: TradeResponse = {
  id: 'trd_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  status: 'shipped',
  allowedTransitions: allowedMoves('shipped'),
  inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5',
  buyerRequestId: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  matchId: 'mt_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4',
  offerId: null,
  holdId: null,
  quantity: 1,
  amount: 425,
  currency: 'USD',
  depositAmount: 0,
  amountDue: 425,
  refundDue: false,
  paymentReference: 'pi_3Q…',
  shipment: { carrier: 'USPS', trackingNumber: '9400 1000 0000 0000 0000 00' },
  dispute: null,
  buyer: { externalId: 'cust_8812', displayName: 'Ash K.' },
  timeline: [
    { status: 'initiated', at, by: 'client', reason: null, reference: null, carrier: null, trackingNumber: null },
    { status: 'paid', at, by: 'client', reason: null, reference: 'pi_3Q…', carrier: null, trackingNumber: null },
    { status: 'shipped', at, by: 'client', reason: null, reference: null, carrier: 'USPS', trackingNumber: '9400 1000 0000 0000 0000 00' },
  ],
  createdAt: at,
  updatedAt: at,
};

export function toTradeResponse(doc: TradeDoc, buyerOf: TradeResponse['buyer'], timeline?: TimelineEntry[]): TradeResponse {
  return {
    id: doc.id,
    status: doc.status,
    allowedTransitions: allowedMoves(doc.status as TradeStatus),
    inventoryItemId: doc.inventoryItemId,
    buyerRequestId: doc.buyerRequestId,
    matchId: doc.matchId,
    offerId: doc.offerId,
    holdId: doc.holdId,
    quantity: doc.quantity,
    amount: fromMinor(doc.amountMinor),
    currency: doc.currency,
    depositAmount: fromMinor(doc.depositMinor),
    amountDue: fromMinor(doc.amountMinor - doc.depositMinor),
    refundDue: doc.refundDue,
    paymentReference: doc.paymentReference,
    shipment: doc.carrier || doc.trackingNumber ? { carrier: doc.carrier, trackingNumber: doc.trackingNumber } : null,
    dispute: doc.dispute,
    buyer: buyerOf,
    ...(timeline ? { timeline } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
