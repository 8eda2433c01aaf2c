// Given the buyer's notice events / when a command / then the events decided: the process
// manager's decisions (gather, once per match, one email per window, claims, retries, suppression).
import { deciderSpec } from '@app/testing/support/decider-spec';

import { type BuyerNoticeCommand, buyerNoticeDecider, type NoticePolicy } from './buyer-notice.decider';
import type { BuyerNoticeEvent, NoticeMatch } from './buyer-notice.events';

const spec = deciderSpec(buyerNoticeDecider);
const policy: NoticePolicy = { windowMs: 3_600_000, leaseMs: 120_000 };
const buyerId = 'buyer_abcdefghijklmnopqrstuvwxyz';
const T0 = '2026-03-01T12:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000);
const iso = (minutes: number) => at(minutes).toISOString();
const m = (n: number): NoticeMatch => ({ matchId: `mt_${n}`, buyerRequestId: `br_${n}`, inventoryItemId: `inv_${n}` });

const queue = (minute: number, matches: NoticeMatch[], extra: Partial<BuyerNoticeCommand> = {}): BuyerNoticeCommand =>
  ({ type: 'QueueMatches', buyerId, matches, newNotificationId: `ntf_${minute}`, suppress: null, policy, now: at(minute), ...extra }) as BuyerNoticeCommand;
const queued = (id: string, minute: number, matches: NoticeMatch[], sendAt: number, dueAt: number | null = sendAt): BuyerNoticeEvent => ({
  type: 'buyer.notice_queued',
  data: { buyerId, notificationId: id, matches, sendAt: iso(sendAt), queuedAt: iso(minute), dueAt: dueAt === null ? null : iso(dueAt) },
});
const attempted = (id: string, minute: number, attempt = 1): BuyerNoticeEvent => ({
  type: 'buyer.notice_attempted',
  data: { buyerId, notificationId: id, attempt, attemptedAt: iso(minute), dueAt: iso(minute + 2) },
});
const notified = (id: string, minute: number, matchIds: string[], dueAt: number | null = null, attempt = 1): BuyerNoticeEvent => ({
  type: 'buyer.notified',
  data: { buyerId, notificationId: id, matchIds, attempt, transport: 'smtp', messageId: `<${id}@x>`, sentAt: iso(minute), dueAt: dueAt === null ? null : iso(dueAt) },
});
const temporary = { code: 'SMTP_TEMPORARY', message: 'The mail server answered 451: try again later', responseCode: 451 };

describe('buyer notice decider', () => {
  describe('queueing matches', () => {
    it('queues the first match of a buyer to be sent at once', () => {
      spec.given([]).when(queue(0, [m(1)])).then([queued('ntf_0', 0, [m(1)], 0)]);
    });

    it('gathers matches into the notice not yet sent', () => {
      spec.given([queued('ntf_0', 0, [m(1)], 0)]).when(queue(1, [m(2), m(3)])).then([queued('ntf_0', 1, [m(2), m(3)], 0)]);
    });

    it('never takes a match twice: a replay, a restart or a rebuild decides nothing', () => {
      spec.given([queued('ntf_0', 0, [m(1)], 0)]).when(queue(1, [m(1)])).then([]);
      spec.given([queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0), notified('ntf_0', 0, ['mt_1'])]).when(queue(5, [m(1), m(1)])).then([]);
      spec.given([]).when(queue(0, [m(1), m(1)])).then([queued('ntf_0', 0, [m(1)], 0)]);
    });

    it('queues a match after an email for the end of the window (one email per buyer per hour)', () => {
      spec
        .given([queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0), notified('ntf_0', 0, ['mt_1'])])
        .when(queue(10, [m(2)]))
        .then([queued('ntf_10', 10, [m(2)], 60)]);
    });

    it('starts a new notice for matches that come while one is being sent', () => {
      spec.given([queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0)]).when(queue(1, [m(2)])).then([queued('ntf_1', 1, [m(2)], 1, 2)]);
    });

    it('suppresses matches at once when emails are off, or the buyer unsubscribed — and never sends them later', () => {
      spec
        .given([])
        .when(queue(0, [m(1)], { suppress: 'disabled' }))
        .then([{ type: 'buyer.notice_suppressed', data: { buyerId, notificationId: 'ntf_0', matches: [m(1)], reason: 'disabled', suppressedAt: iso(0), dueAt: null } }]);
      const unsubscribed: BuyerNoticeEvent = { type: 'buyer.unsubscribed', data: { buyerId, unsubscribedAt: iso(0), dueAt: null } };
      spec
        .given([unsubscribed])
        .when(queue(1, [m(1)]))
        .then([{ type: 'buyer.notice_suppressed', data: { buyerId, notificationId: 'ntf_1', matches: [m(1)], reason: 'unsubscribed', suppressedAt: iso(1), dueAt: null } }]);
      spec
        .given([{ type: 'buyer.notice_suppressed', data: { buyerId, notificationId: 'ntf_0', matches: [m(1)], reason: 'disabled', suppressedAt: iso(0), dueAt: null } }])
        .when(queue(1, [m(1)]))
        .then([]);
    });
  });

  describe('sending', () => {
    const claim = (id: string, minute: number): BuyerNoticeCommand => ({ type: 'ClaimSend', notificationId: id, policy, now: at(minute) });

    it('claims a due notice once; not before it is due, not while a send is under way', () => {
      spec.given([queued('ntf_0', 0, [m(1)], 0)]).when(claim('ntf_0', 0)).then([attempted('ntf_0', 0)]);
      spec.given([queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0)]).when(claim('ntf_0', 1)).then([]);
      const later = [queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0), notified('ntf_0', 0, ['mt_1'], null), queued('ntf_10', 10, [m(2)], 60)];
      spec.given(later).when(claim('ntf_10', 59)).then([]);
      spec.given(later).when(claim('ntf_10', 60)).then([attempted('ntf_10', 60)]);
    });

    it('records the email sent with every match it covered, once', () => {
      const given = [queued('ntf_0', 0, [m(1)], 0), queued('ntf_0', 0, [m(2)], 0), attempted('ntf_0', 1)];
      const sent: BuyerNoticeCommand = { type: 'RecordSent', notificationId: 'ntf_0', attempt: 1, transport: 'smtp', messageId: '<ntf_0@x>', policy, now: at(1) };
      spec.given(given).when(sent).then([notified('ntf_0', 1, ['mt_1', 'mt_2'])]);
      spec.given([...given, notified('ntf_0', 1, ['mt_1', 'mt_2'])]).when(sent).then([]);
    });

    it('the next notice waits for the window after the email', () => {
      const given = [queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0), queued('ntf_1', 1, [m(2)], 1, 2)];
      spec
        .given(given)
        .when({ type: 'RecordSent', notificationId: 'ntf_0', attempt: 1, transport: 'outbox', messageId: '<ntf_0@x>', policy, now: at(1) })
        .then([{ ...notified('ntf_0', 1, ['mt_1'], 61), data: { ...(notified('ntf_0', 1, ['mt_1'], 61).data as object), transport: 'outbox' } } as BuyerNoticeEvent]);
    });

    it('a temporary failure is retried at its retryAt, with the matches that came meanwhile', () => {
      const given = [queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0)];
      const failed: BuyerNoticeEvent = {
        type: 'buyer.notice_failed',
        data: { buyerId, notificationId: 'ntf_0', attempt: 1, error: temporary, retryAt: iso(1), failedAt: iso(0), dueAt: iso(1) },
      };
      spec.given(given).when({ type: 'RecordFailure', notificationId: 'ntf_0', attempt: 1, error: temporary, retryAt: at(1), policy, now: at(0) }).then([failed]);
      spec.given([...given, failed]).when(queue(0, [m(2)])).then([queued('ntf_0', 0, [m(2)], 1)]);
      spec.given([...given, failed]).when(claim('ntf_0', 1)).then([attempted('ntf_0', 1, 2)]);
    });

    it('gives up when told to: the matches are never emailed', () => {
      const given = [queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0)];
      spec
        .given(given)
        .when({ type: 'RecordFailure', notificationId: 'ntf_0', attempt: 1, error: temporary, retryAt: null, policy, now: at(0) })
        .then([{ type: 'buyer.notice_failed', data: { buyerId, notificationId: 'ntf_0', attempt: 1, error: temporary, retryAt: null, failedAt: iso(0), dueAt: null } }]);
    });

    it('closes a claim left without an outcome past its lease as interrupted, never sending it again', () => {
      const given = [queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0)];
      const close = (minute: number): BuyerNoticeCommand => ({ type: 'CloseInterrupted', notificationId: 'ntf_0', policy, now: at(minute) });
      spec.given(given).when(close(1)).then([]);
      spec
        .given(given)
        .when(close(2))
        .then([
          {
            type: 'buyer.notice_failed',
            data: {
              buyerId,
              notificationId: 'ntf_0',
              attempt: 1,
              error: { code: 'NOTIFICATION_INTERRUPTED', message: expect.any(String) as unknown as string, responseCode: null },
              retryAt: null,
              failedAt: iso(2),
              dueAt: null,
            },
          },
        ]);
    });
  });

  describe('unsubscribing', () => {
    it('records the unsubscription once and suppresses the notices waiting', () => {
      spec
        .given([queued('ntf_0', 0, [m(1)], 0)])
        .when({ type: 'Unsubscribe', buyerId, policy, now: at(1) })
        .then([
          { type: 'buyer.unsubscribed', data: { buyerId, unsubscribedAt: iso(1), dueAt: iso(0) } },
          { type: 'buyer.notice_suppressed', data: { buyerId, notificationId: 'ntf_0', matches: [m(1)], reason: 'unsubscribed', suppressedAt: iso(1), dueAt: null } },
        ]);
      spec.given([{ type: 'buyer.unsubscribed', data: { buyerId, unsubscribedAt: iso(1), dueAt: null } }]).when({ type: 'Unsubscribe', buyerId, policy, now: at(2) }).then([]);
    });

    it('suppresses a waiting notice when asked (erased, nothing left in stock), not one under way', () => {
      const suppress: BuyerNoticeCommand = { type: 'SuppressNotice', notificationId: 'ntf_0', reason: 'erased', policy, now: at(1) };
      spec
        .given([queued('ntf_0', 0, [m(1)], 0)])
        .when(suppress)
        .then([{ type: 'buyer.notice_suppressed', data: { buyerId, notificationId: 'ntf_0', matches: [m(1)], reason: 'erased', suppressedAt: iso(1), dueAt: null } }]);
      spec.given([queued('ntf_0', 0, [m(1)], 0), attempted('ntf_0', 0)]).when(suppress).then([]);
    });
  });
});
