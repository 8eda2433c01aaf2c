// Command handlers for lots: add one to a session, open it (its units reserved from inventory while
// it is open), close it, and place reserves on it. Reserves go through the StreamDesk: a hot lot
// takes its bidders' reserves in arrival order, a batch per append, so the order is the log's and
// no reserve is lost to a version conflict under load.
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { type BuyerIdentity, BuyerSeal, CLOCK, type Clock, EVENT_STORE, type EventStore, getOwned, ID_GENERATOR, type IdGenerator, READ_STORE, type ReadStore } from '@app/platform';
import { DomainError, handleCommand, handleCommands, StreamDesk } from '@app/platform/domain';
import { INVENTORY_READER, type InventoryReader } from '@app/supply';
import { itemFor } from '@app/trading';

import { liveSessionAggregate } from '../session/live-session.aggregate';
import { liveSessionStream } from '../session/live-session.events';
import { LIVE_SESSIONS, type LiveSessionDoc } from '../session/live-session.projection';
import { lotAggregate } from './lot.aggregate';
import { lotStream } from './lot.events';
import { LOTS, type LotDoc } from './lot.projection';

/** The AAD a reserve's buyer is sealed with (BuyerSeal). */
export const reserveBuyerContext = (reserveId: string): string => `reserve:${reserveId}`;

/** The lot of the session, in the workspace (NOT_FOUND otherwise). */
export async function lotOfSession(reads: ReadStore, workspaceId: string, sessionId: string, lotId: string): Promise<{ session: LiveSessionDoc; lot: LotDoc }> {
  const session = await getOwned(reads.collection<LiveSessionDoc>(LIVE_SESSIONS), workspaceId, sessionId, 'live session');
  const lot = await getOwned(reads.collection<LotDoc>(LOTS), workspaceId, lotId, 'lot');
  if (lot.sessionId !== sessionId) throw new DomainError('NOT_FOUND', `No lot with id ${lotId} in live session ${sessionId}`);
  return { session, lot };
}

export interface LotRequest {
  inventoryItemId: string;
  quantity: number;
  startingPriceMinor: number;
  incrementMinor: number | null;
}

export class AddLotCommand extends Command<{ id: string; position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly request: LotRequest,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(AddLotCommand)
export class AddLotHandler implements ICommandHandler<AddLotCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(INVENTORY_READER) private readonly inventory: InventoryReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ workspaceId, actor, sessionId, request, correlationId }: AddLotCommand): Promise<{ id: string; position: number }> {
    const session = await getOwned(this.reads.collection<LiveSessionDoc>(LIVE_SESSIONS), workspaceId, sessionId, 'live session');
    const [item] = (await this.inventory.getMany([request.inventoryItemId])).filter((i) => i.workspaceId === workspaceId);
    if (!item) throw DomainError.unknownReference('inventoryItemId', 'inventory item', request.inventoryItemId);
    if (item.currency !== session.currency) {
      throw DomainError.validation(`The item is priced in ${item.currency}; this session sells in ${session.currency}`, [
        { path: 'inventoryItemId', message: `must be an item priced in the session's currency (${session.currency})` },
      ]);
    }
    if (request.quantity > item.quantity) {
      throw DomainError.validation(`The item has ${item.quantity} unit(s)`, [{ path: 'quantity', message: `must be at most the item's quantity (${item.quantity})` }]);
    }
    const lotId = this.ids.next('lot');
    const now = this.clock.now();
    // The lot first, the session last: a crash between (EventStoreDB) leaves a lot no session names, never the reverse.
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      tx.decide(tx.create(lotStream(lotId), lotAggregate), {
        type: 'AddLot',
        lot: { lotId, sessionId, cardName: item.cardName, setName: item.setName, currency: item.currency, ...request },
        now,
      });
      tx.decide(await tx.load(liveSessionStream(sessionId), liveSessionAggregate), { type: 'AddLotToSession', sessionId, lotId, inventoryItemId: item.id, now });
    });
    return { id: lotId, position: result.position ?? 0 };
  }
}

export class MoveLotCommand extends Command<{ position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly lotId: string,
    readonly move: 'open' | 'close',
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(MoveLotCommand)
export class MoveLotHandler implements ICommandHandler<MoveLotCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, sessionId, lotId, move, correlationId }: MoveLotCommand): Promise<{ position: number }> {
    const { lot: known } = await lotOfSession(this.reads, workspaceId, sessionId, lotId);
    const now = this.clock.now();
    const metadata = { workspaceId, actor, correlationId };
    if (move === 'close') {
      const result = await handleCommand(this.events, lotStream(lotId), lotAggregate, { type: 'CloseLot', lotId, now }, metadata);
      return { position: result.streamPosition ?? 0 };
    }
    // Opening reserves the lot's units (reservation first: the item is appended before the lot).
    const result = await handleCommands(this.events, metadata, async (tx) => {
      const item = await itemFor(tx, workspaceId, known.inventoryItemId);
      const lot = await tx.load(lotStream(lotId), lotAggregate);
      const session = await tx.load(liveSessionStream(sessionId), liveSessionAggregate);
      const sessionLive = session.state.status === 'exists' && session.state.session.status === 'live';
      const opened = tx.decide(lot, { type: 'OpenLot', lotId, sessionLive, now });
      if (opened.length > 0) item.reserve(tx, lotId, known.quantity, lotId, now);
      return lot.position;
    });
    return { position: result.position ?? result.value ?? 0 };
  }
}

export interface ReserveRequest {
  buyer: BuyerIdentity;
  amountMinor: number;
  buyerRequestId: string | null;
}

export class PlaceReserveCommand extends Command<{ id: string; position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly lotId: string,
    readonly request: ReserveRequest,
    readonly correlationId?: string,
  ) {
    super();
  }
}

/** The desk reserves are decided at (one per process: a lot's reserves are batched together). */
@Injectable()
export class ReserveDesk extends StreamDesk {
  constructor(@Inject(EVENT_STORE) events: EventStore) {
    super(events, { maxBatch: 200, keep: 1000 });
  }
}

@CommandHandler(PlaceReserveCommand)
export class PlaceReserveHandler implements ICommandHandler<PlaceReserveCommand> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly desk: ReserveDesk,
    private readonly seal: BuyerSeal,
  ) {}

  async execute({ workspaceId, actor, sessionId, lotId, request, correlationId }: PlaceReserveCommand): Promise<{ id: string; position: number }> {
    const { session } = await lotOfSession(this.reads, workspaceId, sessionId, lotId);
    if (request.buyerRequestId !== null) {
      const [found] = (await this.requests.getMany([request.buyerRequestId])).filter((r) => r.workspaceId === workspaceId);
      if (!found) throw DomainError.unknownReference('buyerRequestId', 'buyer request', request.buyerRequestId);
    }
    const reserveId = this.ids.next('rsv');
    const buyerSealed = this.seal.seal(reserveBuyerContext(reserveId), request.buyer) ?? '';
    const outcome = await this.desk.decide(
      lotStream(lotId),
      lotAggregate,
      {
        type: 'PlaceReserve',
        lotId,
        reserveId,
        amountMinor: request.amountMinor,
        buyerSealed,
        buyerRequestId: request.buyerRequestId,
        sessionLive: session.status === 'live',
        now: this.clock.now(),
      },
      { workspaceId, actor, correlationId },
    );
    return { id: reserveId, position: outcome.position ?? 0 };
  }
}

export const LOT_COMMAND_HANDLERS = [AddLotHandler, MoveLotHandler, PlaceReserveHandler];
