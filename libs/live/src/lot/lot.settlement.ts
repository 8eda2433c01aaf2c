// The settlement process manager: when a lot closes (by itself or with its session), each winning
// reserve becomes a hold with a deposit due and the session's payment window — or a trade, as the
// session is set — on the units the lot held: in one decision, the lot's reservation is released
// and each winner's units reserved again under its hold or trade, and the lot records what each
// winner got (lot.settled). Idempotent on replay: a settled lot decides nothing, the awards' ids
// derive from the reserves' (`rsv_X` → `hld_X` / `trd_X`) and a hold or trade that exists already
// is left as it is. Order for EventStoreDB (stream by stream): the item, the holds or trades, the
// lot last — a crash part-way is completed by the replay. Who each winner is (the buyer sealed on
// the reserve, its buyer request) is read from the lot's stream, never from the reserves' read
// model, which may not have reached the reserves placed just before the close.
// It also closes every lot an ended session names that is still open (the end route closes them in
// its own decision; this covers a crash between appends on EventStoreDB).
import { Inject, Injectable } from '@nestjs/common';

import { BuyerSeal, CLOCK, type Clock, EVENT_STORE, type EventStore, type ProcessManager, type RecordedEvent } from '@app/platform';
import { handleCommands, loadStream, type Transaction } from '@app/platform/domain';
import { itemFor, openTrade, placeHold, tradingBuyerContext } from '@app/trading';

import { liveSessionAggregate } from '../session/live-session.aggregate';
import { liveSessionEnded, liveSessionStream } from '../session/live-session.events';
import { lotAggregate } from './lot.aggregate';
import { type Lot, winnersOf } from './lot.decider';
import { lotClosed, lotStream } from './lot.events';
import { reserveBuyerContext } from './lot.handlers';

/** The hold or trade id a winning reserve's award gets: derived, so a replay finds it. */
export const awardId = (kind: 'hld' | 'trd', reserveId: string): string => `${kind}_${reserveId.slice(reserveId.indexOf('_') + 1)}`;

@Injectable()
export class LiveSettlement implements ProcessManager {
  readonly name = 'live-settlement';
  readonly eventTypes = ['lot.closed', 'live_session.ended'];

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly seal: BuyerSeal,
  ) {}

  async handle(batch: readonly RecordedEvent[]): Promise<void> {
    for (const event of batch) {
      if (event.type === 'live_session.ended') await this.closeLots(event);
      else await this.settle(event);
    }
  }

  private async closeLots(event: RecordedEvent): Promise<void> {
    const { lotIds, endedAt } = liveSessionEnded.parse(event.data);
    const metadata = { workspaceId: event.metadata.workspaceId, actor: 'live-settlement', causationId: event.id, correlationId: event.metadata.correlationId };
    await handleCommands(this.events, metadata, async (tx) => {
      for (const lotId of lotIds) {
        const lot = await tx.load(lotStream(lotId), lotAggregate);
        if (lot.state.status === 'exists' && lot.state.lot.status !== 'closed') tx.decide(lot, { type: 'CloseLot', lotId, now: new Date(endedAt) });
      }
    });
  }

  private async settle(event: RecordedEvent): Promise<void> {
    const closed = lotClosed.parse(event.data);
    const workspaceId = event.metadata.workspaceId;
    const known = await loadStream(this.events, lotStream(closed.lotId), lotAggregate, { workspaceId });
    if (known.state.status !== 'exists' || known.state.lot.settled) return;
    const lot = known.state.lot;
    const session = await loadStream(this.events, liveSessionStream(lot.sessionId), liveSessionAggregate, { workspaceId });
    if (session.state.status !== 'exists') return;
    const { settlement, depositPercent, paymentWindowHours } = session.state.session;
    const reserves = new Map(winnersOf(lot).map((w) => [w.reserveId, w]));
    const now = this.clock.now();
    const metadata = { workspaceId, actor: 'live-settlement', causationId: event.id, correlationId: event.metadata.correlationId };
    await handleCommands(this.events, metadata, async (tx) => {
      await this.release(tx, workspaceId, lot, now);
      const awards = [];
      for (const winner of closed.winners) {
        const reserve = reserves.get(winner.reserveId);
        const buyer = reserve ? this.seal.open(reserveBuyerContext(winner.reserveId), reserve.buyerSealed) : null;
        const terms = { workspaceId, inventoryItemId: lot.inventoryItemId, buyerRequestId: reserve?.buyerRequestId ?? null, quantity: winner.quantity, amountMinor: winner.amountMinor, currency: lot.currency, now };
        if (settlement === 'trade') {
          const tradeId = awardId('trd', winner.reserveId);
          await openTrade(tx, { ...terms, tradeId, matchId: null, offerId: null, buyerSealed: this.seal.seal(tradingBuyerContext(tradeId), buyer) }, undefined, { ifAbsent: true });
          awards.push({ reserveId: winner.reserveId, holdId: null, tradeId });
        } else {
          const holdId = awardId('hld', winner.reserveId);
          // The payment window runs from the close; a settlement replayed after it still gives the winner the whole window.
          const expiresAt = new Date(Math.max(Date.parse(closed.closedAt), now.getTime()) + paymentWindowHours * 3_600_000).toISOString();
          await placeHold(
            tx,
            { ...terms, holdId, depositMinor: Math.round((winner.amountMinor * depositPercent) / 100), expiresAt, buyerSealed: this.seal.seal(tradingBuyerContext(holdId), buyer) },
            { ifAbsent: true },
          );
          awards.push({ reserveId: winner.reserveId, holdId, tradeId: null });
        }
      }
      tx.decide(await tx.load(lotStream(lot.lotId), lotAggregate), { type: 'SettleLot', lotId: lot.lotId, awards, now });
    });
  }

  /** The lot's units go back to available (the winners' are reserved again at once, in the same decision). */
  private async release(tx: Transaction, workspaceId: string, lot: Lot, now: Date): Promise<void> {
    const item = await itemFor(tx, workspaceId, lot.inventoryItemId);
    if (item.reservation(lot.lotId)?.holderId === lot.lotId) item.release(tx, lot.lotId, `lot ${lot.lotId} closed`, now);
  }
}
