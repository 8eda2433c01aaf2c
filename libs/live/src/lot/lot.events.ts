// Stored contract of the lot aggregate: units of an inventory item put up in a live session, the
// reserves placed on it in the log's order, its close (the winners) and its settlement (the hold
// or trade each winner got). Public: reserve.placed (the spec's); the rest stays internal.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const LOT_STATUSES = ['pending', 'open', 'closed'] as const;
export type LotStatus = (typeof LOT_STATUSES)[number];

export const lotAdded = z.object({
  lotId: z.string(),
  sessionId: z.string(),
  inventoryItemId: z.string(),
  /** What is on the block, as the item named it when the lot was added (for the show's run sheet). */
  cardName: z.string(),
  setName: z.string(),
  quantity: z.number().int(),
  startingPriceMinor: z.number().int(),
  /** Set: an auction (each reserve beats the best by at least this). Null: a claim sale. */
  incrementMinor: z.number().int().nullable(),
  currency: z.string(),
  addedAt: z.string(),
});
export type LotAdded = z.infer<typeof lotAdded>;

/** `leading` (the auction's best), `won` (a claim that took units), `waitlisted` (a later claim). */
export const RESERVE_STANDINGS = ['leading', 'won', 'waitlisted'] as const;
export type ReserveStanding = (typeof RESERVE_STANDINGS)[number];

export const reservePlaced = z.object({
  reserveId: z.string(),
  lotId: z.string(),
  sessionId: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  /** The buyer, sealed (personal data is never in clear in the log). */
  buyerSealed: z.string(),
  buyerRequestId: z.string().nullable(),
  /** 1, 2, 3…: the reserve's place in the lot's order (the log's, never a clock's). */
  sequence: z.number().int(),
  standing: z.enum(RESERVE_STANDINGS),
  /** Units a claim took (0 when waitlisted; an auction's leader holds the whole lot). */
  quantity: z.number().int(),
  placedAt: z.string(),
});
export type ReservePlaced = z.infer<typeof reservePlaced>;

export const lotOpened = z.object({ lotId: z.string(), sessionId: z.string(), openedAt: z.string() });
export const lotClosed = z.object({
  lotId: z.string(),
  sessionId: z.string(),
  /** The winning reserves and the units each takes, in order. */
  winners: z.array(z.object({ reserveId: z.string(), amountMinor: z.number().int(), quantity: z.number().int() })),
  /** Units no reserve took: back to available. */
  unsold: z.number().int(),
  closedAt: z.string(),
});
export type LotClosed = z.infer<typeof lotClosed>;

/** What each winner got when the process manager settled the closed lot: a hold or a trade. */
export const lotSettled = z.object({
  lotId: z.string(),
  sessionId: z.string(),
  awards: z.array(z.object({ reserveId: z.string(), holdId: z.string().nullable(), tradeId: z.string().nullable() })),
  settledAt: z.string(),
});
export type LotSettled = z.infer<typeof lotSettled>;

export type LotEvent =
  | { type: 'lot.added'; data: LotAdded }
  | { type: 'lot.opened'; data: z.infer<typeof lotOpened> }
  | { type: 'reserve.placed'; data: ReservePlaced }
  | { type: 'lot.closed'; data: LotClosed }
  | { type: 'lot.settled'; data: LotSettled };

export const LOT_EVENT_TYPES = ['lot.added', 'lot.opened', 'reserve.placed', 'lot.closed', 'lot.settled'] as const;

export const parseLotEvent = parseOnce((event: RecordedEvent): LotEvent => {
  switch (event.type) {
    case 'lot.added':
      return { type: event.type, data: lotAdded.parse(event.data) };
    case 'lot.opened':
      return { type: event.type, data: lotOpened.parse(event.data) };
    case 'reserve.placed':
      return { type: event.type, data: reservePlaced.parse(event.data) };
    case 'lot.closed':
      return { type: event.type, data: lotClosed.parse(event.data) };
    case 'lot.settled':
      return { type: event.type, data: lotSettled.parse(event.data) };
    default:
      throw new Error(`Not a lot event: ${event.type}`);
  }
});

export const lotStream = (id: string) => `lot-${id}`;
