// Command handlers for offers: make one, and answer one (accept — which opens the trade and
// reserves its units —, reject, or counter — which opens the next offer of the thread from the
// other party, in the same transaction).
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { CLOCK, type Clock, EVENT_STORE, type EventStore, getOwned, ID_GENERATOR, type IdGenerator, READ_STORE, type ReadStore } from '@app/platform';
import { DomainError, handleCommands, type Transaction } from '@app/platform/domain';

import { itemFor, openTrade } from '../trade/trade.open';
import { requireBuyerRequest, requireMatch } from '../trading.references';
import { offerAggregate } from './offer.aggregate';
import { recipientOf } from './offer.decider';
import { type OfferParty, offerStream } from './offer.events';
import { OFFERS, type OfferDoc } from './offer.projection';

/** An offer lapses after this long unless it says otherwise. */
export const DEFAULT_OFFER_TTL_MS = 48 * 3600 * 1000;

export interface OfferRequest {
  inventoryItemId: string;
  buyerRequestId: string | null;
  matchId: string | null;
  amountMinor: number;
  currency?: string;
  quantity: number;
  from: OfferParty;
  message: string | null;
  expiresAt?: string;
}

export class MakeOfferCommand extends Command<{ id: string; position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly request: OfferRequest,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(MakeOfferCommand)
export class MakeOfferHandler implements ICommandHandler<MakeOfferCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: MakeOfferCommand): Promise<{ id: string; position: number }> {
    const offerId = this.ids.next('ofr');
    const now = this.clock.now();
    const buyerRequestId = await this.buyerRequestOf(workspaceId, request);
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      const item = await itemFor(tx, workspaceId, request.inventoryItemId, 'inventoryItemId');
      const currency = request.currency ?? item.currency;
      if (currency !== item.currency) {
        throw DomainError.validation(`The item is priced in ${item.currency}, not ${currency}`, [{ path: 'currency', message: `must be the item's currency (${item.currency})` }]);
      }
      tx.decide(tx.create(offerStream(offerId), offerAggregate), {
        type: 'MakeOffer',
        offer: {
          offerId,
          threadId: offerId,
          countersOfferId: null,
          inventoryItemId: request.inventoryItemId,
          buyerRequestId,
          matchId: request.matchId,
          amountMinor: request.amountMinor,
          currency,
          quantity: request.quantity,
          from: request.from,
          message: request.message,
          expiresAt: new Date(request.expiresAt ?? now.getTime() + DEFAULT_OFFER_TTL_MS).toISOString(),
        },
        now,
      });
    });
    return { id: offerId, position: result.position ?? 0 };
  }

  /** The buyer request the offer answers: named, or its match's; checked to be this workspace's and the item's. */
  private async buyerRequestOf(workspaceId: string, request: OfferRequest): Promise<string | null> {
    if (request.matchId !== null) {
      const match = await requireMatch(this.requests, workspaceId, request.matchId);
      const issues = [];
      if (match.inventoryItemId !== request.inventoryItemId) issues.push({ path: 'matchId', message: `is a match of item ${match.inventoryItemId}` });
      if (request.buyerRequestId !== null && match.buyerRequestId !== request.buyerRequestId) issues.push({ path: 'matchId', message: `is a match of buyer request ${match.buyerRequestId}` });
      if (issues.length > 0) throw DomainError.validation(`The match ${issues[0].message}`, issues);
      return match.buyerRequestId;
    }
    if (request.buyerRequestId !== null) await requireBuyerRequest(this.requests, workspaceId, request.buyerRequestId);
    return request.buyerRequestId;
  }
}

export type OfferAnswer =
  | { type: 'accept'; party: OfferParty }
  | { type: 'reject'; party: OfferParty; reason: string | null }
  | { type: 'counter'; party: OfferParty; amountMinor: number; message: string | null };

export class AnswerOfferCommand extends Command<{ position: number; tradeId: string | null; counterOfferId: string | null }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly offerId: string,
    readonly answer: OfferAnswer,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(AnswerOfferCommand)
export class AnswerOfferHandler implements ICommandHandler<AnswerOfferCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ workspaceId, actor, offerId, answer, correlationId }: AnswerOfferCommand) {
    const now = this.clock.now();
    // The offer's terms never change: read them from the read model to order the streams.
    const doc = await getOwned(this.reads.collection<OfferDoc>(OFFERS), workspaceId, offerId, 'offer');
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      switch (answer.type) {
        case 'accept':
          return { tradeId: await accept(tx, doc, answer.party, this.ids.next('trd'), now), counterOfferId: null };
        case 'reject': {
          const offer = await tx.load(offerStream(offerId), offerAggregate);
          tx.decide(offer, { type: 'RejectOffer', offerId, party: answer.party, reason: answer.reason, now });
          return { tradeId: null, counterOfferId: null };
        }
        case 'counter':
          return { tradeId: null, counterOfferId: counter(tx, doc, answer, this.ids.next('ofr'), now, await tx.load(offerStream(offerId), offerAggregate)) };
      }
    });
    return { position: result.position ?? 0, ...result.value };
  }
}

/**
 * Accepts: the trade opens on the offer's terms and reserves its units. The item and the trade come
 * first and the offer last (the order EventStoreDB appends them in): a crash part-way leaves a
 * reservation and a trade for a pending offer, never an accepted offer without its trade.
 */
async function accept(tx: Transaction, doc: OfferDoc, party: OfferParty, newTradeId: string, now: Date): Promise<string> {
  if (doc.status === 'accepted' && doc.tradeId) return doc.tradeId;
  if (doc.status === 'pending' && party === recipientOf(doc) && now.getTime() < Date.parse(doc.expiresAt)) {
    await openTrade(tx, {
      workspaceId: doc.workspaceId,
      tradeId: newTradeId,
      inventoryItemId: doc.inventoryItemId,
      buyerRequestId: doc.buyerRequestId,
      matchId: doc.matchId,
      offerId: doc.id,
      quantity: doc.quantity,
      amountMinor: doc.amountMinor,
      currency: doc.currency,
      now,
    });
  }
  // The offer's own decider judges (and refuses: answered already, expired, the wrong party).
  const offer = await tx.load(offerStream(doc.id), offerAggregate);
  const events = tx.decide(offer, { type: 'AcceptOffer', offerId: doc.id, party, tradeId: newTradeId, now });
  if (events.length === 0) throw new DomainError('CONFLICT', `Offer ${doc.id} was answered concurrently; retry`);
  return newTradeId;
}

/** Counters: this offer closes as `countered` and the counter-offer opens from the other party. */
function counter(
  tx: Transaction,
  doc: OfferDoc,
  answer: Extract<OfferAnswer, { type: 'counter' }>,
  counterOfferId: string,
  now: Date,
  offer: Awaited<ReturnType<Transaction['load']>>,
): string {
  tx.decide(offer as never, { type: 'CounterOffer', offerId: doc.id, party: answer.party, counterOfferId, now });
  tx.decide(tx.create(offerStream(counterOfferId), offerAggregate), {
    type: 'MakeOffer',
    offer: {
      offerId: counterOfferId,
      threadId: doc.threadId,
      countersOfferId: doc.id,
      inventoryItemId: doc.inventoryItemId,
      buyerRequestId: doc.buyerRequestId,
      matchId: doc.matchId,
      amountMinor: answer.amountMinor,
      currency: doc.currency,
      quantity: doc.quantity,
      from: answer.party,
      message: answer.message,
      expiresAt: new Date(now.getTime() + DEFAULT_OFFER_TTL_MS).toISOString(),
    },
    now,
  });
  return counterOfferId;
}

export const OFFER_COMMAND_HANDLERS = [MakeOfferHandler, AnswerOfferHandler];
