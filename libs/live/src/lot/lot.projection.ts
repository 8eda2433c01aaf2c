// Read models of lots and of the reserves placed on them: one document per lot (its status, its
// best, its counts, its winners and what each got) and one per reserve (in the lot's order). A
// reserve's standing is kept as placed, and marked `outbid` when a later reserve leads; at close the
// answer derives won/lost from the lot (so closing a lot of thousands of reserves writes the
// winners, not every reserve). Every event of a lot goes through the lot's document, whose
// revision makes the projection idempotent.
import type { CollectionSpec, Projection, StreamDoc } from '@app/platform';
import { streamEntityId } from '@app/platform';

import { LOT_EVENT_TYPES, type LotStatus, parseLotEvent, type ReserveStanding } from './lot.events';

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
}

export interface ReserveDoc extends StreamDoc {
  workspaceId: string;
  sessionId: string;
  lotId: string;
  sequence: number;
  amountMinor: number;
  currency: string;
  buyerSealed: string;
  buyerRequestId: string | null;
  /** As placed; an auction's leader is marked `outbid` once a later reserve leads. */
  standing: ReserveStanding;
  outbid: boolean;
  quantity: number;
  holdId: string | null;
  tradeId: string | null;
  createdAt: string;
  updatedAt: string;
}

export const LOTS = {
  name: 'live_lots',
  indexes: [{ name: 'by_ws_session_created', fields: [['workspaceId', 1], ['sessionId', 1], ['createdAt', 1], ['id', 1]] }],
} satisfies CollectionSpec;

export const RESERVES = {
  name: 'live_reserves',
  indexes: [{ name: 'by_ws_lot_sequence', fields: [['workspaceId', 1], ['lotId', 1], ['sequence', 1], ['id', 1]] }],
} satisfies CollectionSpec;

export const lotProjection: Projection = {
  name: 'live_lots',
  version: 1,
  collections: [LOTS, RESERVES],
  eventTypes: LOT_EVENT_TYPES,
  async apply(recorded, store) {
    const lots = store.collection<LotDoc>(LOTS);
    const reserves = store.collection<ReserveDoc>(RESERVES);
    const event = parseLotEvent(recorded);
    const id = streamEntityId(recorded.streamId);
    const lot = await lots.get(id);
    if (lot && lot.revision >= recorded.revision) return;
    const revision = recorded.revision;
    if (event.type === 'lot.added') {
      const { lotId, addedAt, ...terms } = event.data;
      await lots.put({
        id: lotId,
        revision,
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
      });
      return;
    }
    if (!lot) return;
    switch (event.type) {
      case 'lot.opened':
        await lots.put({ ...lot, revision, status: 'open', openedAt: event.data.openedAt, updatedAt: event.data.openedAt });
        return;
      case 'reserve.placed': {
        const d = event.data;
        if (d.standing === 'leading' && lot.bestReserveId) {
          const previous = await reserves.get(lot.bestReserveId);
          if (previous) await reserves.put({ ...previous, outbid: true, updatedAt: d.placedAt });
        }
        await reserves.put({
          id: d.reserveId,
          revision,
          workspaceId: recorded.metadata.workspaceId,
          sessionId: d.sessionId,
          lotId: d.lotId,
          sequence: d.sequence,
          amountMinor: d.amountMinor,
          currency: d.currency,
          buyerSealed: d.buyerSealed,
          buyerRequestId: d.buyerRequestId,
          standing: d.standing,
          outbid: false,
          quantity: d.quantity,
          holdId: null,
          tradeId: null,
          createdAt: d.placedAt,
          updatedAt: d.placedAt,
        });
        const best = d.standing === 'leading' || (d.standing === 'won' && d.amountMinor > (lot.bestAmountMinor ?? -1));
        await lots.put({
          ...lot,
          revision,
          reserveCount: d.sequence,
          bestReserveId: best ? d.reserveId : lot.bestReserveId,
          bestAmountMinor: best ? d.amountMinor : lot.bestAmountMinor,
          claimedUnits: lot.claimedUnits + (d.standing === 'won' ? d.quantity : 0),
          updatedAt: d.placedAt,
        });
        return;
      }
      case 'lot.closed': {
        const d = event.data;
        const winners = d.winners.map((w) => ({ ...w, holdId: null, tradeId: null }));
        await lots.put({ ...lot, revision, status: 'closed', winners, unsold: d.unsold, closedAt: d.closedAt, updatedAt: d.closedAt });
        return;
      }
      case 'lot.settled': {
        const d = event.data;
        const awards = new Map(d.awards.map((a) => [a.reserveId, a]));
        for (const award of d.awards) {
          const reserve = await reserves.get(award.reserveId);
          if (reserve) await reserves.put({ ...reserve, holdId: award.holdId, tradeId: award.tradeId, updatedAt: d.settledAt });
        }
        const winners = lot.winners.map((w) => ({ ...w, holdId: awards.get(w.reserveId)?.holdId ?? null, tradeId: awards.get(w.reserveId)?.tradeId ?? null }));
        await lots.put({ ...lot, revision, winners, settled: true, updatedAt: d.settledAt });
        return;
      }
    }
  },
};
