// Read model of trades: one document per trade, with what the list filters on indexed. The
// timeline of a trade is read from its stream, not kept here.
import { type CollectionSpec, documentProjection, type StreamDoc } from '@app/platform';

import { newestFirstIndexes } from '../trading.reads';

import { parseTradeEvent, TRADE_EVENT_TYPES, type TradeStatus } from './trade.events';

export interface TradeDoc extends StreamDoc {
  workspaceId: string;
  status: TradeStatus;
  inventoryItemId: string;
  buyerRequestId: string | null;
  /** The trade's own buyer, sealed (a live win); absent or null: its buyer request's. */
  buyerSealed?: string | null;
  matchId: string | null;
  offerId: string | null;
  holdId: string | null;
  quantity: number;
  amountMinor: number;
  currency: string;
  depositMinor: number;
  refundDue: boolean;
  paymentReference: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  dispute: { reason: string | null; openedAt: string; resolution: 'refund' | 'release' | null } | null;
  createdAt: string;
  updatedAt: string;
}

export const TRADES = {
  name: 'trades',
  indexes: newestFirstIndexes({ status: 'status', item: 'inventoryItemId', request: 'buyerRequestId' }),
} satisfies CollectionSpec;

export const tradeProjection = documentProjection<TradeDoc>({
  name: 'trades',
  version: 1,
  // The trade routes' own read model: the write that changes a trade brings it up to date.
  inline: true,
  collection: TRADES,
  eventTypes: TRADE_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseTradeEvent(recorded);
    if (event.type === 'trade.initiated') {
      const d = event.data;
      return {
        id: d.tradeId,
        revision: recorded.revision,
        workspaceId: recorded.metadata.workspaceId,
        status: 'initiated',
        inventoryItemId: d.inventoryItemId,
        buyerRequestId: d.buyerRequestId,
        buyerSealed: d.buyerSealed ?? null,
        matchId: d.matchId,
        offerId: d.offerId,
        holdId: d.holdId,
        quantity: d.quantity,
        amountMinor: d.amountMinor,
        currency: d.currency,
        depositMinor: d.depositMinor,
        refundDue: false,
        paymentReference: null,
        carrier: null,
        trackingNumber: null,
        dispute: null,
        createdAt: d.initiatedAt,
        updatedAt: d.initiatedAt,
      };
    }
    if (!doc || event.type !== 'trade.status_changed') return doc;
    const d = event.data;
    return {
      ...doc,
      status: d.to,
      refundDue: doc.refundDue || d.refundDue,
      paymentReference: d.to === 'paid' ? d.reference : doc.paymentReference,
      carrier: d.to === 'shipped' ? d.carrier : doc.carrier,
      trackingNumber: d.to === 'shipped' ? d.trackingNumber : doc.trackingNumber,
      dispute:
        d.to === 'disputed'
          ? { reason: d.reason, openedAt: d.at, resolution: null }
          : doc.dispute && d.resolution
            ? { ...doc.dispute, resolution: d.resolution }
            : doc.dispute,
      updatedAt: d.at,
    };
  },
});
