// Stored contract of a buyer's personal data: its erasure, recorded in the log for the record (who
// and when; never what). Internal: never delivered to webhooks. The data itself never was in the
// log in clear: it is sealed with the buyer's own key, which the erasure destroyed.
import { z } from 'zod';

export const buyerPersonalDataErased = z.object({
  buyerId: z.string(),
  /** The data key destroyed (its id; a key made after the erasure has another). */
  keyId: z.string(),
  erasedAt: z.string(),
});
export type BuyerPersonalDataErased = z.infer<typeof buyerPersonalDataErased>;

export type BuyerEvent = { type: 'buyer.personal_data_erased'; data: BuyerPersonalDataErased };

export const BUYER_EVENT_TYPES = ['buyer.personal_data_erased'] as const;

export const buyerStream = (buyerId: string) => `buyer-${buyerId}`;
