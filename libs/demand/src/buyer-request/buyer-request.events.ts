// Stored contract of the buyer request aggregate. A request owns the matches found for it, so
// recording a match is idempotent per (request, inventory item) by the aggregate's own state.
// Public (webhooks): buyer_request.created / matched / archived, match.created; internal:
// buyer_request.updated (not in the spec's list). Reading events back (with the upcasting of old
// versions, which needs the catalogue): buyer-request.parse.ts.
// The buyer (personal data) is stored only sealed (`buyerSealed`, see buyer-request.buyer.ts):
// never in clear in the log, and never in a public event's data. A request taken by the widget
// also names its buyer by a pseudonymous id (`buyerId`) and holds the buyer's contact sealed with
// that buyer's own data key (`contactSealed`, see ../buyer): erasing the buyer's personal data
// destroys the key, and the contact is unreadable wherever this event lies.
import { z } from 'zod';

import { MATCH_KINDS, matchFactor } from '@app/contracts';

/** What matching queries by index, derived by @app/catalog from the display fields. */
export const requestMatchFields = z.object({
  cardKey: z.string(),
  setKey: z.string(),
  matchKey: z.string(),
  conditionClass: z.string(),
  conditionScore: z.number(),
  gradingCompany: z.string().nullable(),
});
export type RequestMatchFields = z.infer<typeof requestMatchFields>;

export const typedInput = z.object({ cardName: z.string(), setName: z.string(), condition: z.string() });
export type TypedInput = z.infer<typeof typedInput>;

export const buyerRequestCriteria = z.object({
  cardName: z.string(),
  setName: z.string(),
  condition: z.string(),
  maxPriceMinor: z.number().int(),
  currency: z.string(),
  source: z.string().nullable(),
  match: requestMatchFields,
});
export type BuyerRequestCriteria = z.infer<typeof buyerRequestCriteria>;

/**
 * Who the buyer is, sealed with the SecretBox (`sb1.…`, bound to the request): null when the
 * request names no buyer. Events written before buyers existed have no field: read as null.
 */
const storedBuyerSealed = z.string().nullable().optional();

/** The widget's buyer (`buyer_…`) and their contact sealed with their own key; absent before the widget: null. */
const storedBuyerId = z.string().nullable().optional();
const storedContactSealed = z.string().nullable().optional();

/** `created` as stored. Version 1 had no `match` and no `input` (see buyer-request.parse.ts). */
export const storedBuyerRequestCreated = buyerRequestCriteria.extend({
  buyerRequestId: z.string(),
  match: requestMatchFields.optional(),
  input: typedInput.optional(),
  /** The log position the instant check saw inventory up to (reverse matching checks the rest). */
  matchedThrough: z.number().int().optional(),
  buyerSealed: storedBuyerSealed,
  buyerId: storedBuyerId,
  contactSealed: storedContactSealed,
  createdAt: z.string(),
});
/** `created` as read back: every version carries the match identity, what was typed, the (sealed) buyer and contact. */
export type BuyerRequestCreated = z.output<typeof storedBuyerRequestCreated> & {
  match: RequestMatchFields;
  input: TypedInput;
  buyerSealed: string | null;
  buyerId: string | null;
  contactSealed: string | null;
};

/** `updated` as stored: the whole request after the change (the sealed buyer too), and what changed. */
export const storedBuyerRequestUpdated = buyerRequestCriteria.extend({
  buyerRequestId: z.string(),
  /** Criteria fields that changed, and `buyer` when the buyer did. */
  changedFields: z.array(z.string()),
  input: typedInput.partial(),
  matchedThrough: z.number().int().optional(),
  buyerSealed: storedBuyerSealed,
  updatedAt: z.string(),
});
/** `updated` as read back: every version carries the (sealed) buyer. */
export type BuyerRequestUpdated = z.output<typeof storedBuyerRequestUpdated> & { buyerSealed: string | null };

export const buyerRequestArchived = z.object({
  buyerRequestId: z.string(),
  reason: z.string().nullable(),
  archivedAt: z.string(),
});
export type BuyerRequestArchived = z.infer<typeof buyerRequestArchived>;

export const matchCreated = z.object({
  matchId: z.string(),
  buyerRequestId: z.string(),
  inventoryItemId: z.string(),
  kind: z.enum(MATCH_KINDS),
  score: z.number(),
  factors: z.array(matchFactor),
  reasons: z.array(z.string()),
  createdAt: z.string(),
});
export type MatchCreated = z.infer<typeof matchCreated>;

export const buyerRequestMatched = z.object({
  buyerRequestId: z.string(),
  /** The full matches this event adds (new pairs, or near misses that became full). */
  matches: z.array(z.object({ matchId: z.string(), inventoryItemId: z.string(), score: z.number() })),
  /** Full matches of the request after this event. */
  matchCount: z.number().int(),
  matchedAt: z.string(),
});
export type BuyerRequestMatched = z.infer<typeof buyerRequestMatched>;

export type BuyerRequestEvent =
  | { type: 'buyer_request.created'; data: BuyerRequestCreated }
  | { type: 'buyer_request.updated'; data: BuyerRequestUpdated }
  | { type: 'buyer_request.archived'; data: BuyerRequestArchived }
  | { type: 'buyer_request.matched'; data: BuyerRequestMatched }
  | { type: 'match.created'; data: MatchCreated };

export const BUYER_REQUEST_EVENT_TYPES = [
  'buyer_request.created',
  'buyer_request.updated',
  'buyer_request.archived',
  'buyer_request.matched',
  'match.created',
] as const;

export const buyerRequestStream = (id: string) => `buyer_request-${id}`;

/** The AAD a request's buyer is sealed with (BuyerSeal): the request it belongs to. */
export const buyerSealContext = (buyerRequestId: string): string => `buyer_request:${buyerRequestId}`;

/** The AAD a request's contact is sealed with (the buyer's own key): the request it belongs to. */
export const contactSealContext = (buyerRequestId: string): string => `buyer_request:${buyerRequestId}:contact`;
