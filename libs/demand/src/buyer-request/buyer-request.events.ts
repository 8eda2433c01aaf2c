// Stored contract of the buyer request aggregate. A request owns the matches found for it, so
// recording a match is idempotent per (request, inventory item) by the aggregate's own state.
// Public (webhooks): buyer_request.created / matched / archived, match.created; internal:
// buyer_request.updated (not in the spec's list).
import { z } from 'zod';

import { normalizeListing } from '@app/catalog';
import type { RecordedEvent } from '@app/platform';

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

const typedInput = z.object({ cardName: z.string(), setName: z.string(), condition: z.string() });

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

// Version 1 of `created` had no `match` and no `input`: upcast by normalizing the stored names.
export const buyerRequestCreated = buyerRequestCriteria
  .extend({
    buyerRequestId: z.string(),
    match: requestMatchFields.optional(),
    input: typedInput.optional(),
    /** The log position the instant check saw inventory up to (reverse matching checks the rest). */
    matchedThrough: z.number().int().optional(),
    createdAt: z.string(),
  })
  .transform((d) => ({
    ...d,
    match: d.match ?? normalizeListing(d).match,
    input: d.input ?? { cardName: d.cardName, setName: d.setName, condition: d.condition },
  }));
export type BuyerRequestCreated = z.output<typeof buyerRequestCreated>;

export const buyerRequestUpdated = buyerRequestCriteria.extend({
  buyerRequestId: z.string(),
  changedFields: z.array(z.string()),
  input: typedInput.partial(),
  matchedThrough: z.number().int().optional(),
  updatedAt: z.string(),
});
export type BuyerRequestUpdated = z.infer<typeof buyerRequestUpdated>;

export const buyerRequestArchived = z.object({
  buyerRequestId: z.string(),
  reason: z.string().nullable(),
  archivedAt: z.string(),
});
export type BuyerRequestArchived = z.infer<typeof buyerRequestArchived>;

export const MATCH_KINDS = ['full', 'near_miss'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export const matchFactor = z.object({
  name: z.enum(['name_similarity', 'set', 'condition_margin', 'price_headroom', 'near_miss_penalty']),
  /** The factor's own value in 0..1 (the penalty: the share taken off). */
  value: z.number(),
  weight: z.number(),
  /** What it adds to the score (negative for the near-miss penalty); contributions sum to the score. */
  contribution: z.number(),
});
export type MatchFactor = z.infer<typeof matchFactor>;

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

export function parseBuyerRequestEvent(event: RecordedEvent): BuyerRequestEvent {
  switch (event.type) {
    case 'buyer_request.created':
      return { type: event.type, data: buyerRequestCreated.parse(event.data) };
    case 'buyer_request.updated':
      return { type: event.type, data: buyerRequestUpdated.parse(event.data) };
    case 'buyer_request.archived':
      return { type: event.type, data: buyerRequestArchived.parse(event.data) };
    case 'buyer_request.matched':
      return { type: event.type, data: buyerRequestMatched.parse(event.data) };
    case 'match.created':
      return { type: event.type, data: matchCreated.parse(event.data) };
    default:
      throw new Error(`Not a buyer request event: ${event.type}`);
  }
}

export const buyerRequestStream = (id: string) => `buyer_request-${id}`;
