// Command handlers for lots: add one to a session, open it (its units reserved from inventory while
// it is open), close it, and place reserves on it. Reserves go through the StreamDesk: a hot lot
// takes its bidders' reserves in arrival order, a batch per append, so the order is the log's and
// no reserve is lost to a version conflict under load. Each answers from its own write: the lot as
// that write left it (its read model is inline) or, for a repeat, as the log holds it; a reserve as
// it was placed, with its lot as the desk's batch left it.
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { loadMatchableRequest } from '@app/demand';
import { type BuyerIdentity, BuyerSeal, CLOCK, type Clock, EVENT_STORE, type EventStore, getOwned, ID_GENERATOR, type IdGenerator, type InlineDocuments, InlineProjections, READ_STORE, type ReadStore } from '@app/platform';
import { DomainError, handleCommands, loadStream, StreamDesk } from '@app/platform/domain';
import { INVENTORY_READER, type InventoryReader } from '@app/supply';
import { itemFor } from '@app/trading';

import { liveSessionAggregate } from '../session/live-session.aggregate';
import { liveSessionStream } from '../session/live-session.events';
import { LIVE_SESSIONS, type LiveSessionDoc } from '../session/live-session.projection';
import { lotAggregate } from './lot.aggregate';
import type { LotState } from './lot.decider';
import { lotStream } from './lot.events';
import { LOTS, type LotDoc, lotProjection, type ReserveFacts, reserveFactsOf } from './lot.projection';

/** The AAD a reserve's buyer is sealed with (BuyerSeal). */
export const reserveBuyerContext = (reserveId: string): string => `reserve:${reserveId}`;

/** The lot of the session, in the workspace (NOT_FOUND otherwise), as the read models hold them. */
export async function lotOfSession(reads: ReadStore, workspaceId: string, sessionId: string, lotId: string): Promise<{ session: LiveSessionDoc; lot: LotDoc }> {
  const session = await getOwned(reads.collection<LiveSessionDoc>(LIVE_SESSIONS), workspaceId, sessionId, 'live session');
  const lot = await getOwned(reads.collection<LotDoc>(LOTS), workspaceId, lotId, 'lot');
  if (lot.sessionId !== sessionId) throw noLotInSession(lotId, sessionId);
  return { session, lot };
}

const noLotInSession = (lotId: string, sessionId: string) => new DomainError('NOT_FOUND', `No lot with id ${lotId} in live session ${sessionId}`);

/** The lot as its stream holds it, when it is one of the session's (else NOT_FOUND; another workspace's reads as none). */
function lotInSession(state: LotState, lotId: string, sessionId: string) {
  if (state.status === 'none' || state.lot.sessionId !== sessionId) throw noLotInSession(lotId, sessionId);
  return state.lot;
}

/** The lot as the write left it, or as the log holds it when the write decided nothing. */
export async function lotAfter(inline: InlineProjections, lotId: string, documents: InlineDocuments | null): Promise<LotDoc> {
  const doc = await inline.document(lotProjection, lotStream(lotId), documents);
  // A lot the write path just decided on has a document; none is a bug, not a missing lot.
  if (!doc) throw new Error(`Lot ${lotId} was decided on, yet its read model has no document`);
  return doc;
}

export interface LotRequest {
  inventoryItemId: string;
  quantity: number;
  startingPriceMinor: number;
  incrementMinor: number | null;
}

export class AddLotCommand extends Command<LotDoc> {
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
    @Inject(INVENTORY_READER) private readonly inventory: InventoryReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, sessionId, request, correlationId }: AddLotCommand): Promise<LotDoc> {
    // What is put up, as supply shows it (its names for the run sheet): adding a lot reserves
    // nothing — opening it does, on the item's stream.
    const [item] = (await this.inventory.getMany([request.inventoryItemId])).filter((i) => i.workspaceId === workspaceId);
    if (!item) throw DomainError.unknownReference('inventoryItemId', 'inventory item', request.inventoryItemId);
    if (request.quantity > item.quantity) {
      throw DomainError.validation(`The item has ${item.quantity} unit(s)`, [{ path: 'quantity', message: `must be at most the item's quantity (${item.quantity})` }]);
    }
    const lotId = this.ids.next('lot');
    const now = this.clock.now();
    // The lot first, the session last: a crash between (EventStoreDB) leaves a lot no session names, never the reverse.
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      const lot = tx.create(lotStream(lotId), lotAggregate);
      const session = await tx.load(liveSessionStream(sessionId), liveSessionAggregate);
      if (session.state.status === 'none') throw new DomainError('NOT_FOUND', `No live session with id ${sessionId}`);
      const { currency } = session.state.session;
      if (item.currency !== currency) {
        throw DomainError.validation(`The item is priced in ${item.currency}; this session sells in ${currency}`, [
          { path: 'inventoryItemId', message: `must be an item priced in the session's currency (${currency})` },
        ]);
      }
      tx.decide(lot, { type: 'AddLot', lot: { lotId, sessionId, cardName: item.cardName, setName: item.setName, currency: item.currency, ...request }, now });
      tx.decide(session, { type: 'AddLotToSession', sessionId, lotId, inventoryItemId: item.id, now });
    });
    return lotAfter(this.inline, lotId, result.documents);
  }
}

export class MoveLotCommand extends Command<LotDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly lotId: string,
    readonly move: 'open' | 'close',
    readonly correlationId?: string,
    /** `If-Match`: the lot's revision the move was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(MoveLotCommand)
export class MoveLotHandler implements ICommandHandler<MoveLotCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inline: InlineProjections,
  ) {}

  /** The lot after the move; a repeat that moved nothing answers it as the log holds it. */
  async execute({ workspaceId, actor, sessionId, lotId, move, correlationId, ifMatch }: MoveLotCommand): Promise<LotDoc> {
    const now = this.clock.now();
    const result = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      if (move === 'close') {
        const lot = await tx.load(lotStream(lotId), lotAggregate, { ifMatch });
        lotInSession(lot.state, lotId, sessionId);
        tx.decide(lot, { type: 'CloseLot', lotId, now });
        return;
      }
      // Opening reserves the lot's units: the item is loaded (and appended) before the lot, so the
      // lot's terms, which never change, are read from its stream first.
      const known = lotInSession((await loadStream(this.events, lotStream(lotId), lotAggregate, { workspaceId, ifMatch })).state, lotId, sessionId);
      const item = await itemFor(tx, workspaceId, known.inventoryItemId);
      const lot = await tx.load(lotStream(lotId), lotAggregate, { ifMatch });
      const session = await tx.load(liveSessionStream(sessionId), liveSessionAggregate);
      const sessionLive = session.state.status === 'exists' && session.state.session.status === 'live';
      const opened = tx.decide(lot, { type: 'OpenLot', lotId, sessionLive, now });
      if (opened.length > 0) item.reserve(tx, lotId, known.quantity, lotId, now);
    });
    return lotAfter(this.inline, lotId, result.documents);
  }
}

export interface ReserveRequest {
  buyer: BuyerIdentity;
  amountMinor: number;
  buyerRequestId: string | null;
}

/** A reserve as placed, and its lot as the append that placed it left it. */
export interface PlacedReserve {
  reserve: ReserveFacts & { buyerSealed: string };
  lot: LotDoc;
}

export class PlaceReserveCommand extends Command<PlacedReserve> {
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
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly desk: ReserveDesk,
    private readonly seal: BuyerSeal,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, sessionId, lotId, request, correlationId }: PlaceReserveCommand): Promise<PlacedReserve> {
    // The session's status from its read model, written by the session's own writes: a hot lot's
    // reserves do not each read the session's stream. Ending a show closes its lots in the same
    // decision, and the lot's own stream refuses a reserve unless the lot is open.
    const { session } = await lotOfSession(this.reads, workspaceId, sessionId, lotId);
    if (request.buyerRequestId !== null) await this.requireBuyerRequest(workspaceId, request.buyerRequestId);
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
    const [placed] = outcome.events;
    if (placed?.type !== 'reserve.placed') throw new Error(`Reserve ${reserveId} was taken, yet its lot recorded no reserve.placed`);
    return { reserve: { ...reserveFactsOf(placed.data), buyerSealed: placed.data.buyerSealed }, lot: await lotAfter(this.inline, lotId, outcome.documents) };
  }

  /** A buyer request of the workspace, as its stream (loaded through demand's contract) says; nothing is decided on it. */
  private async requireBuyerRequest(workspaceId: string, buyerRequestId: string): Promise<void> {
    await handleCommands(this.events, { workspaceId }, async (tx) => {
      if (!(await loadMatchableRequest(tx, workspaceId, buyerRequestId))) throw DomainError.unknownReference('buyerRequestId', 'buyer request', buyerRequestId);
    });
  }
}

export const LOT_COMMAND_HANDLERS = [AddLotHandler, MoveLotHandler, PlaceReserveHandler];
