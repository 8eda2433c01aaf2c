// Read model of the buyer emails, one document per notice (id = notification id): what the seller
// sees of each — pending, sending, retrying, sent, failed or suppressed, the matches it covers, its
// attempts and last error — by pseudonymous buyer id, never an address.
import { documentProjection, type StreamDoc } from '@app/platform';

import { type NoticeError, NOTICE_EVENT_TYPES, type NoticeMatch, parseBuyerNoticeEvent, type SuppressionReason } from './buyer-notice.events';

export const NOTICE_STATUSES = ['pending', 'sending', 'retrying', 'sent', 'failed', 'suppressed'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

export interface BuyerNoticeDoc extends StreamDoc {
  workspaceId: string;
  buyerId: string;
  status: NoticeStatus;
  matches: NoticeMatch[];
  attempts: number;
  /** When it is (or was) to be sent, or tried again. */
  sendAt: string | null;
  sentAt: string | null;
  transport: 'smtp' | 'outbox' | null;
  reason: SuppressionReason | null;
  lastError: NoticeError | null;
  createdAt: string;
  updatedAt: string;
}

export const BUYER_NOTICES = {
  name: 'buyer_notices',
  indexes: [
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_buyer_created', fields: [['workspaceId', 1], ['buyerId', 1], ['createdAt', -1], ['id', -1]] },
  ],
} as const;

export const buyerNoticeProjection = documentProjection<BuyerNoticeDoc>({
  name: 'buyer_notices',
  version: 1,
  collection: BUYER_NOTICES,
  eventTypes: NOTICE_EVENT_TYPES,
  documentId: (event) => (event.data as { notificationId: string }).notificationId,
  evolve(doc, recorded) {
    const event = parseBuyerNoticeEvent(recorded);
    if (event.type === 'buyer.unsubscribed') return doc;
    const at = recorded.createdAt;
    const base: BuyerNoticeDoc = doc ?? {
      id: event.data.notificationId,
      revision: recorded.revision,
      workspaceId: recorded.metadata.workspaceId,
      buyerId: event.data.buyerId,
      status: 'pending',
      matches: [],
      attempts: 0,
      sendAt: null,
      sentAt: null,
      transport: null,
      reason: null,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    };
    const next = { ...base, updatedAt: at };
    switch (event.type) {
      case 'buyer.notice_queued':
        return { ...next, status: 'pending', matches: [...base.matches, ...event.data.matches], sendAt: base.sendAt ?? event.data.sendAt };
      case 'buyer.notice_attempted':
        return { ...next, status: 'sending', attempts: event.data.attempt };
      case 'buyer.notified':
        return { ...next, status: 'sent', sentAt: event.data.sentAt, transport: event.data.transport };
      case 'buyer.notice_failed':
        return { ...next, status: event.data.retryAt ? 'retrying' : 'failed', lastError: event.data.error, sendAt: event.data.retryAt ?? base.sendAt };
      case 'buyer.notice_suppressed': {
        const known = new Set(base.matches.map((m) => m.matchId));
        return { ...next, status: 'suppressed', reason: event.data.reason, matches: [...base.matches, ...event.data.matches.filter((m) => !known.has(m.matchId))] };
      }
      default:
        return doc;
    }
  },
});
