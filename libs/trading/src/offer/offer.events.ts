// Stored contract of the offer aggregate: one offer of a negotiation thread (the thread is named
// by its first offer). Public: offer.created, accepted, rejected, countered (the spec's) and
// offer.expired.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const OFFER_PARTIES = ['seller', 'buyer'] as const;
export type OfferParty = (typeof OFFER_PARTIES)[number];

export const OFFER_STATUSES = ['pending', 'accepted', 'rejected', 'countered', 'expired'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const offerCreated = z.object({
  offerId: z.string(),
  /** The thread's first offer id; a counter-offer continues its thread. */
  threadId: z.string(),
  /** The offer this one counters (null for a thread's first). */
  countersOfferId: z.string().nullable(),
  inventoryItemId: z.string(),
  buyerRequestId: z.string().nullable(),
  matchId: z.string().nullable(),
  amountMinor: z.number().int(),
  currency: z.string(),
  quantity: z.number().int(),
  from: z.enum(OFFER_PARTIES),
  message: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type OfferCreated = z.infer<typeof offerCreated>;

/** What every answer repeats of the offer, so each event tells its story alone (its public data). */
export const offerFacts = z.object({
  offerId: z.string(),
  threadId: z.string(),
  inventoryItemId: z.string(),
  buyerRequestId: z.string().nullable(),
  matchId: z.string().nullable(),
  amountMinor: z.number().int(),
  currency: z.string(),
  from: z.enum(OFFER_PARTIES),
});
export type OfferFacts = z.infer<typeof offerFacts>;

export const offerAccepted = offerFacts.extend({ tradeId: z.string(), by: z.enum(OFFER_PARTIES), acceptedAt: z.string() });
export type OfferAccepted = z.infer<typeof offerAccepted>;

export const offerRejected = offerFacts.extend({ reason: z.string().nullable(), by: z.enum(OFFER_PARTIES), rejectedAt: z.string() });
export type OfferRejected = z.infer<typeof offerRejected>;

export const offerCountered = offerFacts.extend({
  counterOfferId: z.string(),
  by: z.enum(OFFER_PARTIES),
  /** What the counter-offer proposes (so a repeated counter can be told from another); absent in events recorded before it was kept. */
  counterAmountMinor: z.number().int().optional(),
  counterMessage: z.string().nullable().optional(),
  counteredAt: z.string(),
});
export type OfferCountered = z.infer<typeof offerCountered>;

export const offerExpired = offerFacts.extend({ expiredAt: z.string() });
export type OfferExpired = z.infer<typeof offerExpired>;

export type OfferEvent =
  | { type: 'offer.created'; data: OfferCreated }
  | { type: 'offer.accepted'; data: OfferAccepted }
  | { type: 'offer.rejected'; data: OfferRejected }
  | { type: 'offer.countered'; data: OfferCountered }
  | { type: 'offer.expired'; data: OfferExpired };

export const OFFER_EVENT_TYPES = ['offer.created', 'offer.accepted', 'offer.rejected', 'offer.countered', 'offer.expired'] as const;

export const parseOfferEvent = parseOnce((event: RecordedEvent): OfferEvent => {
  switch (event.type) {
    case 'offer.created':
      return { type: event.type, data: offerCreated.parse(event.data) };
    case 'offer.accepted':
      return { type: event.type, data: offerAccepted.parse(event.data) };
    case 'offer.rejected':
      return { type: event.type, data: offerRejected.parse(event.data) };
    case 'offer.countered':
      return { type: event.type, data: offerCountered.parse(event.data) };
    case 'offer.expired':
      return { type: event.type, data: offerExpired.parse(event.data) };
    default:
      throw new Error(`Not an offer event: ${event.type}`);
  }
});

export const offerStream = (id: string) => `offer-${id}`;
