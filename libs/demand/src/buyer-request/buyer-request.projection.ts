// The read model of buyer requests: what their GET and list routes read, and what others read
// through BuyerRequestReader. The buyer stays sealed here as in the log (`buyerSealed`): it is
// opened only to answer. The matches found for a request: buyer-request-matches.projection.ts.
import { documentProjection, streamEntityId, type StreamDoc } from '@app/platform';

import type { BuyerRequestStatus, BuyerRequestView } from './buyer-request-reader.port';
import { buyerRequestArchived } from './buyer-request.events';
import { buyerRequestCreated, buyerRequestUpdated, parseMatchesRecorded } from './buyer-request.parse';

/** The price ceiling of a request without a price limit, as the `by_match` index compares it: above any price. */
export const NO_PRICE_LIMIT = Number.MAX_SAFE_INTEGER;

/** What the `by_match` index compares a price with: the maximum, or NO_PRICE_LIMIT when there is none. */
export const priceCeilingOf = (maxPriceMinor: number | null): number => maxPriceMinor ?? NO_PRICE_LIMIT;

/** Requests that still take matches. */
export const ACTIVE_REQUEST_STATUSES: readonly BuyerRequestStatus[] = ['open', 'matched'];

/** What a request's document records beside the view: its history. */
export interface BuyerRequestHistory {
  /** Full matches recorded. */
  matchCount: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

/** The read model's document: what others may read of it (the view, its buyer sealed), and its history. */
export interface BuyerRequestDoc extends StreamDoc, Omit<BuyerRequestView, 'buyer'>, BuyerRequestHistory {
  /**
   * The buyer as the log holds it, sealed (null: none). Documents projected before buyers existed
   * have no field; their requests name no buyer (their events carry none).
   */
  buyerSealed?: string | null;
  /**
   * The widget's buyer (`buyer_…`) and their contact, sealed with the buyer's own key (null: none;
   * absent on documents projected before the widget). Erasing the buyer's personal data leaves
   * both here: the contact no longer opens.
   */
  buyerId?: string | null;
  contactSealed?: string | null;
  /** `maxPriceMinor`, or NO_PRICE_LIMIT when the request has none: what reverse matching compares prices with. */
  priceCeilingMinor: number;
}

export const BUYER_REQUESTS = {
  name: 'buyer_requests',
  indexes: [
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_status_created', fields: [['workspaceId', 1], ['status', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_card_created', fields: [['workspaceId', 1], ['cardKey', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_set_created', fields: [['workspaceId', 1], ['setKey', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_buyer_created', fields: [['workspaceId', 1], ['buyerId', 1], ['createdAt', -1], ['id', -1]] },
    // Reverse matching: the open requests an inventory item fully meets. Open fields are values
    // of the same fields, so an item asks by equality (IN) and a range, never a scan: a request for
    // any printing is under `matchKey` `*|<cardKey>`, one for any condition under `conditionClass`
    // `*`, one without a price limit has the ceiling NO_PRICE_LIMIT.
    {
      name: 'by_match',
      fields: [['workspaceId', 1], ['matchKey', 1], ['currency', 1], ['conditionClass', 1], ['status', 1], ['priceCeilingMinor', 1]],
    },
  ],
} as const;

export const buyerRequestProjection = documentProjection<BuyerRequestDoc>({
  name: 'buyer_requests',
  // 4: open fields (setName, condition, maxPriceMinor may be null) and `priceCeilingMinor` in `by_match`.
  version: 4,
  // The request routes' own read model: the write that changes a request brings it up to date.
  inline: true,
  collection: BUYER_REQUESTS,
  // The matches a write records are one event (buyer_request.matches_recorded); of an old log's one
  // event per match, only buyer_request.matched (the newly full ones) changes the request: not
  // match.created, one document write per match (with its five index entries) was the largest
  // cost of a busy POST.
  eventTypes: ['buyer_request.created', 'buyer_request.updated', 'buyer_request.archived', 'buyer_request.matches_recorded', 'buyer_request.matched'],
  evolve(doc, event) {
    if (event.type === 'buyer_request.created') {
      const d = buyerRequestCreated.parse(event.data);
      return {
        id: streamEntityId(event.streamId),
        revision: event.revision,
        workspaceId: event.metadata.workspaceId,
        cardName: d.cardName,
        setName: d.setName,
        condition: d.condition,
        maxPriceMinor: d.maxPriceMinor,
        priceCeilingMinor: priceCeilingOf(d.maxPriceMinor),
        currency: d.currency,
        source: d.source,
        ...d.match,
        buyerSealed: d.buyerSealed,
        buyerId: d.buyerId,
        contactSealed: d.contactSealed,
        status: 'open',
        matchCount: 0,
        matchedItemIds: [],
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        archivedAt: null,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'buyer_request.updated': {
        const d = buyerRequestUpdated.parse(event.data);
        return {
          ...doc,
          revision: event.revision,
          cardName: d.cardName,
          setName: d.setName,
          condition: d.condition,
          maxPriceMinor: d.maxPriceMinor,
          priceCeilingMinor: priceCeilingOf(d.maxPriceMinor),
          currency: d.currency,
          source: d.source,
          ...d.match,
          buyerSealed: d.buyerSealed,
          updatedAt: d.updatedAt,
        };
      }
      case 'buyer_request.archived': {
        const d = buyerRequestArchived.parse(event.data);
        return { ...doc, revision: event.revision, status: 'archived', archivedAt: d.archivedAt, updatedAt: d.archivedAt };
      }
      case 'buyer_request.matches_recorded':
      case 'buyer_request.matched': {
        const d = parseMatchesRecorded(event);
        // Near misses alone change nothing the request shows.
        if (d.full.length === 0) return { ...doc, revision: event.revision };
        const known = new Set(doc.matchedItemIds);
        return {
          ...doc,
          revision: event.revision,
          status: doc.status === 'archived' ? 'archived' : 'matched',
          matchCount: d.matchCount ?? doc.matchCount,
          matchedItemIds: [...doc.matchedItemIds, ...d.full.map((m) => m.inventoryItemId).filter((id) => !known.has(id))],
          updatedAt: d.recordedAt,
        };
      }
      default:
        return doc;
    }
  },
});
