// Command handlers for holds: place one (reserving its units), record the deposit, convert it into
// a trade (the trade takes over the reservation), release it, and expire holds (the timer's batch).
// Units go back to available only while the hold still holds them: once a conversion handed them
// to a trade, nothing a hold does touches them. Each answers the hold as its own write left it (its
// read model is inline), or for a repeat that decided nothing the hold as the log holds it.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, type InlineDocuments, InlineProjections } from '@app/platform';
import { DomainError, type EventLog, handleCommands, loadStream, type Transaction, WrongExpectedRevisionError } from '@app/platform/domain';

import { itemFor, openTrade } from '../trade/trade.open';
import { DemandReferences } from '../trading.references';
import { holdAggregate } from './hold.aggregate';
import { depositCounted, type Hold, type HoldCommand } from './hold.decider';
import { holdStream } from './hold.events';
import { type HoldDoc, holdProjection } from './hold.projection';

export interface HoldRequest {
  inventoryItemId: string;
  buyerRequestId: string | null;
  quantity: number;
  depositMinor: number;
  currency?: string;
  expiresAt: string;
}

/** Answers the hold placed, as its read model holds it from the write. */
export class PlaceHoldCommand extends Command<HoldDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly request: HoldRequest,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(PlaceHoldCommand)
export class PlaceHoldHandler implements ICommandHandler<PlaceHoldCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly references: DemandReferences,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: PlaceHoldCommand): Promise<HoldDoc> {
    const holdId = this.ids.next('hld');
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      if (request.buyerRequestId !== null) await this.references.buyerRequest(tx, workspaceId, request.buyerRequestId);
      // The item the request names, checked as that field (placeHold then finds it loaded).
      await itemFor(tx, workspaceId, request.inventoryItemId, 'inventoryItemId');
      await placeHold(tx, { ...request, workspaceId, holdId, buyerSealed: null, now });
    });
    return holdAfter(this.inline, holdId, result.documents);
  }
}

/** A hold's terms as placed inside a transaction (by the route, or by live selling for a winner). */
export interface HoldTerms extends HoldRequest {
  workspaceId: string;
  holdId: string;
  /** The buyer sealed with `tradingBuyerContext(holdId)`, when the hold names its own (else null). */
  buyerSealed: string | null;
  /** What a conversion trades the units for; default the item's price × quantity. */
  amountMinor?: number;
  now: Date;
}

/**
 * Reserves the units and places the hold, in `tx`. Reservation first: the item's stream is decided
 * (and, on EventStoreDB, appended) before the hold's. With `ifAbsent`, a hold that exists already
 * (a replayed decision) is left as it is.
 */
export async function placeHold(tx: Transaction, terms: HoldTerms, options: { ifAbsent?: boolean } = {}): Promise<void> {
  const { workspaceId, holdId, now } = terms;
  const item = await itemFor(tx, workspaceId, terms.inventoryItemId);
  if (terms.currency !== undefined && terms.currency !== item.currency) {
    throw DomainError.validation(`The item is priced in ${item.currency}, not ${terms.currency}`, [
      { path: 'currency', message: `must be the item's currency (${item.currency})` },
    ]);
  }
  const stream = options.ifAbsent ? await tx.load(holdStream(holdId), holdAggregate, { workspaceId }) : tx.create(holdStream(holdId), holdAggregate);
  if (stream.state.status !== 'none') return;
  item.reserve(tx, holdId, terms.quantity, holdId, now);
  tx.decide(stream, {
    type: 'PlaceHold',
    hold: {
      holdId,
      inventoryItemId: terms.inventoryItemId,
      buyerRequestId: terms.buyerRequestId,
      quantity: terms.quantity,
      depositMinor: terms.depositMinor,
      currency: item.currency,
      amountMinor: terms.amountMinor ?? item.priceMinor * terms.quantity,
      expiresAt: new Date(terms.expiresAt).toISOString(),
      ...(terms.buyerSealed ? { buyerSealed: terms.buyerSealed } : {}),
    },
    now,
  });
}

export type HoldAction = { type: 'deposit'; reference?: string | null } | { type: 'convert' } | { type: 'release'; reason?: string | null };

/** Answers the hold after the action (`tradeId`: the trade a conversion opened). */
export class ActOnHoldCommand extends Command<HoldDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly holdId: string,
    readonly action: HoldAction,
    readonly correlationId?: string,
    /** `If-Match`: the hold's revision the action was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(ActOnHoldCommand)
export class ActOnHoldHandler implements ICommandHandler<ActOnHoldCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, holdId, action, correlationId, ifMatch }: ActOnHoldCommand): Promise<HoldDoc> {
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      switch (action.type) {
        case 'deposit':
          await decideOnHold(tx, workspaceId, holdId, { type: 'PayHoldDeposit', holdId, reference: action.reference, now }, now, ifMatch);
          return;
        case 'release':
          await decideOnHold(tx, workspaceId, holdId, { type: 'ReleaseHold', holdId, reason: action.reason, now }, now, ifMatch);
          return;
        case 'convert':
          return convert(tx, this.events, { workspaceId, holdId, ifMatch }, this.ids.next('trd'), now);
      }
    });
    return holdAfter(this.inline, holdId, result.documents);
  }
}

/**
 * Converts the hold: the trade takes over its reservation, the paid deposit counts toward the
 * amount. The item and the trade come first and the hold last (the order EventStoreDB appends
 * them in), so a crash part-way leaves an active hold whose units a trade holds — which the hold's
 * expiry then leaves alone — never a converted hold without its trade. So the hold is read from
 * the log first (its terms, its deposit, whether it converts) and loaded into the transaction
 * last; changed in between, the attempt is judged again.
 */
async function convert(
  tx: Transaction,
  log: EventLog,
  { workspaceId, holdId, ifMatch }: { workspaceId: string; holdId: string; ifMatch?: number },
  newTradeId: string,
  now: Date,
): Promise<void> {
  const command: HoldCommand = { type: 'ConvertHold', holdId, tradeId: newTradeId, now };
  const known = await loadStream(log, holdStream(holdId), holdAggregate, { workspaceId, ifMatch });
  // The hold's own decider judges (a converted hold: nothing; ended or expired: INVALID_TRANSITION).
  if (known.state.status === 'exists' && holdAggregate.decider.decide(command, known.state).length > 0) {
    const hold = known.state.hold;
    await openTrade(
      tx,
      {
        workspaceId,
        tradeId: newTradeId,
        inventoryItemId: hold.inventoryItemId,
        buyerRequestId: hold.buyerRequestId,
        matchId: null,
        offerId: null,
        quantity: hold.quantity,
        amountMinor: hold.amountMinor,
        currency: hold.currency,
        now,
      },
      { holdId, depositMinor: depositCounted(hold) },
    );
  }
  const stream = await tx.load(holdStream(holdId), holdAggregate, { workspaceId, ifMatch });
  if (stream.revision !== known.revision) throw new WrongExpectedRevisionError(stream.streamId, known.expected, stream.revision < 0 ? 'no_stream' : stream.revision);
  tx.decide(stream, command);
}

/** The hold as the write left it, or as the log holds it when the write decided nothing. */
async function holdAfter(inline: InlineProjections, holdId: string, documents: InlineDocuments | null): Promise<HoldDoc> {
  const doc = await inline.document(holdProjection, holdStream(holdId), documents);
  // A hold the write path just decided on has a document; none is a bug, not a missing hold.
  if (!doc) throw new Error(`Hold ${holdId} was decided on, yet its read model has no document`);
  return doc;
}

/**
 * Decides `command` on the hold (at the revision `ifMatch` names, when given); when it ended the
 * hold (released, expired) its units go back — if the hold still holds them. Returns the hold
 * after the decision (null when there is none).
 */
export async function decideOnHold(tx: Transaction, workspaceId: string, holdId: string, command: HoldCommand, now: Date, ifMatch?: number): Promise<Hold | null> {
  const stream = await tx.load(holdStream(holdId), holdAggregate, { workspaceId, ifMatch });
  const events = tx.decide(stream, command);
  if (stream.state.status === 'none') return null;
  const hold = stream.state.hold;
  if (events.length > 0 && (hold.status === 'released' || hold.status === 'expired')) {
    const item = await itemFor(tx, workspaceId, hold.inventoryItemId);
    if (item.reservation(holdId)?.holderId === holdId) item.release(tx, holdId, `hold ${holdId} ${hold.status}`, now);
  }
  return hold;
}

export const HOLD_COMMAND_HANDLERS = [PlaceHoldHandler, ActOnHoldHandler];
