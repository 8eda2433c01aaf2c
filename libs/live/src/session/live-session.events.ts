// Stored contract of the live session aggregate: a show a host runs, with the lots put up in it.
// Public: live_session.started and live_session.ended (the spec's); created and lot_added stay
// internal.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const LIVE_SESSION_STATUSES = ['scheduled', 'live', 'ended'] as const;
export type LiveSessionStatus = (typeof LIVE_SESSION_STATUSES)[number];

/** What a winning reserve becomes when its lot closes: a hold with a deposit due, or a trade. */
export const SETTLEMENTS = ['hold', 'trade'] as const;
export type Settlement = (typeof SETTLEMENTS)[number];

export const liveSessionCreated = z.object({
  sessionId: z.string(),
  title: z.string(),
  currency: z.string(),
  scheduledAt: z.string().nullable(),
  settlement: z.enum(SETTLEMENTS),
  /** With `hold`: the deposit due, as a percentage of the winning amount (0–100). */
  depositPercent: z.number().int(),
  /** How long a winner has to pay: the hold's lifetime from the lot's close (hours). */
  paymentWindowHours: z.number().int(),
  createdAt: z.string(),
});
export type LiveSessionCreated = z.infer<typeof liveSessionCreated>;

export const liveSessionStarted = z.object({ sessionId: z.string(), startedAt: z.string() });
/** `lotIds`: every lot of the session, for the process manager that closes those still open. */
export const liveSessionEnded = z.object({ sessionId: z.string(), endedAt: z.string(), lotIds: z.array(z.string()) });
export const liveSessionLotAdded = z.object({ sessionId: z.string(), lotId: z.string(), inventoryItemId: z.string(), addedAt: z.string() });

export type LiveSessionEvent =
  | { type: 'live_session.created'; data: LiveSessionCreated }
  | { type: 'live_session.started'; data: z.infer<typeof liveSessionStarted> }
  | { type: 'live_session.ended'; data: z.infer<typeof liveSessionEnded> }
  | { type: 'live_session.lot_added'; data: z.infer<typeof liveSessionLotAdded> };

export const LIVE_SESSION_EVENT_TYPES = ['live_session.created', 'live_session.started', 'live_session.ended', 'live_session.lot_added'] as const;

export const parseLiveSessionEvent = parseOnce((event: RecordedEvent): LiveSessionEvent => {
  switch (event.type) {
    case 'live_session.created':
      return { type: event.type, data: liveSessionCreated.parse(event.data) };
    case 'live_session.started':
      return { type: event.type, data: liveSessionStarted.parse(event.data) };
    case 'live_session.ended':
      return { type: event.type, data: liveSessionEnded.parse(event.data) };
    case 'live_session.lot_added':
      return { type: event.type, data: liveSessionLotAdded.parse(event.data) };
    default:
      throw new Error(`Not a live session event: ${event.type}`);
  }
});

export const liveSessionStream = (id: string) => `live_session-${id}`;
