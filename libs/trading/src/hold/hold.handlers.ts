// Command handlers for holds: place one (reserving its units), record the deposit, convert it into
// a trade (the trade takes over the reservation), release it, and expire holds (the timer's batch).
// Units go back to available only while the hold still holds them: once a conversion handed them
// to a trade, nothing a hold does touches them.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { CLOCK, type Clock, EVENT_STORE, type EventStore, getOwned, ID_GENERATOR, type IdGenerator, READ_STORE, type ReadStore } from '@app/platform';
import { DomainError, handleCommands, type Transaction } from '@app/platform/domain';

import { itemFor, openTrade } from '../trade/trade.open';
import { requireBuyerRequest } from '../trading.references';
import { holdAggregate } from './hold.aggregate';
import { depositCounted, type Hold, type HoldCommand } from './hold.decider';
import { holdStream } from './hold.events';
import { HOLDS, type HoldDoc } from './hold.projection';

export interface HoldRequest {
  inventoryItemId: string;
  buyerRequestId: string | null;
  quantity: number;
  depositMinor: number;
  currency?: string;
  expiresAt: string;
}

export class PlaceHoldCommand extends Command<{ id: string; position: number }> {
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
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: PlaceHoldCommand): Promise<{ id: string; position: number }> {
    const holdId = this.ids.next('hld');
    const now = this.clock.now();
    if (request.buyerRequestId !== null) await requireBuyerRequest(this.requests, workspaceId, request.buyerRequestId);
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      // The item the request names, checked as that field (placeHold then finds it loaded).
      await itemFor(tx, workspaceId, request.inventoryItemId, 'inventoryItemId');
      await placeHold(tx, { ...request, workspaceId, holdId, buyerSealed: null, now });
    });
    return { id: holdId, position: result.position ?? 0 };
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

export type HoldAction = { type: 'deposit'; reference: string | null } | { type: 'convert' } | { type: 'release'; reason: string | null };

export class ActOnHoldCommand extends Command<{ position: number; tradeId: string | null }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly holdId: string,
    readonly action: HoldAction,
    readonly correlationId?: string,
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
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ workspaceId, actor, holdId, action, correlationId }: ActOnHoldCommand): Promise<{ position: number; tradeId: string | null }> {
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      switch (action.type) {
        case 'deposit':
          return (await decideOnHold(tx, workspaceId, holdId, { type: 'PayHoldDeposit', holdId, reference: action.reference, now }, now))?.tradeId ?? null;
        case 'release':
          return (await decideOnHold(tx, workspaceId, holdId, { type: 'ReleaseHold', holdId, reason: action.reason, now }, now))?.tradeId ?? null;
        case 'convert':
          return convert(tx, await getOwned(this.reads.collection<HoldDoc>(HOLDS), workspaceId, holdId, 'hold'), this.ids.next('trd'), now);
      }
    });
    return { position: result.position ?? 0, tradeId: result.value };
  }
}

/**
 * Converts the hold: the trade takes over its reservation, the paid deposit counts toward the
 * amount. The item and the trade come first and the hold last (the order EventStoreDB appends
 * them in), so a crash part-way leaves an active hold whose units a trade holds — which the hold's
 * expiry then leaves alone — never a converted hold without its trade. The hold's terms never
 * change, so they are read from the read model; its deposit may, so it is checked on the stream.
 */
async function convert(tx: Transaction, hold: HoldDoc, newTradeId: string, now: Date): Promise<string> {
  const { workspaceId } = hold;
  if (hold.status !== 'active') {
    // Ended: the hold's own decider answers (a converted hold: its trade; else INVALID_TRANSITION).
    const ended = await tx.load(holdStream(hold.id), holdAggregate, { workspaceId });
    tx.decide(ended, { type: 'ConvertHold', holdId: hold.id, tradeId: newTradeId, now });
    if (ended.state.status === 'exists' && ended.state.hold.tradeId) return ended.state.hold.tradeId;
    throw new DomainError('CONFLICT', `Hold ${hold.id} changed concurrently; retry`);
  }
  const deposit = hold.depositPaidAt ? hold.depositMinor : 0;
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
    { holdId: hold.id, depositMinor: deposit },
  );
  const stream = await tx.load(holdStream(hold.id), holdAggregate, { workspaceId });
  const events = tx.decide(stream, { type: 'ConvertHold', holdId: hold.id, tradeId: newTradeId, now });
  if (stream.state.status === 'none') throw new DomainError('NOT_FOUND', `No hold with id ${hold.id}`);
  if (events.length === 0) throw new DomainError('CONFLICT', `Hold ${hold.id} was converted concurrently; retry to get its trade`);
  if (depositCounted(stream.state.hold) !== deposit) throw new DomainError('CONFLICT', `Hold ${hold.id}'s deposit changed concurrently; retry`);
  return newTradeId;
}

/**
 * Decides `command` on the hold; when it ended the hold (released, expired) its units go back —
 * if the hold still holds them. Returns the hold after the decision (null when there is none).
 */
export async function decideOnHold(tx: Transaction, workspaceId: string, holdId: string, command: HoldCommand, now: Date): Promise<Hold | null> {
  const stream = await tx.load(holdStream(holdId), holdAggregate, { workspaceId });
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
