// Read model of holds: one document per hold, indexed for the list's filters.
import { type CollectionSpec, documentProjection, type StreamDoc } from '@app/platform';

import { newestFirstIndexes } from '../trading.reads';

import { HOLD_EVENT_TYPES, type HoldStatus, parseHoldEvent } from './hold.events';

export interface HoldDoc extends StreamDoc {
  workspaceId: string;
  status: HoldStatus;
  inventoryItemId: string;
  buyerRequestId: string | null;
  /** The hold's own buyer, sealed (a live win); absent or null: its buyer request's. */
  buyerSealed?: string | null;
  quantity: number;
  depositMinor: number;
  currency: string;
  amountMinor: number;
  expiresAt: string;
  depositPaidAt: string | null;
  depositReference: string | null;
  tradeId: string | null;
  endedAt: string | null;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

export const HOLDS = {
  name: 'holds',
  indexes: newestFirstIndexes({ status: 'status', item: 'inventoryItemId', request: 'buyerRequestId' }),
} satisfies CollectionSpec;

export const holdProjection = documentProjection<HoldDoc>({
  name: 'holds',
  version: 1,
  // The hold routes' own read model: the write that changes a hold brings it up to date.
  inline: true,
  collection: HOLDS,
  eventTypes: HOLD_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseHoldEvent(recorded);
    if (event.type === 'hold.created') {
      const d = event.data;
      return {
        id: d.holdId,
        revision: recorded.revision,
        workspaceId: recorded.metadata.workspaceId,
        status: 'active',
        inventoryItemId: d.inventoryItemId,
        buyerRequestId: d.buyerRequestId,
        buyerSealed: d.buyerSealed ?? null,
        quantity: d.quantity,
        depositMinor: d.depositMinor,
        currency: d.currency,
        amountMinor: d.amountMinor,
        expiresAt: d.expiresAt,
        depositPaidAt: null,
        depositReference: null,
        tradeId: null,
        endedAt: null,
        reason: null,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      };
    }
    if (!doc) return doc;
    switch (event.type) {
      case 'hold.deposit_paid':
        return { ...doc, depositPaidAt: event.data.paidAt, depositReference: event.data.reference, updatedAt: event.data.paidAt };
      case 'hold.converted':
        return { ...doc, status: 'converted', tradeId: event.data.tradeId, endedAt: event.data.convertedAt, updatedAt: event.data.convertedAt };
      case 'hold.released':
        return { ...doc, status: 'released', reason: event.data.reason, endedAt: event.data.releasedAt, updatedAt: event.data.releasedAt };
      case 'hold.expired':
        return { ...doc, status: 'expired', endedAt: event.data.expiredAt, updatedAt: event.data.expiredAt };
      default:
        return doc;
    }
  },
});
