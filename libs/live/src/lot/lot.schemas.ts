// Request and response schemas of /api/v1/live-sessions/:id/lots (a session's lots and the reserves
// on them): they validate and they document, with examples; and the mappers from the read models.
import { z } from 'zod';

import { type BuyerIdentity, fromMinor, listResponseSchema, moneyAmount, paginationQuery } from '@app/platform';

import { minimumOf } from './lot.decider';
import { LOT_STATUSES } from './lot.events';
import type { LotDoc, ReserveFacts } from './lot.projection';

const id = (what: string) => z.string().trim().min(1).max(64).meta({ description: what });
const at = '2025-11-23T20:00:00.000Z';

export const addLotBody = z
  .strictObject({
    inventoryItemId: id('The item put up (`inv_…`), priced in the session\'s currency.'),
    quantity: z.number().int().min(1).max(10_000).optional().meta({ description: 'Units in the lot (at most the item\'s); default 1. Reserved from inventory while the lot is open.' }),
    startingPrice: moneyAmount.meta({ description: 'The lowest acceptable reserve: an auction\'s opening bid, a claim sale\'s price per unit.' }),
    increment: moneyAmount
      .refine((v) => v > 0, { message: 'must be more than 0' })
      .optional()
      .meta({ description: 'Set: an auction (each reserve must beat the best by at least this; the best wins the whole lot). Absent: a claim sale (one unit per claim at or above the starting price, first come first served; later claims are waitlisted).' }),
  })
  .meta({ id: 'AddLot' });

export const lotParams = z.object({
  id: id('Live session id (`ls_…`).').meta({ examples: ['ls_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
  lotId: id('Lot id (`lot_…`).').meta({ examples: ['lot_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

export const listLotsQuery = paginationQuery.extend({
  status: z.enum(LOT_STATUSES).optional().meta({ description: 'Only lots in this status.' }),
});

const money = z.number().meta({ description: 'A decimal with at most 2 places, in the lot\'s currency.' });

export const lotResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Lot id (`lot_…`).' }),
    liveSessionId: z.string(),
    status: z.enum(LOT_STATUSES).meta({ description: '`pending` (added) → `open` (taking reserves; its units reserved) → `closed`.' }),
    saleType: z.enum(['auction', 'claim']),
    inventoryItemId: z.string(),
    cardName: z.string(),
    setName: z.string(),
    quantity: z.number().int(),
    startingPrice: money,
    increment: money.nullable(),
    currency: z.string(),
    reserveCount: z.number().int().meta({ description: 'Reserves placed on it.' }),
    best: z.strictObject({ reserveId: z.string(), amount: money }).nullable().meta({ description: 'The auction\'s leading reserve, or a claim sale\'s highest winning claim.' }),
    minimumAmount: money.nullable().meta({ description: 'While open: the lowest amount the next reserve may offer.' }),
    claimedUnits: z.number().int().meta({ description: 'A claim sale: units claimed so far.' }),
    winners: z
      .array(z.strictObject({ reserveId: z.string(), amount: money, quantity: z.number().int(), holdId: z.string().nullable(), tradeId: z.string().nullable() }))
      .meta({ description: 'Once closed: the winning reserves and, once settled, the hold or trade each got.' }),
    unsold: z.number().int().nullable().meta({ description: 'Once closed: units no reserve took (available again).' }),
    settled: z.boolean().meta({ description: 'Whether the winners\' holds or trades exist (shortly after the close).' }),
    openedAt: z.string().nullable(),
    closedAt: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Lot' });
export type LotResponse = z.output<typeof lotResponse>;
export const lotListResponse = listResponseSchema(lotResponse).meta({ id: 'LotList' });

export const lotExample: LotResponse = {
  id: 'lot_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  liveSessionId: 'ls_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  status: 'open',
  saleType: 'auction',
  inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5',
  cardName: 'Charizard',
  setName: 'Base Set',
  quantity: 1,
  startingPrice: 300,
  increment: 10,
  currency: 'USD',
  reserveCount: 2,
  best: { reserveId: 'rsv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4', amount: 310 },
  minimumAmount: 320,
  claimedUnits: 0,
  winners: [],
  unsold: null,
  settled: false,
  openedAt: at,
  closedAt: null,
  createdAt: at,
  updatedAt: at,
};

export function toLotResponse(doc: LotDoc): LotResponse {
  const leader = doc.incrementMinor !== null && doc.bestAmountMinor !== null ? { amountMinor: doc.bestAmountMinor } : null;
  const best = doc.bestReserveId ? { reserveId: doc.bestReserveId, amount: fromMinor(doc.bestAmountMinor ?? 0) } : null;
  return {
    id: doc.id,
    liveSessionId: doc.sessionId,
    status: doc.status,
    saleType: doc.incrementMinor === null ? 'claim' : 'auction',
    inventoryItemId: doc.inventoryItemId,
    cardName: doc.cardName,
    setName: doc.setName,
    quantity: doc.quantity,
    startingPrice: fromMinor(doc.startingPriceMinor),
    increment: doc.incrementMinor === null ? null : fromMinor(doc.incrementMinor),
    currency: doc.currency,
    reserveCount: doc.reserveCount,
    best,
    minimumAmount: doc.status === 'open' ? fromMinor(minimumOf({ ...doc, leader })) : null,
    claimedUnits: doc.claimedUnits,
    winners: doc.winners.map((w) => ({ reserveId: w.reserveId, amount: fromMinor(w.amountMinor), quantity: w.quantity, holdId: w.holdId, tradeId: w.tradeId })),
    unsold: doc.unsold,
    settled: doc.settled,
    openedAt: doc.openedAt,
    closedAt: doc.closedAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

// ---- reserves

export const placeReserveBody = z
  .strictObject({
    buyer: z
      .strictObject({
        externalId: z.string().trim().min(1).max(200).meta({ description: 'The bidder\'s id in your system (chat handle, customer id).' }),
        displayName: z.string().trim().min(1).max(200).optional().meta({ description: 'How the bidder is named.' }),
      })
      .meta({ description: 'Who reserves. Personal data: stored encrypted, answered on reads of the reserve and the hold or trade it wins, never in webhook events.' }),
    amount: moneyAmount.meta({ description: 'An auction: the bid for the whole lot (at least the starting price, then the best plus the increment). A claim sale: the price per unit (at least the starting price).' }),
    buyerRequestId: id('The buyer request this bidder came from (`br_…`), when any.').optional(),
  })
  .meta({ id: 'PlaceReserve' });

export const reserveStandings = ['leading', 'outbid', 'won', 'waitlisted'] as const;

export const reserveResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Reserve id (`rsv_…`).' }),
    liveSessionId: z.string(),
    lotId: z.string(),
    sequence: z.number().int().meta({ description: '1, 2, 3…: its place in the lot\'s order (the log\'s order).' }),
    amount: money,
    currency: z.string(),
    standing: z.enum(reserveStandings).meta({
      description: 'An auction: `leading` until a later reserve beats it (`outbid`); the leader at close `won`. A claim sale: `won` (it took a unit) or `waitlisted` (units were gone; kept in order).',
    }),
    quantity: z.number().int().meta({ description: 'Units it holds or won (0 when waitlisted).' }),
    buyer: z.strictObject({ externalId: z.string().nullable(), displayName: z.string().nullable() }).nullable(),
    buyerRequestId: z.string().nullable(),
    holdId: z.string().nullable().meta({ description: 'Once its lot is settled: the hold it won.' }),
    tradeId: z.string().nullable().meta({ description: 'Once its lot is settled: the trade it won.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Reserve' });
export type ReserveResponse = z.output<typeof reserveResponse>;
export const reserveListResponse = listResponseSchema(reserveResponse).meta({ id: 'ReserveList' });

export const reserveExample: ReserveResponse = {
  id: 'rsv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4',
  liveSessionId: 'ls_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  lotId: 'lot_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  sequence: 2,
  amount: 310,
  currency: 'USD',
  standing: 'leading',
  quantity: 1,
  buyer: { externalId: 'twitch:ashk', displayName: 'Ash K.' },
  buyerRequestId: null,
  holdId: null,
  tradeId: null,
  createdAt: at,
};

/**
 * A reserve as placed, with what its lot says of it since: an auction's leader is outbid once the
 * lot's best is another, and wins when the lot closes as its best; a winner's hold or trade is the
 * one the lot's settlement recorded.
 */
export function toReserveResponse(doc: ReserveFacts, lot: Pick<LotDoc, 'status' | 'bestReserveId' | 'winners'>, buyer: BuyerIdentity | null): ReserveResponse {
  const standing = doc.standing === 'leading' ? (lot.bestReserveId !== doc.id ? 'outbid' : lot.status === 'closed' ? 'won' : 'leading') : doc.standing;
  const award = lot.winners.find((w) => w.reserveId === doc.id);
  return {
    id: doc.id,
    liveSessionId: doc.sessionId,
    lotId: doc.lotId,
    sequence: doc.sequence,
    amount: fromMinor(doc.amountMinor),
    currency: doc.currency,
    standing,
    quantity: doc.quantity,
    buyer,
    buyerRequestId: doc.buyerRequestId,
    holdId: award?.holdId ?? null,
    tradeId: award?.tradeId ?? null,
    createdAt: doc.createdAt,
  };
}
