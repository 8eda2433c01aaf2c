// Stored contract of the buyer request aggregate. A request owns the matches found for it, so
// recording a match is idempotent per (request, inventory item) by the aggregate's own state.
// Public (webhooks): buyer_request.created / archived as stored; buyer_request.matched and
// match.created are what `buyer_request.matches_recorded` (internal) stands for, one public event
// per match (buyer-request.public.ts). Internal: buyer_request.updated (not in the spec's list) and
// buyer_request.matches_recorded. Reading events back (with the upcasting of old versions, which
// needs the catalogue): buyer-request.parse.ts.
// The buyer (personal data) is stored only sealed (`buyerSealed`, see buyer-request.buyer.ts):
// never in clear in the log, and never in a public event's data. A request taken by the widget
// also names its buyer by a pseudonymous id (`buyerId`) and holds the buyer's contact sealed with
// that buyer's own data key (`contactSealed`, see ../buyer): erasing the buyer's personal data
// destroys the key, and the contact is unreadable wherever this event lies.
import { z } from 'zod';

import { MATCH_KINDS, matchFactor } from '@app/contracts';

/**
 * What matching queries by index, derived by @app/catalog from the display fields (normalizeWant):
 * a request for any printing has `setKey` `*` and `matchKey` `*|<cardKey>`; one for any condition
 * has `conditionClass` `*` and `conditionScore` 0.
 */
export const requestMatchFields = z.object({
  cardKey: z.string(),
  setKey: z.string(),
  matchKey: z.string(),
  conditionClass: z.string(),
  conditionScore: z.number(),
  gradingCompany: z.string().nullable(),
});
export type RequestMatchFields = z.infer<typeof requestMatchFields>;

/** What was typed (null: the field was left open). */
export const typedInput = z.object({ cardName: z.string(), setName: z.string().nullable(), condition: z.string().nullable() });
export type TypedInput = z.infer<typeof typedInput>;

/**
 * Only the card is required: a null `setName` is any printing of the card, a null `condition` any
 * condition, a null `maxPriceMinor` no price limit. Events written before open fields always
 * carry all three, and read the same.
 */
export const buyerRequestCriteria = z.object({
  cardName: z.string(),
  setName: z.string().nullable(),
  condition: z.string().nullable(),
  maxPriceMinor: z.number().int().nullable(),
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

/** A match as `match.created` (stored before matches_recorded, see below) carried it. */
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

/** A full match a write adds to its request: a new pair, or a near miss that became full (which keeps its id). */
export const newlyFullMatch = z.object({ matchId: z.string(), inventoryItemId: z.string(), score: z.number() });
export type NewlyFullMatch = z.infer<typeof newlyFullMatch>;

/** `buyer_request.matched` as stored before matches_recorded (read back as one, see buyer-request.parse.ts). */
export const buyerRequestMatched = z.object({
  buyerRequestId: z.string(),
  /** The full matches this event adds (new pairs, or near misses that became full). */
  matches: z.array(newlyFullMatch),
  /** Full matches of the request after this event. */
  matchCount: z.number().int(),
  matchedAt: z.string(),
});
export type BuyerRequestMatched = z.infer<typeof buyerRequestMatched>;

/** A new match as matches_recorded carries it: its request and time are the event's. */
export const recordedNewMatch = matchCreated.omit({ buyerRequestId: true, createdAt: true });
export type RecordedNewMatch = z.infer<typeof recordedNewMatch>;

/**
 * `buyer_request.matches_recorded` — INTERNAL, never delivered as such: every match one write
 * records on a request (its creation, a change of its criteria, a reverse-matching batch, a match
 * run), in one event. It stands for the public events the log held one by one before it: a
 * `buyer_request.matched` when `full` is not empty, then one `match.created` per entry of `created`
 * (buyer-request.public.ts). Logs written before it hold those two types instead; they are read
 * back as this event (buyer-request.parse.ts), so every reader knows one shape.
 */
export const buyerRequestMatchesRecorded = z.object({
  buyerRequestId: z.string(),
  /** The new matches (pairs the request did not know), best score first: one `match.created` each. */
  created: z.array(recordedNewMatch),
  /**
   * The full matches this event adds, best score first: the new full pairs and the near misses that
   * became full (those keep their id and are no new match). What `buyer_request.matched` lists.
   */
  full: z.array(newlyFullMatch),
  /** Full matches of the request after this event. */
  matchCount: z.number().int(),
  recordedAt: z.string(),
});
/**
 * `matches_recorded` as read back. `matchCount` is null only for an old `match.created` read as
 * one (it did not say; it never changed the count: its full match came with a `buyer_request.matched`).
 */
export type BuyerRequestMatchesRecorded = Omit<z.infer<typeof buyerRequestMatchesRecorded>, 'matchCount'> & { matchCount: number | null };

/** Events as read back: the two old match types read as matches_recorded (buyer-request.parse.ts). */
export type BuyerRequestEvent =
  | { type: 'buyer_request.created'; data: BuyerRequestCreated }
  | { type: 'buyer_request.updated'; data: BuyerRequestUpdated }
  | { type: 'buyer_request.archived'; data: BuyerRequestArchived }
  | { type: 'buyer_request.matches_recorded'; data: BuyerRequestMatchesRecorded };

/** Written before `buyer_request.matches_recorded` (one event per match); read back as it. */
export const LEGACY_MATCH_EVENT_TYPES = ['buyer_request.matched', 'match.created'] as const;

/** The event types recording matches on a request, every version: what a reader of matches follows. */
export const MATCHES_RECORDED_TYPES = ['buyer_request.matches_recorded', ...LEGACY_MATCH_EVENT_TYPES] as const;

/** Every type a request's stream may hold (old ones included). */
export const BUYER_REQUEST_EVENT_TYPES = [
  'buyer_request.created',
  'buyer_request.updated',
  'buyer_request.archived',
  ...MATCHES_RECORDED_TYPES,
] as const;

export const buyerRequestStream = (id: string) => `buyer_request-${id}`;

/** The AAD a request's buyer is sealed with (BuyerSeal): the request it belongs to. */
export const buyerSealContext = (buyerRequestId: string): string => `buyer_request:${buyerRequestId}`;

/** The AAD a request's contact is sealed with (the buyer's own key): the request it belongs to. */
export const contactSealContext = (buyerRequestId: string): string => `buyer_request:${buyerRequestId}:contact`;
