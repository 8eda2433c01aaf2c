// The buyer's email timer, derived from the log alone: every buyer notice event carries `dueAt`,
// when the buyer's stream must be looked at next (a notice to send, a retry, a claim's lease) — a
// schedule of the one timer per buyer, or its cancel when nothing is left to do. A restart, a second
// worker or a rebuilt timers read model finds the same timer; firing it when nothing is due decides
// nothing (buyer-notice.sender.ts).
import type { TimerSource } from '@app/platform';

import { BUYER_NOTICE_EVENT_TYPES } from './buyer-notice.events';
import { BUYER_NOTICE_TIMER } from './buyer-notice.sender';

export const buyerNoticeTimerId = (buyerId: string) => `buyer-notice:${buyerId}`;

export const buyerNoticeTimers: TimerSource = {
  name: 'buyer-notices',
  version: 1,
  eventTypes: BUYER_NOTICE_EVENT_TYPES,
  timersOf(event) {
    const { buyerId, dueAt } = event.data as { buyerId: string; dueAt: string | null };
    if (!dueAt) return { cancel: [buyerNoticeTimerId(buyerId)] };
    return { schedule: [{ timerId: buyerNoticeTimerId(buyerId), kind: BUYER_NOTICE_TIMER, dueAt, workspaceId: event.metadata.workspaceId, subjectId: buyerId }] };
  },
};
