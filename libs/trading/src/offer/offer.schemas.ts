// Request and response schemas of /api/v1/offers (they validate and they document), with examples,
// and the mapper from the read model to the answer.
import { z } from 'zod';

import { currencyCode, fromMinor, listResponseSchema, moneyAmount, paginationQuery } from '@app/platform';

import { OFFER_PARTIES, OFFER_STATUSES } from './offer.events';
import type { OfferDoc } from './offer.projection';

const id = (what: string) => z.string().trim().min(1).max(64).meta({ description: what });
const message = z.string().trim().min(1).max(1000).meta({ description: 'A note to the other party.' });
const party = z
  .enum(OFFER_PARTIES)
  .meta({ description: 'Who answers: the party the offer was made to. Default `seller` (the API key\'s holder); send `buyer` to relay the buyer\'s answer.' });

export const makeOfferBody = z
  .strictObject({
    inventoryItemId: id('The item offered on (`inv_…`).'),
    buyerRequestId: id('The buyer request it answers (`br_…`).').optional(),
    matchId: id('The match it is about (`mt_…`).').optional(),
    amount: moneyAmount.meta({ description: 'The offered amount for all units.' }),
    currency: currencyCode.optional().meta({ description: 'Must be the item\'s currency; default it.' }),
    quantity: z.number().int().min(1).max(10_000).optional().meta({ description: 'Units; default 1.' }),
    from: z.enum(OFFER_PARTIES).meta({ description: 'Who makes it: `seller` (you) or `buyer` (relayed by you).' }),
    message: message.optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional().meta({ description: 'When it lapses unanswered; default 48 h from now.' }),
  })
  .meta({ id: 'MakeOffer' });

export const acceptOfferBody = z.strictObject({ party: party.optional() }).meta({ id: 'AcceptOffer' });
export const rejectOfferBody = z
  .strictObject({ party: party.optional(), reason: z.string().trim().min(1).max(500).optional().meta({ description: 'Why (kept for the record).' }) })
  .meta({ id: 'RejectOffer' });
export const counterOfferBody = z
  .strictObject({ party: party.optional(), amount: moneyAmount.meta({ description: 'The counter amount.' }), message: message.optional() })
  .meta({ id: 'CounterOffer' });

export const offerIdParams = z.object({ id: id('Offer id (`ofr_…`).').meta({ examples: ['ofr_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }) });

export const listOffersQuery = paginationQuery.extend({
  status: z.enum(OFFER_STATUSES).optional().meta({ description: 'Only offers in this status.' }),
  inventoryItemId: id('Only offers on this item.').optional(),
  buyerRequestId: id('Only offers for this buyer request.').optional(),
  threadId: id('Only the offers of this thread (its first offer\'s id).').optional(),
});

const offerFields = {
  id: z.string().meta({ description: 'Offer id (`ofr_…`).' }),
  threadId: z.string().meta({ description: 'The negotiation thread: its first offer\'s id.' }),
  countersOfferId: z.string().nullable().meta({ description: 'The offer this one counters.' }),
  status: z.enum(OFFER_STATUSES),
  from: z.enum(OFFER_PARTIES),
  inventoryItemId: z.string(),
  buyerRequestId: z.string().nullable(),
  matchId: z.string().nullable(),
  amount: z.number(),
  currency: z.string(),
  quantity: z.number().int(),
  message: z.string().nullable(),
  expiresAt: z.iso.datetime(),
  tradeId: z.string().nullable().meta({ description: 'The trade its acceptance opened.' }),
  counterOfferId: z.string().nullable().meta({ description: 'The counter-offer that answered it.' }),
  answeredBy: z.enum(OFFER_PARTIES).nullable(),
  reason: z.string().nullable(),
  buyer: z.strictObject({ externalId: z.string().nullable(), displayName: z.string().nullable() }).nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

const threadOffer = z.strictObject(offerFields).meta({ id: 'OfferInThread' });

export const offerResponse = z
  .strictObject({
    ...offerFields,
    thread: z.array(threadOffer).optional().meta({ description: 'Every offer of the thread, oldest first (on `GET /offers/:id`).' }),
  })
  .meta({ id: 'Offer' });
export type OfferResponse = z.output<typeof offerResponse>;

export const offerListResponse = listResponseSchema(offerResponse).meta({ id: 'OfferList' });

const at = '2025-11-23T09:00:00.000Z';
export const offerExample: OfferResponse = {
  id: 'ofr_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  threadId: 'ofr_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  countersOfferId: null,
  status: 'pending',
  from: 'seller',
  inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5',
  buyerRequestId: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  matchId: 'mt_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4',
  amount: 440,
  currency: 'USD',
  quantity: 1,
  message: 'Near Mint, ships tomorrow',
  expiresAt: '2025-11-25T09:00:00.000Z',
  tradeId: null,
  counterOfferId: null,
  answeredBy: null,
  reason: null,
  buyer: { externalId: 'cust_8812', displayName: 'Ash K.' },
  createdAt: at,
  updatedAt: at,
};

export function toOfferResponse(doc: OfferDoc, buyer: OfferResponse['buyer'], thread?: OfferDoc[]): OfferResponse {
  const one = (d: OfferDoc) => ({
    id: d.id,
    threadId: d.threadId,
    countersOfferId: d.countersOfferId,
    status: d.status,
    from: d.from,
    inventoryItemId: d.inventoryItemId,
    buyerRequestId: d.buyerRequestId,
    matchId: d.matchId,
    amount: fromMinor(d.amountMinor),
    currency: d.currency,
    quantity: d.quantity,
    message: d.message,
    expiresAt: d.expiresAt,
    tradeId: d.tradeId,
    counterOfferId: d.counterOfferId,
    answeredBy: d.answeredBy,
    reason: d.reason,
    buyer,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  });
  return { ...one(doc), ...(thread ? { thread: thread.map(one) } : {}) };
}
