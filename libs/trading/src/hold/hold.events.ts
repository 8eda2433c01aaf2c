// Stored contract of the hold aggregate: units of an item reserved for a buyer until `expiresAt`,
// with a deposit. Public: hold.created, hold.deposit_paid, hold.expired (the spec's), and
// hold.converted / hold.released (so a subscriber sees every way a hold ends).
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const HOLD_STATUSES = ['active', 'converted', 'released', 'expired'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

export const holdCreated = z.object({
  holdId: z.string(),
  inventoryItemId: z.string(),
  buyerRequestId: z.string().nullable(),
  quantity: z.number().int(),
  depositMinor: z.number().int(),
  currency: z.string(),
  /** The price of the held units when the hold was placed: what a conversion trades them for. */
  amountMinor: z.number().int(),
  expiresAt: z.string(),
  /** The buyer, sealed (context `trading:<holdId>`), when the hold names one of its own (a live win); else the buyer request's. */
  buyerSealed: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type HoldCreated = z.infer<typeof holdCreated>;

/** What every later event repeats of the hold, so each tells its story alone (its public data). */
export const holdFacts = z.object({
  holdId: z.string(),
  inventoryItemId: z.string(),
  depositMinor: z.number().int(),
  currency: z.string(),
  expiresAt: z.string(),
});
export type HoldFacts = z.infer<typeof holdFacts>;

export const holdDepositPaid = holdFacts.extend({
  reference: z.string().nullable(),
  paidAt: z.string(),
});
export type HoldDepositPaid = z.infer<typeof holdDepositPaid>;

export const holdConverted = holdFacts.extend({ tradeId: z.string(), convertedAt: z.string() });
export type HoldConverted = z.infer<typeof holdConverted>;

export const holdReleased = holdFacts.extend({ reason: z.string().nullable(), releasedAt: z.string() });
export type HoldReleased = z.infer<typeof holdReleased>;

export const holdExpired = holdFacts.extend({ expiredAt: z.string() });
export type HoldExpired = z.infer<typeof holdExpired>;

export type HoldEvent =
  | { type: 'hold.created'; data: HoldCreated }
  | { type: 'hold.deposit_paid'; data: HoldDepositPaid }
  | { type: 'hold.converted'; data: HoldConverted }
  | { type: 'hold.released'; data: HoldReleased }
  | { type: 'hold.expired'; data: HoldExpired };

export const HOLD_EVENT_TYPES = ['hold.created', 'hold.deposit_paid', 'hold.converted', 'hold.released', 'hold.expired'] as const;

export const parseHoldEvent = parseOnce((event: RecordedEvent): HoldEvent => {
  switch (event.type) {
    case 'hold.created':
      return { type: event.type, data: holdCreated.parse(event.data) };
    case 'hold.deposit_paid':
      return { type: event.type, data: holdDepositPaid.parse(event.data) };
    case 'hold.converted':
      return { type: event.type, data: holdConverted.parse(event.data) };
    case 'hold.released':
      return { type: event.type, data: holdReleased.parse(event.data) };
    case 'hold.expired':
      return { type: event.type, data: holdExpired.parse(event.data) };
    default:
      throw new Error(`Not a hold event: ${event.type}`);
  }
});

export const holdStream = (id: string) => `hold-${id}`;
