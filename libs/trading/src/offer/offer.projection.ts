// Read model of offers: one document per offer, indexed for the list's filters and the thread.
import { type CollectionSpec, documentProjection, type StreamDoc } from '@app/platform';

import { newestFirstIndexes } from '../trading.reads';

import { OFFER_EVENT_TYPES, type OfferParty, type OfferStatus, parseOfferEvent } from './offer.events';

export interface OfferDoc extends StreamDoc {
  workspaceId: string;
  threadId: string;
  countersOfferId: string | null;
  status: OfferStatus;
  inventoryItemId: string;
  buyerRequestId: string | null;
  matchId: string | null;
  amountMinor: number;
  currency: string;
  quantity: number;
  from: OfferParty;
  message: string | null;
  expiresAt: string;
  tradeId: string | null;
  counterOfferId: string | null;
  answeredBy: OfferParty | null;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

export const OFFERS = {
  name: 'offers',
  indexes: newestFirstIndexes({ status: 'status', item: 'inventoryItemId', request: 'buyerRequestId', thread: 'threadId' }),
} satisfies CollectionSpec;

export const offerProjection = documentProjection<OfferDoc>({
  name: 'offers',
  version: 1,
  // The offer routes' own read model: the write that changes an offer brings it up to date.
  inline: true,
  collection: OFFERS,
  eventTypes: OFFER_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseOfferEvent(recorded);
    if (event.type === 'offer.created') {
      const { offerId, createdAt, ...d } = event.data;
      return {
        id: offerId,
        revision: recorded.revision,
        workspaceId: recorded.metadata.workspaceId,
        ...d,
        status: 'pending',
        tradeId: null,
        counterOfferId: null,
        answeredBy: null,
        reason: null,
        createdAt,
        updatedAt: createdAt,
      };
    }
    if (!doc) return doc;
    switch (event.type) {
      case 'offer.accepted':
        return { ...doc, status: 'accepted', tradeId: event.data.tradeId, answeredBy: event.data.by, updatedAt: event.data.acceptedAt };
      case 'offer.rejected':
        return { ...doc, status: 'rejected', reason: event.data.reason, answeredBy: event.data.by, updatedAt: event.data.rejectedAt };
      case 'offer.countered':
        return { ...doc, status: 'countered', counterOfferId: event.data.counterOfferId, answeredBy: event.data.by, updatedAt: event.data.counteredAt };
      case 'offer.expired':
        return { ...doc, status: 'expired', updatedAt: event.data.expiredAt };
      default:
        return doc;
    }
  },
});
