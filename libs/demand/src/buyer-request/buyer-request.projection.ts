// Read model of buyer requests: by id, and per workspace newest first.
import { documentProjection, streamEntityId, type StreamDoc } from '@app/platform';

import { buyerRequestCreated } from './buyer-request.events';

export interface BuyerRequestDoc extends StreamDoc {
  workspaceId: string;
  cardName: string;
  setName: string;
  condition: string;
  maxPriceMinor: number;
  currency: string;
  source: string | null;
  status: 'open';
  matchCount: number;
  createdAt: string;
  updatedAt: string;
}

export const BUYER_REQUESTS = {
  name: 'buyer_requests',
  indexes: [{ name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] }],
} as const;

export const buyerRequestProjection = documentProjection<BuyerRequestDoc>({
  name: 'buyer_requests',
  version: 1,
  collection: BUYER_REQUESTS,
  eventTypes: ['buyer_request.created'],
  evolve(_doc, event) {
    const d = buyerRequestCreated.parse(event.data);
    return {
      id: streamEntityId(event.streamId),
      revision: event.revision,
      workspaceId: event.metadata.workspaceId,
      cardName: d.cardName,
      setName: d.setName,
      condition: d.condition,
      maxPriceMinor: d.maxPriceMinor,
      currency: d.currency,
      source: d.source,
      status: 'open',
      matchCount: 0,
      createdAt: d.createdAt,
      updatedAt: d.createdAt,
    };
  },
});
