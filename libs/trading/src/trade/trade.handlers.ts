// Command handlers for trades: open one (from a match, an accepted offer or an item) and move it.
// A move that ends the trade settles its units in the same transaction: cancelled releases them,
// completed sells them.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, type InlineDocuments, InlineProjections } from '@app/platform';
import { DomainError, handleCommands, type Transaction } from '@app/platform/domain';

import { offerAggregate } from '../offer/offer.aggregate';
import { offerStream } from '../offer/offer.events';
import { DemandReferences } from '../trading.references';
import type { Trade, TradeCommand } from './trade.decider';
import { tradeAggregate } from './trade.aggregate';
import { type CancelParty, type TradeStatus, tradeStream } from './trade.events';
import { itemFor, openTrade } from './trade.open';
import { type TradeDoc, tradeProjection } from './trade.projection';

export interface TradeOutcome {
  /** The trade as its read model now holds it (what its GET reads), from the write itself. */
  trade: TradeDoc;
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
    private readonly references: DemandReferences,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: CreateTradeCommand): Promise<TradeOutcome> {
    const metadata = { workspaceId, actor, correlationId };
    if (request.offerId !== undefined) return this.offersTrade(workspaceId, request.offerId);
    const tradeId = this.ids.next('trd');
    const now = this.clock.now();
    const result = await handleCommands(this.events, metadata, async (tx) => {
      const source = await this.source(tx, workspaceId, request);
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
    return { trade: await this.tradeAfter(tradeId, result.documents), created: true };
  }

  private async tradeAfter(tradeId: string, documents: InlineDocuments | null): Promise<TradeDoc> {
    return requireTrade(await this.inline.document(tradeProjection, tradeStream(tradeId), documents), tradeId);
  }

  /** What a trade answers: a match's request and item (as the request's stream records the match), or the item (and request) named. */
  private async source(tx: Transaction, workspaceId: string, request: OpenTradeRequest) {
    if (request.matchId !== undefined) {
      const match = await this.references.match(tx, workspaceId, request.matchId);
      return { inventoryItemId: match.inventoryItemId, buyerRequestId: match.buyerRequestId, matchId: match.matchId, offerId: null };
    }
    const buyerRequestId = request.buyerRequestId ?? null;
    if (buyerRequestId !== null) await this.references.buyerRequest(tx, workspaceId, buyerRequestId);
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
    return { trade: await this.tradeAfter(tradeId, null), created: false };
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

export class MoveTradeCommand extends Command<TradeDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly tradeId: string,
    readonly move: TradeMove,
    readonly correlationId?: string,
    /** `If-Match`: the trade's revision the move was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(MoveTradeCommand)
export class MoveTradeHandler implements ICommandHandler<MoveTradeCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inline: InlineProjections,
  ) {}

  /** The trade after the move; a repeat that moved nothing answers it as the log holds it. */
  async execute({ workspaceId, actor, tradeId, move, correlationId, ifMatch }: MoveTradeCommand): Promise<TradeDoc> {
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, (tx) =>
      decideOnTrade(tx, workspaceId, tradeId, { type: 'MoveTrade', tradeId, ...move, now }, now, ifMatch),
    );
    return requireTrade(await this.inline.document(tradeProjection, tradeStream(tradeId), result.documents), tradeId);
  }
}

/**
 * Decides `command` on the trade and settles its units when the trade ended: cancelled releases
 * them, completed sells them. Returns the trade after the decision (null when there is none).
 */
export async function decideOnTrade(
  tx: Transaction,
  workspaceId: string,
  tradeId: string,
  command: TradeCommand,
  now: Date,
  ifMatch?: number,
): Promise<Trade | null> {
  const stream = await tx.load(tradeStream(tradeId), tradeAggregate, { workspaceId, ifMatch });
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

/** A trade the write path just decided on has a document; none is a bug, not a missing trade. */
function requireTrade(doc: TradeDoc | null, tradeId: string): TradeDoc {
  if (!doc) throw new Error(`Trade ${tradeId} was decided on, yet its read model has no document`);
  return doc;
}

export const TRADE_COMMAND_HANDLERS = [CreateTradeHandler, MoveTradeHandler];
