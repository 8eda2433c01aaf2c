// What other contexts may read of buyer requests (matching, to judge stock against open demand;
// trading, to name the counterparty of an offer or a trade): read-only views, through queries
// demand owns, so no one else knows its collections or indexes.
import type { MatchKind } from '@app/contracts';

export const BUYER_REQUEST_READER = Symbol('BUYER_REQUEST_READER');

import type { BuyerIdentity } from '@app/platform';

export type { BuyerIdentity };

/** `open` until the first full match, then `matched`; `archived` never matches again. */
export type BuyerRequestStatus = 'open' | 'matched' | 'archived';

/** A buyer request as others see it: its criteria (display and normalized) and the items it matched. */
export interface BuyerRequestView {
  id: string;
  workspaceId: string;
  status: BuyerRequestStatus;
  cardName: string;
  /** Null: any printing of the card (then `setKey` is `*` and `matchKey` `*|<cardKey>`). */
  setName: string | null;
  /** Null: any condition (then `conditionClass` is `*`). */
  condition: string | null;
  /** Null: no price limit. */
  maxPriceMinor: number | null;
  currency: string;
  source: string | null;
  cardKey: string;
  setKey: string;
  matchKey: string;
  conditionClass: string;
  conditionScore: number;
  gradingCompany: string | null;
  /** The inventory items recorded as full matches: lets matching skip known pairs cheaply. */
  matchedItemIds: string[];
  /** Who the buyer is, opened; null when the request names no buyer. */
  buyer: BuyerIdentity | null;
}

/** A match recorded on a buyer request, as others see it. */
export interface MatchView {
  matchId: string;
  buyerRequestId: string;
  inventoryItemId: string;
  /** `full`, or `near_miss` (a near miss that later met every criterion is `full`, same id). */
  kind: MatchKind;
  score: number;
}

/** What an inventory item offers, as far as finding the requests it meets goes. */
export interface OfferedItem {
  workspaceId: string;
  /** The item's card (requests for any printing of it are found by it). */
  cardKey: string;
  matchKey: string;
  currency: string;
  conditionClass: string;
  conditionScore: number;
  priceMinor: number;
}

export interface BuyerRequestReader {
  /**
   * Requests of the item's workspace that still take matches (open or matched) and that it could
   * fully meet: same card and set (or any set), currency and condition class (or any condition),
   * price at most their maximum (or no limit), condition at least theirs. At most `limit`.
   */
  activeRequestsFor(item: OfferedItem, limit: number): Promise<BuyerRequestView[]>;
  /**
   * `activeRequestsFor` of each item (the same requests, in the same order), read for many items
   * at once: a push of thousands of items asks a few queries instead of one per item.
   */
  activeRequestsForMany(items: readonly OfferedItem[], limit: number): Promise<BuyerRequestView[][]>;
  /** The requests with these ids that exist (any workspace: callers compare `workspaceId`). */
  getMany(ids: readonly string[]): Promise<BuyerRequestView[]>;
  /** A match recorded for a request of `workspaceId` (full or near miss), or null (another workspace's is null). */
  getMatch(workspaceId: string, matchId: string): Promise<MatchView | null>;
}
