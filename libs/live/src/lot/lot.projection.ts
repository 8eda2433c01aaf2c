// Read models of lots and of the reserves placed on them. A lot: one document per lot stream (its
// status, its best, its counts, its winners and what each got), inline — the write that changes a
// lot brings it up to date. A reserve: one document per `reserve.placed`, written once; whatever
// later changes about a reserve (outbid, won, the hold or trade it got) is read off its lot's
// document, so closing or settling a lot of thousands of reserves writes the lot, not every reserve.
// A stream's reserves are many documents, which the inline path (one document per stream) does not
// keep: the reserves follow the log asynchronously, and their list waits for them (by name) up to
// its lot's last event.
import { type CollectionSpec, documentProjection, type StreamDoc } from '@app/platform';

import { LOT_EVENT_TYPES, type LotStatus, parseLotEvent, reservePlaced, type ReservePlaced, type ReserveStanding } from './lot.events';

export interface LotWinner {
  reserveId: string;
  amountMinor: number;
  quantity: number;
  holdId: string | null;
  tradeId: string | null;
}

export interface LotDoc extends StreamDoc {
  workspaceId: string;
  sessionId: string;
  status: LotStatus;
  inventoryItemId: string;
  cardName: string;
  setName: string;
  quantity: number;
  startingPriceMinor: number;
  incrementMinor: number | null;
  currency: string;
  reserveCount: number;
  bestReserveId: string | null;
  bestAmountMinor: number | null;
  claimedUnits: number;
  winners: LotWinner[];
  unsold: number | null;
  settled: boolean;
  openedAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Global log position of the lot's last event: how far its reserves' read model must be for its list. */
  position: number;
}

/** What a reserve is, as placed (and as its answer shows it). */
export interface ReserveFacts {
  id: string;
  sessionId: string;
  lotId: string;
  sequence: number;
  amountMinor: number;
  currency: string;
  buyerRequestId: string | null;
  /** As placed; an auction's `leading` reserve is outbid once its lot's best is another. */
  standing: ReserveStanding;
  quantity: number;
  createdAt: string;
}

export interface ReserveDoc extends StreamDoc, ReserveFacts {
  workspaceId: string;
  buyerSealed: string;
}

export const LOTS = {
  name: 'live_lots',
  indexes: [{ name: 'by_ws_session_created', fields: [['workspaceId', 1], ['sessionId', 1], ['createdAt', 1], ['id', 1]] }],
} satisfies CollectionSpec;

export const RESERVES = {
  name: 'live_reserves',
  indexes: [{ name: 'by_ws_lot_sequence', fields: [['workspaceId', 1], ['lotId', 1], ['sequence', 1], ['id', 1]] }],
} satisfies CollectionSpec;

export const reserveFactsOf = (d: ReservePlaced): ReserveFacts => ({
  id: d.reserveId,
  sessionId: d.sessionId,
  lotId: d.lotId,
  sequence: d.sequence,
  amountMinor: d.amountMinor,
  currency: d.currency,
  buyerRequestId: d.buyerRequestId,
  standing: d.standing,
  quantity: d.quantity,
  createdAt: d.placedAt,
});

export const lotProjection = documentProjection<LotDoc>({
  name: 'live_lots',
  // 2: the reserves moved to a projection of their own; the lot keeps its position.
  version: 2,
  // The lot routes' own read model: the write that changes a lot brings it up to date.
  inline: true,
  collection: LOTS,
  eventTypes: LOT_EVENT_TYPES,
  evolve(lot, recorded) {
    const event = parseLotEvent(recorded);
    const position = recorded.position;
    if (event.type === 'lot.added') {
      const { lotId, addedAt, ...terms } = event.data;
      return {
        id: lotId,
        revision: recorded.revision,
        workspaceId: recorded.metadata.workspaceId,
        status: 'pending',
        ...terms,
        reserveCount: 0,
        bestReserveId: null,
        bestAmountMinor: null,
        claimedUnits: 0,
        winners: [],
        unsold: null,
        settled: false,
        openedAt: null,
        closedAt: null,
        createdAt: addedAt,
        updatedAt: addedAt,
        position,
      };
    }
    if (!lot) return lot;
    switch (event.type) {
      case 'lot.opened':
        return { ...lot, status: 'open', openedAt: event.data.openedAt, updatedAt: event.data.openedAt, position };
      case 'reserve.placed': {
        const d = event.data;
        const best = d.standing === 'leading' || (d.standing === 'won' && d.amountMinor > (lot.bestAmountMinor ?? -1));
        return {
          ...lot,
          reserveCount: d.sequence,
          bestReserveId: best ? d.reserveId : lot.bestReserveId,
          bestAmountMinor: best ? d.amountMinor : lot.bestAmountMinor,
          claimedUnits: lot.claimedUnits + (d.standing === 'won' ? d.quantity : 0),
          updatedAt: d.placedAt,
          position,
        };
      }
      case 'lot.closed': {
        const d = event.data;
        const winners = d.winners.map(({ reserveId, amountMinor, quantity }) => ({ reserveId, amountMinor, quantity, holdId: null, tradeId: null }));
        return { ...lot, status: 'closed', winners, unsold: d.unsold, closedAt: d.closedAt, updatedAt: d.closedAt, position };
      }
      case 'lot.settled': {
        const d = event.data;
        const awards = new Map(d.awards.map((a) => [a.reserveId, a]));
        const winners = lot.winners.map((w) => ({ ...w, holdId: awards.get(w.reserveId)?.holdId ?? null, tradeId: awards.get(w.reserveId)?.tradeId ?? null }));
        return { ...lot, winners, settled: true, updatedAt: d.settledAt, position };
      }
      default:
        return lot;
    }
  },
});

export const reserveProjection = documentProjection<ReserveDoc>({
  name: 'live_reserves',
  version: 1,
  collection: RESERVES,
  eventTypes: ['reserve.placed'],
  documentId: (recorded) => reservePlaced.shape.reserveId.parse((recorded.data as Record<string, unknown>).reserveId),
  evolve(reserve, recorded) {
    // Written once: nothing later changes a reserve's own document.
    if (reserve) return reserve;
    const d = reservePlaced.parse(recorded.data);
    return { ...reserveFactsOf(d), revision: recorded.revision, workspaceId: recorded.metadata.workspaceId, buyerSealed: d.buyerSealed };
  },
});
