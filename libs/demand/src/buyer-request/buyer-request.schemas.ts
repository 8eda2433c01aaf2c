// Request and response schemas of /api/v1/buyer-requests (they validate and they document), with
// examples, and the mappers from the read model to the answers.
import { z } from 'zod';

import { MATCH_KINDS, matchFactorResponse } from '@app/contracts';
import { currencyCode, fromMinor, listResponseSchema, moneyAmount, paginationQuery } from '@app/platform';

import { BUYER_ID_PATTERN } from '../buyer/buyer-id';
import type { BuyerIdentity } from './buyer-request-reader.port';
import type { MatchDoc } from './buyer-request-matches.projection';
import type { OpenedBuyerRequest } from './buyer-request.queries';

const cardName = z.string().trim().min(1).max(200).meta({ description: 'Name of the wanted item; normalized (see docs/conditions.md). The only required field.' });
const setName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta({
    description:
      'Set the item belongs to: name, code (`BS`) or id (`base1`). Absent or `null`: any printing of the card (any set, including stock whose set the catalogue does not know). ' +
      'A set the catalogue does not know is kept as typed and matches only stock typed the same way.',
  });
const condition = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .meta({
    description:
      'Lowest acceptable condition: raw (`Near Mint`, `NM`, `LP`…) or graded (`PSA 9`, `BGS 9.5`…). Absent or `null`: any condition. ' +
      'A condition the scale does not know is kept as typed and matches only that same condition.',
  });
const maxPrice = moneyAmount.meta({ description: 'Highest price the buyer will pay: a decimal with at most 2 places. Absent or `null`: no price limit.' });
const source = z.string().trim().min(1).max(100).meta({ description: 'Where the request came from.' });
const buyerText = z.string().trim().min(1).max(200);

/** Who the buyer is: personal data, stored encrypted and never logged nor sent in webhooks. */
export const buyerInput = z
  .strictObject({
    externalId: buyerText.optional().meta({ description: "The buyer's id in your own system (1–200 characters)." }),
    displayName: buyerText.optional().meta({ description: 'How the buyer is named to the other party of an offer or trade (1–200 characters).' }),
  })
  .refine((b) => b.externalId !== undefined || b.displayName !== undefined, { message: 'Give externalId, displayName or both' })
  .meta({
    id: 'BuyerInput',
    minProperties: 1,
    description:
      'Who the buyer is, so offers and trades can name their counterparty: `externalId`, `displayName` or both. ' +
      'Personal data: stored encrypted, answered only on reads of the request, never in webhook events.',
  });

/** What a client sent as the buyer, as the handlers take it (null: none). */
export function toBuyerIdentity(buyer: z.output<typeof buyerInput> | null | undefined): BuyerIdentity | null {
  if (!buyer) return null;
  return { externalId: buyer.externalId ?? null, displayName: buyer.displayName ?? null };
}

export const createBuyerRequestBody = z
  .strictObject({
    cardName,
    setName: setName.nullable().optional(),
    condition: condition.nullable().optional(),
    maxPrice: maxPrice.nullable().optional(),
    currency: currencyCode.optional().meta({ description: 'ISO 4217 code of `maxPrice` (and of the stock that can match: only items in this currency match); default `USD`.' }),
    source: source.optional(),
    buyer: buyerInput.nullable().optional().meta({ description: 'Who the buyer is (optional; `null` or absent: no buyer). Never part of matching.' }),
  })
  .meta({ id: 'CreateBuyerRequest' });

export const updateBuyerRequestBody = z
  .strictObject({
    cardName: cardName.optional(),
    setName: setName.nullable().optional().meta({ description: 'A set: only that printing. `null`: any printing (opens the field). Absent: unchanged.' }),
    condition: condition.nullable().optional().meta({ description: 'A condition: at least that. `null`: any condition (opens the field). Absent: unchanged.' }),
    maxPrice: maxPrice.nullable().optional().meta({ description: 'A price: at most that. `null`: no price limit (opens the field). Absent: unchanged.' }),
    currency: currencyCode.optional().meta({ description: 'ISO 4217 code of `maxPrice`.' }),
    source: source.nullable().optional(),
    buyer: buyerInput
      .nullable()
      .optional()
      .meta({ description: 'Replaces the buyer as a whole (an omitted `externalId` or `displayName` becomes null); `null` removes it. Never re-runs matching.' }),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Give at least one field to change' })
  .meta({ id: 'UpdateBuyerRequest' });

export const archiveBuyerRequestBody = z
  .strictObject({
    reason: z.string().trim().min(1).max(500).optional().meta({ description: 'Why the request is archived (kept for the record).' }),
  })
  .meta({ id: 'ArchiveBuyerRequest' });

export const buyerRequestIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Buyer request id (`br_…`).', examples: ['br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

const isoInstant = z.iso.datetime({ offset: true });

export const listBuyerRequestsQuery = paginationQuery.extend({
  status: z.enum(['open', 'matched', 'archived']).optional().meta({ description: '`open` (no match yet), `matched` or `archived`.' }),
  cardName: z.string().trim().min(1).max(200).optional().meta({ description: 'Only requests for this card (normalized: case, accents and spacing do not matter).' }),
  setName: z.string().trim().min(1).max(200).optional().meta({ description: 'Only requests for this set (name, code or id); requests for any printing are not among them (see `anySet`).' }),
  anySet: z.enum(['true', 'false']).optional().meta({ description: '`true`: only requests for any printing of their card (no `setName`); `false`: only requests naming a set. Not with `setName`.' }),
  anyCondition: z.enum(['true', 'false']).optional().meta({ description: '`true`: only requests taking any condition; `false`: only requests naming one.' }),
  anyPrice: z.enum(['true', 'false']).optional().meta({ description: '`true`: only requests without a price limit; `false`: only requests with a `maxPrice`.' }),
  buyerId: z.string().regex(BUYER_ID_PATTERN, 'A buyer id is `buyer_` and 26 characters a-z, 2-7').optional().meta({ description: 'Only requests of this widget buyer (`buyer_…`).' }),
  createdFrom: isoInstant.optional().meta({ description: 'Created at or after this instant (ISO 8601).' }),
  createdTo: isoInstant.optional().meta({ description: 'Created before this instant (ISO 8601).' }),
});

const buyerResponse = z
  .strictObject({
    externalId: z.string().nullable().meta({ description: "The buyer's id in your own system." }),
    displayName: z.string().nullable().meta({ description: 'How the buyer is named to the other party.' }),
  })
  .meta({ id: 'Buyer', description: 'Who the buyer is (personal data: never in webhook events).' });

const contactResponse = z
  .strictObject({
    email: z.string().meta({ description: 'The email the buyer left in the widget.' }),
    note: z.string().nullable().meta({ description: 'Their note, if any.' }),
  })
  .meta({
    id: 'BuyerContact',
    description:
      "How to reach a buyer who left a want list (personal data: sealed with the buyer's own key, never in logs nor webhook events; " +
      'unreadable for good once their personal data is erased).',
  });

export const buyerRequestResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Buyer request id (`br_…`).' }),
    cardName: z.string().meta({ description: 'Normalized card name.' }),
    setName: z.string().nullable().meta({ description: 'Normalized set name; `null`: any printing of the card.' }),
    condition: z.string().nullable().meta({ description: 'Normalized lowest acceptable condition; `null`: any condition.' }),
    maxPrice: z.number().nullable().meta({ description: 'Decimal, at most 2 places, in `currency`; `null`: no price limit.' }),
    currency: z.string().meta({ description: 'ISO 4217 code.' }),
    source: z.string().nullable(),
    buyer: buyerResponse.nullable().meta({ description: 'Who the buyer is; null when the request names none.' }),
    buyerId: z.string().nullable().meta({ description: 'The widget buyer who asked (`buyer_…`, the same for every request of one email); null for requests without a contact.' }),
    contact: contactResponse.nullable().meta({ description: 'How to reach the buyer, while readable; null when the request has none or it was erased.' }),
    contactErased: z.boolean().meta({ description: "The buyer's personal data was erased (`DELETE /api/v1/buyers/{id}/personal-data`): the contact no longer opens." }),
    status: z.enum(['open', 'matched', 'archived']).meta({ description: '`open` until the first full match, then `matched`; `archived` never matches again.' }),
    matchCount: z.number().int().min(0).meta({ description: 'Full matches found so far (at most 100 are kept).' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    archivedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'BuyerRequest' });

export type BuyerRequestResponse = z.output<typeof buyerRequestResponse>;

export const createdBuyerRequestResponse = z
  .strictObject({
    id: z.string().meta({ description: 'The new buyer request\'s id (`br_…`).' }),
    matchCount: z.number().int().min(0).meta({ description: 'Instant matches found; greater than 0 means matches exist.' }),
  })
  .meta({ id: 'CreatedBuyerRequest' });

export const buyerRequestListResponse = listResponseSchema(buyerRequestResponse).meta({ id: 'BuyerRequestList' });

export const matchResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Match id (`mt_…`); a trade is created from it.' }),
    buyerRequestId: z.string(),
    inventoryItemId: z.string(),
    kind: z.enum(MATCH_KINDS).meta({ description: '`full` meets every criterion; `near_miss` is close (a typo, one condition step, ≤ 10 % over the price).' }),
    score: z.number().min(0).max(1),
    factors: z.array(matchFactorResponse),
    reasons: z.array(z.string()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Match' });

export type MatchResponse = z.output<typeof matchResponse>;

export const matchListResponse = listResponseSchema(matchResponse).meta({ id: 'MatchList' });

export const createBuyerRequestExample = {
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  maxPrice: 450.5,
  currency: 'USD',
  source: 'card-show',
  buyer: { externalId: 'cust_8812', displayName: 'Sam Collector' },
};

export const buyerRequestExample: BuyerRequestResponse = {
  id: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  ...createBuyerRequestExample,
  buyerId: null,
  contact: null,
  contactErased: false,
  status: 'matched',
  matchCount: 1,
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:05.000Z',
  archivedAt: null,
};

export const matchExample: MatchResponse = {
  id: 'mt_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4',
  buyerRequestId: buyerRequestExample.id,
  inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5',
  kind: 'full',
  score: 0.95,
  factors: [
    { name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 },
    { name: 'set', value: 1, weight: 0.2, contribution: 0.2 },
    { name: 'condition_margin', value: 0.8, weight: 0.2, contribution: 0.16 },
    { name: 'price_headroom', value: 0.95, weight: 0.2, contribution: 0.19 },
  ],
  reasons: ['same card', 'same set', 'Near Mint meets the requested Near Mint', 'price 400.00 is 11 % under the 450.50 maximum'],
  createdAt: '2025-11-22T15:04:05.000Z',
};

export function toBuyerRequestResponse(doc: OpenedBuyerRequest): BuyerRequestResponse {
  return {
    id: doc.id,
    cardName: doc.cardName,
    setName: doc.setName,
    condition: doc.condition,
    maxPrice: doc.maxPriceMinor === null ? null : fromMinor(doc.maxPriceMinor),
    currency: doc.currency,
    source: doc.source,
    buyer: doc.buyer,
    buyerId: doc.buyerId,
    contact: doc.contact,
    contactErased: doc.contactErased,
    status: doc.status,
    matchCount: doc.matchCount,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    archivedAt: doc.archivedAt ?? null,
  };
}

export function toMatchResponse(doc: MatchDoc): MatchResponse {
  return {
    id: doc.id,
    buyerRequestId: doc.buyerRequestId,
    inventoryItemId: doc.inventoryItemId,
    kind: doc.kind,
    score: doc.score,
    factors: doc.factors,
    reasons: doc.reasons,
    createdAt: doc.createdAt,
  };
}
