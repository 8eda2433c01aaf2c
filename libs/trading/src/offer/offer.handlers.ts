// Command handlers for offers: make one, and answer one (accept — which opens the trade and
// reserves its units —, reject, or counter — which opens the next offer of the thread from the
// other party, in the same transaction). Each answers the offer as its own write left it (its read
// model is inline), or for a repeat that decided nothing the offer as the log holds it.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, InlineProjections } from '@app/platform';
import { DomainError, type EventLog, handleCommands, loadStream, type StreamHandle, type Transaction, WrongExpectedRevisionError } from '@app/platform/domain';

import { itemFor, openTrade } from '../trade/trade.open';
import { DemandReferences } from '../trading.references';
import { offerAggregate } from './offer.aggregate';
import { type OfferCommand, offerDecider, type OfferState } from './offer.decider';
import { type OfferEvent, type OfferParty, offerStream } from './offer.events';
import { type OfferDoc, offerProjection } from './offer.projection';

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

/** Answers the offer made, as its read model holds it from the write. */
export class MakeOfferCommand extends Command<OfferDoc> {
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
    private readonly references: DemandReferences,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: MakeOfferCommand): Promise<OfferDoc> {
    const offerId = this.ids.next('ofr');
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      const buyerRequestId = await this.buyerRequestOf(tx, workspaceId, request);
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
    return requireOffer(await this.inline.document(offerProjection, offerStream(offerId), result.documents), offerId);
  }

  /** The buyer request the offer answers: named, or its match's; checked on its stream to be this workspace's and the item's. */
  private async buyerRequestOf(tx: Transaction, workspaceId: string, request: OfferRequest): Promise<string | null> {
    if (request.matchId !== null) {
      const match = await this.references.match(tx, workspaceId, request.matchId);
      const issues = [];
      if (match.inventoryItemId !== request.inventoryItemId) issues.push({ path: 'matchId', message: `is a match of item ${match.inventoryItemId}` });
      if (request.buyerRequestId !== null && match.buyerRequestId !== request.buyerRequestId) issues.push({ path: 'matchId', message: `is a match of buyer request ${match.buyerRequestId}` });
      if (issues.length > 0) throw DomainError.validation(`The match ${issues[0].message}`, issues);
      return match.buyerRequestId;
    }
    if (request.buyerRequestId !== null) await this.references.buyerRequest(tx, workspaceId, request.buyerRequestId);
    return request.buyerRequestId;
  }
}

export type OfferAnswer =
  | { type: 'accept'; party?: OfferParty }
  | { type: 'reject'; party?: OfferParty; reason?: string | null }
  | { type: 'counter'; party?: OfferParty; amountMinor: number; message?: string | null };

/** Answers the offer after the answer (`tradeId`: the trade an acceptance opened; `counterOfferId`: the counter-offer). */
export class AnswerOfferCommand extends Command<OfferDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly offerId: string,
    readonly answer: OfferAnswer,
    readonly correlationId?: string,
    /** `If-Match`: the offer's revision the answer was decided on. */
    readonly ifMatch?: number,
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
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, offerId, answer, correlationId, ifMatch }: AnswerOfferCommand): Promise<OfferDoc> {
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      switch (answer.type) {
        case 'accept':
          return accept(tx, this.events, { workspaceId, offerId, ifMatch }, answer.party, this.ids.next('trd'), now);
        case 'reject': {
          const offer = await tx.load(offerStream(offerId), offerAggregate, { ifMatch });
          tx.decide(offer, { type: 'RejectOffer', offerId, party: answer.party, reason: answer.reason, now });
          return;
        }
        case 'counter':
          return counter(tx, offerId, await tx.load(offerStream(offerId), offerAggregate, { ifMatch }), answer, this.ids.next('ofr'), now);
      }
    });
    return requireOffer(await this.inline.document(offerProjection, offerStream(offerId), result.documents), offerId);
  }
}

/**
 * Accepts: the trade opens on the offer's terms and reserves its units. The item and the trade come
 * first and the offer last (the order EventStoreDB appends them in): a crash part-way leaves a
 * reservation and a trade for a pending offer, never an accepted offer without its trade. So the
 * offer is read from the log first (its terms, and whether it takes this acceptance) and loaded
 * into the transaction last; answered in between, the attempt is judged again.
 */
async function accept(
  tx: Transaction,
  log: EventLog,
  { workspaceId, offerId, ifMatch }: { workspaceId: string; offerId: string; ifMatch?: number },
  party: OfferParty | undefined,
  newTradeId: string,
  now: Date,
): Promise<void> {
  const command: OfferCommand = { type: 'AcceptOffer', offerId, party, tradeId: newTradeId, now };
  const known = await loadStream(log, offerStream(offerId), offerAggregate, { workspaceId, ifMatch });
  // The offer's own decider judges (and refuses: answered otherwise, expired, the wrong party).
  if (known.state.status === 'exists' && offerDecider.decide(command, known.state).length > 0) {
    const { offer } = known.state;
    await openTrade(tx, {
      workspaceId,
      tradeId: newTradeId,
      inventoryItemId: offer.inventoryItemId,
      buyerRequestId: offer.buyerRequestId,
      matchId: offer.matchId,
      offerId,
      quantity: offer.quantity,
      amountMinor: offer.amountMinor,
      currency: offer.currency,
      now,
    });
  }
  const stream = await tx.load(offerStream(offerId), offerAggregate, { ifMatch });
  if (stream.revision !== known.revision) throw new WrongExpectedRevisionError(stream.streamId, known.expected, stream.revision < 0 ? 'no_stream' : stream.revision);
  tx.decide(stream, command);
}

/** Counters: this offer closes as `countered` and the counter-offer opens from the other party; a repeat opens none. */
function counter(
  tx: Transaction,
  offerId: string,
  stream: StreamHandle<OfferCommand, OfferEvent, OfferState>,
  answer: Extract<OfferAnswer, { type: 'counter' }>,
  counterOfferId: string,
  now: Date,
): void {
  const [countered] = tx.decide(stream, { type: 'CounterOffer', offerId, party: answer.party, counterOfferId, amountMinor: answer.amountMinor, message: answer.message, now });
  if (countered?.type !== 'offer.countered' || stream.state.status !== 'exists') return;
  const offer = stream.state.offer;
  tx.decide(tx.create(offerStream(counterOfferId), offerAggregate), {
    type: 'MakeOffer',
    offer: {
      offerId: counterOfferId,
      threadId: offer.threadId,
      countersOfferId: offer.offerId,
      inventoryItemId: offer.inventoryItemId,
      buyerRequestId: offer.buyerRequestId,
      matchId: offer.matchId,
      amountMinor: answer.amountMinor,
      currency: offer.currency,
      quantity: offer.quantity,
      from: countered.data.by,
      message: answer.message ?? null,
      expiresAt: new Date(now.getTime() + DEFAULT_OFFER_TTL_MS).toISOString(),
    },
    now,
  });
}

/** An offer the write path just decided on has a document; none is a bug, not a missing offer. */
function requireOffer(doc: OfferDoc | null, offerId: string): OfferDoc {
  if (!doc) throw new Error(`Offer ${offerId} was decided on, yet its read model has no document`);
  return doc;
}

export const OFFER_COMMAND_HANDLERS = [MakeOfferHandler, AnswerOfferHandler];
