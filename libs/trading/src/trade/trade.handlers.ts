// Command handlers for trades: open one (from a match, an accepted offer or an item) and move it.
// A move that ends the trade settles its units in the same transaction: cancelled releases them,
// completed sells them.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator } from '@app/platform';
import { DomainError, handleCommands, type Transaction } from '@app/platform/domain';

import { offerAggregate } from '../offer/offer.aggregate';
import { offerStream } from '../offer/offer.events';
import { requireBuyerRequest, requireMatch } from '../trading.references';
import type { Trade, TradeCommand } from './trade.decider';
import { tradeAggregate } from './trade.aggregate';
import { type CancelParty, type TradeStatus, tradeStream } from './trade.events';
import { itemFor, openTrade } from './trade.open';

export interface TradeOutcome {
  id: string;
  position: number;
  /** False when the answer is a trade that existed already (an accepted offer's). */
  created: boolean;
}

export interface OpenTradeRequest {
  matchId?: string;
  offerId?: string;
  inventoryItemId?: string;
  buyerRequestId?: string;
  amountMinor?: number;
  currency?: string;
  quantity?: number;
}

export class CreateTradeCommand extends Command<TradeOutcome> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly request: OpenTradeRequest,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateTradeCommand)
export class CreateTradeHandler implements ICommandHandler<CreateTradeCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: CreateTradeCommand): Promise<TradeOutcome> {
    const metadata = { workspaceId, actor, correlationId };
    if (request.offerId !== undefined) return this.offersTrade(workspaceId, request.offerId);
    const source = await this.source(workspaceId, request);
    const tradeId = this.ids.next('trd');
    const now = this.clock.now();
    const result = await handleCommands(this.events, metadata, async (tx) => {
      // An item the body names is checked as that field (a match's item is the match's business).
      if (request.matchId === undefined) await itemFor(tx, workspaceId, source.inventoryItemId, 'inventoryItemId');
      return openTrade(tx, {
        workspaceId,
        tradeId,
        ...source,
        quantity: request.quantity ?? 1,
        amountMinor: request.amountMinor,
        currency: request.currency,
        now,
      });
    });
    return { id: tradeId, position: result.position ?? 0, created: true };
  }

  /** What a trade answers: a match's request and item, or the item (and request) named. */
  private async source(workspaceId: string, request: OpenTradeRequest) {
    if (request.matchId !== undefined) {
      const match = await requireMatch(this.requests, workspaceId, request.matchId);
      return { inventoryItemId: match.inventoryItemId, buyerRequestId: match.buyerRequestId, matchId: match.matchId, offerId: null };
    }
    const buyerRequestId = request.buyerRequestId ?? null;
    if (buyerRequestId !== null) await requireBuyerRequest(this.requests, workspaceId, buyerRequestId);
    return { inventoryItemId: request.inventoryItemId as string, buyerRequestId, matchId: null, offerId: null };
  }

  /** An accepted offer's trade exists from its acceptance: answer it; any other offer has none. */
  private async offersTrade(workspaceId: string, offerId: string): Promise<TradeOutcome> {
    // A read of the offer's stream (the truth, not a read model that may lag): nothing is decided.
    const { value: tradeId } = await handleCommands(this.events, { workspaceId }, async (tx) => {
      const offer = await tx.load(offerStream(offerId), offerAggregate);
      if (offer.state.status === 'none') throw DomainError.unknownReference('offerId', 'offer', offerId);
      const { status, tradeId } = offer.state.offer;
      if (status !== 'accepted' || tradeId === null) {
        throw new DomainError('INVALID_TRANSITION', `Offer ${offerId} is ${status}: only an accepted offer has a trade (accepting it opens one)`, { status });
      }
      return tradeId;
    });
    return { id: tradeId, position: 0, created: false };
  }
}

export interface TradeMove {
  to: TradeStatus;
  reason?: string;
  reference?: string;
  carrier?: string;
  trackingNumber?: string;
  cancelledBy?: CancelParty;
}

export class MoveTradeCommand extends Command<{ position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly tradeId: string,
    readonly move: TradeMove,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(MoveTradeCommand)
export class MoveTradeHandler implements ICommandHandler<MoveTradeCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, tradeId, move, correlationId }: MoveTradeCommand): Promise<{ position: number }> {
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, (tx) =>
      decideOnTrade(tx, workspaceId, tradeId, { type: 'MoveTrade', tradeId, ...move, now }, now),
    );
    return { position: result.position ?? 0 };
  }
}

/**
 * Decides `command` on the trade and settles its units when the trade ended: cancelled releases
 * them, completed sells them. Returns the trade after the decision (null when there is none).
 */
export async function decideOnTrade(tx: Transaction, workspaceId: string, tradeId: string, command: TradeCommand, now: Date): Promise<Trade | null> {
  const stream = await tx.load(tradeStream(tradeId), tradeAggregate, { workspaceId });
  const events = tx.decide(stream, command);
  if (stream.state.status === 'none') return null;
  const trade = stream.state.trade;
  if (events.length === 0) return trade;
  if (trade.status === 'cancelled' || trade.status === 'completed') {
    const item = await itemFor(tx, workspaceId, trade.inventoryItemId);
    if (trade.status === 'cancelled') item.release(tx, trade.reservationId, `trade ${tradeId} cancelled`, now);
    else item.sell(tx, trade.reservationId, now);
  }
  return trade;
}

export const TRADE_COMMAND_HANDLERS = [CreateTradeHandler, MoveTradeHandler];
