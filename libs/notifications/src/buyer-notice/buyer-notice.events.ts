// Stored contract of a widget buyer's in-stock emails: one stream per buyer (`buyer_notice-<buyerId>`,
// the buyer id is already per workspace). It is the notifications process manager's own record of
// what it sent, so a match is emailed at most once across restarts, replays and rebuilds, like
// automations' claims. All INTERNAL: never delivered by webhooks. None holds an address, a name or
// an email body: only the pseudonymous buyer id, match, request and item ids, times and outcomes.
//
// A notice gathers the buyer's new full matches (at most one email per buyer per window, an hour by
// default); it is queued, then attempted (the claim: a send is under way), then notified (sent), or
// failed (retried later with backoff, or given up), or suppressed (not sent: unsubscribed, emails
// off, erased, nothing left in stock). Every event carries `dueAt`: when the buyer's timer must
// fire next after it (null: nothing to do), so the timer follows the log alone.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const noticeMatch = z.object({ matchId: z.string(), buyerRequestId: z.string(), inventoryItemId: z.string() });
export type NoticeMatch = z.infer<typeof noticeMatch>;

export const SUPPRESSION_REASONS = ['unsubscribed', 'disabled', 'erased', 'no_contact', 'no_longer_available'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const noticeError = z.object({
  /** SMTP_TEMPORARY, SMTP_PERMANENT, SMTP_UNREACHABLE, OUTBOX_WRITE_FAILED, NOTIFICATION_INTERRUPTED, INTERNAL. */
  code: z.string(),
  /** Written by us, never the server's text (which may quote an address). */
  message: z.string(),
  /** The SMTP reply code, when there was one. */
  responseCode: z.number().int().nullable(),
});
export type NoticeError = z.infer<typeof noticeError>;

const due = z.string().nullable();

export const buyerNoticeQueued = z.object({
  buyerId: z.string(),
  notificationId: z.string(),
  /** The matches this event adds to the notice. */
  matches: z.array(noticeMatch),
  /** When the notice is to be sent (the window after the last email, or at once). */
  sendAt: z.string(),
  queuedAt: z.string(),
  dueAt: due,
});
export const buyerNoticeAttempted = z.object({ buyerId: z.string(), notificationId: z.string(), attempt: z.number().int(), attemptedAt: z.string(), dueAt: due });
export const buyerNotified = z.object({
  buyerId: z.string(),
  notificationId: z.string(),
  /** Every match the email covered. */
  matchIds: z.array(z.string()),
  attempt: z.number().int(),
  transport: z.enum(['smtp', 'outbox']),
  /** The Message-ID the email was sent with. */
  messageId: z.string(),
  sentAt: z.string(),
  dueAt: due,
});
export const buyerNoticeFailed = z.object({
  buyerId: z.string(),
  notificationId: z.string(),
  attempt: z.number().int(),
  error: noticeError,
  /** When it is tried again; null: given up (the notice's matches are never emailed). */
  retryAt: z.string().nullable(),
  failedAt: z.string(),
  dueAt: due,
});
export const buyerNoticeSuppressed = z.object({
  buyerId: z.string(),
  notificationId: z.string(),
  /** The matches not emailed (a notice closed, or new matches suppressed at once). */
  matches: z.array(noticeMatch),
  reason: z.enum(SUPPRESSION_REASONS),
  suppressedAt: z.string(),
  dueAt: due,
});
export const buyerUnsubscribed = z.object({ buyerId: z.string(), unsubscribedAt: z.string(), dueAt: due });

export type BuyerNoticeEvent =
  | { type: 'buyer.notice_queued'; data: z.infer<typeof buyerNoticeQueued> }
  | { type: 'buyer.notice_attempted'; data: z.infer<typeof buyerNoticeAttempted> }
  | { type: 'buyer.notified'; data: z.infer<typeof buyerNotified> }
  | { type: 'buyer.notice_failed'; data: z.infer<typeof buyerNoticeFailed> }
  | { type: 'buyer.notice_suppressed'; data: z.infer<typeof buyerNoticeSuppressed> }
  | { type: 'buyer.unsubscribed'; data: z.infer<typeof buyerUnsubscribed> };

export const BUYER_NOTICE_EVENT_TYPES = [
  'buyer.notice_queued',
  'buyer.notice_attempted',
  'buyer.notified',
  'buyer.notice_failed',
  'buyer.notice_suppressed',
  'buyer.unsubscribed',
] as const;

/** The events about one notice (the notifications read model's). */
export const NOTICE_EVENT_TYPES = BUYER_NOTICE_EVENT_TYPES.filter((t) => t !== 'buyer.unsubscribed');

export const parseBuyerNoticeEvent = parseOnce((event: RecordedEvent): BuyerNoticeEvent => {
  switch (event.type) {
    case 'buyer.notice_queued':
      return { type: event.type, data: buyerNoticeQueued.parse(event.data) };
    case 'buyer.notice_attempted':
      return { type: event.type, data: buyerNoticeAttempted.parse(event.data) };
    case 'buyer.notified':
      return { type: event.type, data: buyerNotified.parse(event.data) };
    case 'buyer.notice_failed':
      return { type: event.type, data: buyerNoticeFailed.parse(event.data) };
    case 'buyer.notice_suppressed':
      return { type: event.type, data: buyerNoticeSuppressed.parse(event.data) };
    case 'buyer.unsubscribed':
      return { type: event.type, data: buyerUnsubscribed.parse(event.data) };
    default:
      throw new Error(`Not a buyer notice event: ${event.type}`);
  }
});

export const buyerNoticeStream = (buyerId: string) => `buyer_notice-${buyerId}`;
