// Stored contract of the trade aggregate. Every move appends `trade.status_changed` (from, to and
// what came with the move); the moves the spec names also append their own event first
// (trade.paid, trade.shipped, trade.completed, trade.cancelled), carrying the trade's public facts.
// All of them are public (webhooks); the state is folded from trade.initiated and the status changes.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const TRADE_STATUSES = ['initiated', 'paid', 'shipped', 'delivered', 'disputed', 'completed', 'settled', 'cancelled'] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];

export const tradeInitiated = z.object({
  tradeId: z.string(),
  inventoryItemId: z.string(),
  buyerRequestId: z.string().nullable(),
  matchId: z.string().nullable(),
  offerId: z.string().nullable(),
  holdId: z.string().nullable(),
  /** The inventory reservation the trade holds its units under. */
  reservationId: z.string(),
  quantity: z.number().int(),
  amountMinor: z.number().int(),
  currency: z.string(),
  /** A hold's deposit paid toward the amount (0 when none). */
  depositMinor: z.number().int(),
  /** The buyer, sealed (context `trading:<tradeId>`), when the trade names one of its own (a live win); else the buyer request's. */
  buyerSealed: z.string().nullable().optional(),
  initiatedAt: z.string(),
});
export type TradeInitiated = z.infer<typeof tradeInitiated>;

/** Who caused a cancel: the seller (the workspace) or the buyer. Seller trust counts the seller's. */
export const CANCEL_PARTIES = ['seller', 'buyer'] as const;
export type CancelParty = (typeof CANCEL_PARTIES)[number];

/** How a dispute ended: the buyer refunded (→ cancelled) or the payment released (→ completed). */
export const DISPUTE_RESOLUTIONS = ['refund', 'release'] as const;
export type DisputeResolution = (typeof DISPUTE_RESOLUTIONS)[number];

export const tradeStatusChanged = z.object({
  tradeId: z.string(),
  from: z.enum(TRADE_STATUSES),
  to: z.enum(TRADE_STATUSES),
  reason: z.string().nullable(),
  /** A payment or carrier reference given with the move. */
  reference: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  /** Set when the move owes the buyer their money back (a cancel after payment, a refunded dispute). */
  refundDue: z.boolean(),
  /** Set when the move ends a dispute. */
  resolution: z.enum(DISPUTE_RESOLUTIONS).nullable(),
  /** With a cancel: who caused it, when the client said (absent from events before it existed: unstated). */
  cancelledBy: z.enum(CANCEL_PARTIES).nullable().optional(),
  /** `client` (a request) or `timer` (the dispute window passed). */
  by: z.enum(['client', 'timer']),
  at: z.string(),
});
export type TradeStatusChanged = z.infer<typeof tradeStatusChanged>;

/** The facts the named move events carry (their public data). */
export const tradeFacts = z.object({
  tradeId: z.string(),
  offerId: z.string().nullable(),
  amountMinor: z.number().int(),
  currency: z.string(),
  status: z.enum(TRADE_STATUSES),
  at: z.string(),
});
export type TradeFacts = z.infer<typeof tradeFacts>;

/** The moves with an event of their own (the spec's list), beside trade.status_changed. */
export const NAMED_MOVES = { paid: 'trade.paid', shipped: 'trade.shipped', completed: 'trade.completed', cancelled: 'trade.cancelled' } as const;
type NamedMoveType = (typeof NAMED_MOVES)[keyof typeof NAMED_MOVES];

export type TradeEvent =
  | { type: 'trade.initiated'; data: TradeInitiated }
  | { type: 'trade.status_changed'; data: TradeStatusChanged }
  | { type: NamedMoveType; data: TradeFacts };

export const TRADE_EVENT_TYPES = ['trade.initiated', 'trade.status_changed', ...Object.values(NAMED_MOVES)] as const;

export const parseTradeEvent = parseOnce((event: RecordedEvent): TradeEvent => {
  switch (event.type) {
    case 'trade.initiated':
      return { type: event.type, data: tradeInitiated.parse(event.data) };
    case 'trade.status_changed':
      return { type: event.type, data: tradeStatusChanged.parse(event.data) };
    case 'trade.paid':
    case 'trade.shipped':
    case 'trade.completed':
    case 'trade.cancelled':
      return { type: event.type, data: tradeFacts.parse(event.data) };
    default:
      throw new Error(`Not a trade event: ${event.type}`);
  }
});

export const tradeStream = (id: string) => `trade-${id}`;
