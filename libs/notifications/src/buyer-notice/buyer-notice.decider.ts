// A widget buyer's in-stock emails, decided on the buyer's own stream. Pure.
//
// - A match is taken once: every match queued (then sent, failed or suppressed) stays `covered`, so
//   the same match recorded again — a replay of the log, a restart, a rebuilt read model — decides
//   nothing. Never twice for one match.
// - New matches join the last open notice unless it is being sent; the first notice of a buyer is
//   due at once, a later one no sooner than `windowMs` after the last email: at most one email per
//   buyer per window, the matches found meanwhile gathered into it.
// - Sending is claimed first (`attempted`, only when due and not under way), then its outcome is
//   recorded. A claim left without an outcome for `leaseMs` (a crash mid-send) is closed as failed
//   for good (NOTIFICATION_INTERRUPTED): whether the email left is unknown, and sending again could
//   send it twice. A failure known to be temporary is retried at the `retryAt` it names.
// - Unsubscribed, a buyer's open notices and every later match are suppressed.
import { type Decider, DomainError } from '@app/platform/domain';

import type { BuyerNoticeEvent, NoticeError, NoticeMatch, SuppressionReason } from './buyer-notice.events';

export interface NoticePolicy {
  /** At most one email per buyer per this many ms. */
  windowMs: number;
  /** How long a claimed send may stay without an outcome before it is taken as interrupted. */
  leaseMs: number;
}

interface Base {
  policy: NoticePolicy;
  now: Date;
}
export interface QueueMatches extends Base {
  type: 'QueueMatches';
  buyerId: string;
  matches: readonly NoticeMatch[];
  /** The id a new notice takes (unused when the matches join an open one). */
  newNotificationId: string;
  /** Matches not to email at all (emails turned off): recorded as suppressed at once. */
  suppress: SuppressionReason | null;
}
export interface ClaimSend extends Base {
  type: 'ClaimSend';
  notificationId: string;
}
export interface CloseInterrupted extends Base {
  type: 'CloseInterrupted';
  notificationId: string;
}
export interface SuppressNotice extends Base {
  type: 'SuppressNotice';
  notificationId: string;
  reason: SuppressionReason;
}
export interface RecordSent extends Base {
  type: 'RecordSent';
  notificationId: string;
  attempt: number;
  transport: 'smtp' | 'outbox';
  messageId: string;
}
export interface RecordFailure extends Base {
  type: 'RecordFailure';
  notificationId: string;
  attempt: number;
  error: NoticeError;
  /** Null: give up. */
  retryAt: Date | null;
}
export interface Unsubscribe extends Base {
  type: 'Unsubscribe';
  buyerId: string;
}
export type BuyerNoticeCommand = QueueMatches | ClaimSend | CloseInterrupted | SuppressNotice | RecordSent | RecordFailure | Unsubscribe;

export interface OpenNotice {
  notificationId: string;
  matches: readonly NoticeMatch[];
  /** ISO instant it is to be sent at (or retried at). */
  sendAt: string;
  attempts: number;
  /** When the send under way was claimed; null: none under way. */
  sending: string | null;
}

export interface BuyerNoticeState {
  buyerId: string | null;
  /** Every match ever taken (queued, sent, failed or suppressed). */
  covered: ReadonlySet<string>;
  /** Open notices, oldest first: the first is the next to send. */
  open: readonly OpenNotice[];
  lastSentAt: string | null;
  unsubscribedAt: string | null;
}

export const initialBuyerNoticeState: BuyerNoticeState = { buyerId: null, covered: new Set(), open: [], lastSentAt: null, unsubscribedAt: null };

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

/** When a notice may be acted on: its send (no sooner than the window after the last email), or its claim's lease ending. */
export function dueOf(notice: OpenNotice, state: Pick<BuyerNoticeState, 'lastSentAt'>, policy: NoticePolicy): string {
  if (notice.sending) return iso(ms(notice.sending) + policy.leaseMs);
  const windowEnd = state.lastSentAt ? ms(state.lastSentAt) + policy.windowMs : 0;
  return iso(Math.max(ms(notice.sendAt), windowEnd));
}

/** When the buyer's timer must fire next: the first open notice's due time, or null. */
export function nextDue(state: BuyerNoticeState, policy: NoticePolicy): string | null {
  return state.open.length > 0 ? dueOf(state.open[0], state, policy) : null;
}

/** The notice a claim would take now: the first open one, due and not under way. */
export function claimable(state: BuyerNoticeState, policy: NoticePolicy, now: Date): OpenNotice | null {
  const first = state.open[0];
  if (!first || first.sending) return null;
  return ms(dueOf(first, state, policy)) <= now.getTime() ? first : null;
}

/** A claim whose lease ended without an outcome. */
export function interrupted(state: BuyerNoticeState, policy: NoticePolicy, now: Date): OpenNotice | null {
  const first = state.open[0];
  if (!first?.sending) return null;
  return ms(first.sending) + policy.leaseMs <= now.getTime() ? first : null;
}

type Undated = { [K in BuyerNoticeEvent['type']]: { type: K; data: Omit<Extract<BuyerNoticeEvent, { type: K }>['data'], 'dueAt'> } }[BuyerNoticeEvent['type']];

/** The events with the `dueAt` each leaves (folded one after the other). */
function dated(state: BuyerNoticeState, policy: NoticePolicy, events: readonly Undated[]): BuyerNoticeEvent[] {
  let current = state;
  return events.map((undated) => {
    const event = { type: undated.type, data: { ...undated.data, dueAt: null } } as BuyerNoticeEvent;
    current = buyerNoticeDecider.evolve(current, event);
    return { ...event, data: { ...event.data, dueAt: nextDue(current, policy) } } as BuyerNoticeEvent;
  });
}

function underWay(state: BuyerNoticeState, notificationId: string, attempt: number): OpenNotice | null {
  const notice = state.open.find((n) => n.notificationId === notificationId);
  return notice?.sending && notice.attempts === attempt ? notice : null;
}

export const buyerNoticeDecider: Decider<BuyerNoticeCommand, BuyerNoticeEvent, BuyerNoticeState> = {
  initialState: initialBuyerNoticeState,

  decide(command, state) {
    const now = command.now.toISOString();
    const buyerId = state.buyerId ?? ('buyerId' in command ? command.buyerId : '');
    const out = (...events: Undated[]) => dated(state, command.policy, events);
    switch (command.type) {
      case 'QueueMatches': {
        const seen = new Set<string>();
        const fresh = command.matches.filter((m) => !state.covered.has(m.matchId) && !seen.has(m.matchId) && seen.add(m.matchId));
        if (fresh.length === 0) return [];
        const reason: SuppressionReason | null = state.unsubscribedAt ? 'unsubscribed' : command.suppress;
        if (reason) {
          return out({ type: 'buyer.notice_suppressed', data: { buyerId, notificationId: command.newNotificationId, matches: fresh, reason, suppressedAt: now } });
        }
        const last = state.open[state.open.length - 1];
        const target = last && !last.sending ? last : null;
        const windowEnd = state.lastSentAt ? ms(state.lastSentAt) + command.policy.windowMs : 0;
        const sendAt = target?.sendAt ?? iso(Math.max(command.now.getTime(), windowEnd));
        return out({ type: 'buyer.notice_queued', data: { buyerId, notificationId: target?.notificationId ?? command.newNotificationId, matches: fresh, sendAt, queuedAt: now } });
      }
      case 'ClaimSend': {
        const notice = claimable(state, command.policy, command.now);
        if (!notice || notice.notificationId !== command.notificationId) return [];
        return out({ type: 'buyer.notice_attempted', data: { buyerId, notificationId: notice.notificationId, attempt: notice.attempts + 1, attemptedAt: now } });
      }
      case 'CloseInterrupted': {
        const notice = interrupted(state, command.policy, command.now);
        if (!notice || notice.notificationId !== command.notificationId) return [];
        const error: NoticeError = {
          code: 'NOTIFICATION_INTERRUPTED',
          message: 'The send stopped between its claim and its outcome; whether the email left is unknown, so it is not sent again',
          responseCode: null,
        };
        return out({ type: 'buyer.notice_failed', data: { buyerId, notificationId: notice.notificationId, attempt: notice.attempts, error, retryAt: null, failedAt: now } });
      }
      case 'SuppressNotice': {
        const notice = state.open.find((n) => n.notificationId === command.notificationId);
        if (!notice || notice.sending) return [];
        return out({ type: 'buyer.notice_suppressed', data: { buyerId, notificationId: notice.notificationId, matches: [...notice.matches], reason: command.reason, suppressedAt: now } });
      }
      case 'RecordSent': {
        const notice = underWay(state, command.notificationId, command.attempt);
        if (!notice) return [];
        return out({
          type: 'buyer.notified',
          data: {
            buyerId,
            notificationId: notice.notificationId,
            matchIds: notice.matches.map((m) => m.matchId),
            attempt: command.attempt,
            transport: command.transport,
            messageId: command.messageId,
            sentAt: now,
          },
        });
      }
      case 'RecordFailure': {
        const notice = underWay(state, command.notificationId, command.attempt);
        if (!notice) return [];
        const retryAt = command.retryAt ? command.retryAt.toISOString() : null;
        return out({ type: 'buyer.notice_failed', data: { buyerId, notificationId: notice.notificationId, attempt: command.attempt, error: command.error, retryAt, failedAt: now } });
      }
      case 'Unsubscribe': {
        if (state.unsubscribedAt) return [];
        return out(
          { type: 'buyer.unsubscribed', data: { buyerId, unsubscribedAt: now } },
          ...state.open
            .filter((n) => !n.sending)
            .map((n): Undated => ({ type: 'buyer.notice_suppressed', data: { buyerId, notificationId: n.notificationId, matches: [...n.matches], reason: 'unsubscribed', suppressedAt: now } })),
        );
      }
      default: {
        const never: never = command;
        throw new DomainError('VALIDATION_FAILED', `Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    const buyerId = state.buyerId ?? event.data.buyerId;
    const without = (id: string) => state.open.filter((n) => n.notificationId !== id);
    const change = (id: string, f: (n: OpenNotice) => OpenNotice) => state.open.map((n) => (n.notificationId === id ? f(n) : n));
    switch (event.type) {
      case 'buyer.notice_queued': {
        const { notificationId, matches, sendAt } = event.data;
        const covered = new Set([...state.covered, ...matches.map((m) => m.matchId)]);
        const open = state.open.some((n) => n.notificationId === notificationId)
          ? change(notificationId, (n) => ({ ...n, matches: [...n.matches, ...matches] }))
          : [...state.open, { notificationId, matches, sendAt, attempts: 0, sending: null }];
        return { ...state, buyerId, covered, open };
      }
      case 'buyer.notice_attempted':
        return { ...state, buyerId, open: change(event.data.notificationId, (n) => ({ ...n, attempts: event.data.attempt, sending: event.data.attemptedAt })) };
      case 'buyer.notified':
        return { ...state, buyerId, open: without(event.data.notificationId), lastSentAt: event.data.sentAt };
      case 'buyer.notice_failed': {
        const { notificationId, retryAt } = event.data;
        return { ...state, buyerId, open: retryAt ? change(notificationId, (n) => ({ ...n, sending: null, sendAt: retryAt })) : without(notificationId) };
      }
      case 'buyer.notice_suppressed':
        return { ...state, buyerId, covered: new Set([...state.covered, ...event.data.matches.map((m) => m.matchId)]), open: without(event.data.notificationId) };
      case 'buyer.unsubscribed':
        return { ...state, buyerId, unsubscribedAt: event.data.unsubscribedAt };
      default: {
        const never: never = event;
        return never;
      }
    }
  },
};
