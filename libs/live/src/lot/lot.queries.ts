// Query handlers for the lot routes: a session's lots, one lot (with its version), a lot's reserves
// (each with its buyer opened; the read model keeps it sealed), and a reserve a write just placed.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { APP_CONFIG, type AppConfig, BuyerSeal, type Filter, getOwned, type Page, ProjectionRunner, READ_STORE, type ReadStore } from '@app/platform';

import { LIVE_SESSIONS, type LiveSessionDoc } from '../session/live-session.projection';
import type { LotStatus } from './lot.events';
import { lotOfSession, type PlacedReserve, reserveBuyerContext } from './lot.handlers';
import { LOTS, type LotDoc, RESERVES, type ReserveDoc, reserveProjection } from './lot.projection';
import { type LotResponse, type ReserveResponse, toLotResponse, toReserveResponse } from './lot.schemas';

/** A lot as answered, and its version (its stream's revision: the ETag). */
export interface VersionedLot {
  answer: LotResponse;
  revision: number;
}

export class GetLotQuery extends Query<VersionedLot> {
  constructor(
    readonly workspaceId: string,
    readonly sessionId: string,
    readonly lotId: string,
  ) {
    super();
  }
}

@QueryHandler(GetLotQuery)
export class GetLotHandler implements IQueryHandler<GetLotQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, sessionId, lotId }: GetLotQuery): Promise<VersionedLot> {
    const { lot } = await lotOfSession(this.reads, workspaceId, sessionId, lotId);
    return { answer: toLotResponse(lot), revision: lot.revision };
  }
}

export class ListLotsQuery extends Query<Page<LotResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly sessionId: string,
    readonly status: LotStatus | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListLotsQuery)
export class ListLotsHandler implements IQueryHandler<ListLotsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  /** The session's lots in the order they were added (the show's run sheet). */
  async execute({ workspaceId, sessionId, status, limit, cursor }: ListLotsQuery): Promise<Page<LotResponse>> {
    await getOwned(this.reads.collection<LiveSessionDoc>(LIVE_SESSIONS), workspaceId, sessionId, 'live session');
    const filter: Filter = { workspaceId, sessionId, ...(status ? { status } : {}) };
    const page = await this.reads.collection<LotDoc>(LOTS).find(filter, { sort: [['createdAt', 1]], limit, after: cursor });
    return { ...page, items: page.items.map(toLotResponse) };
  }
}

/** A reserve a write just placed, as the answer shows it: its buyer opened, its standing as its lot (after that write) says. */
export class AnswerReserveQuery extends Query<ReserveResponse> {
  constructor(readonly placed: PlacedReserve) {
    super();
  }
}

@QueryHandler(AnswerReserveQuery)
export class AnswerReserveHandler implements IQueryHandler<AnswerReserveQuery> {
  constructor(private readonly seal: BuyerSeal) {}

  execute({ placed: { reserve, lot } }: AnswerReserveQuery): Promise<ReserveResponse> {
    return Promise.resolve(toReserveResponse(reserve, lot, this.seal.open(reserveBuyerContext(reserve.id), reserve.buyerSealed)));
  }
}

export class ListReservesQuery extends Query<Page<ReserveResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly sessionId: string,
    readonly lotId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListReservesQuery)
export class ListReservesHandler implements IQueryHandler<ListReservesQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly seal: BuyerSeal,
    private readonly projections: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A lot's reserves in the lot's order (sequence 1, 2, 3…). Their read model follows the log
   * behind the writes (a hot lot's batches are not each written reserve by reserve): the list
   * waits for that one projection to reach the lot's last event, which its inline document knows.
   */
  async execute({ workspaceId, sessionId, lotId, limit, cursor }: ListReservesQuery): Promise<Page<ReserveResponse>> {
    const { lot } = await lotOfSession(this.reads, workspaceId, sessionId, lotId);
    await this.projections.waitFor(lot.position, this.config.READ_YOUR_WRITES_TIMEOUT_MS, [reserveProjection.name]);
    const page = await this.reads.collection<ReserveDoc>(RESERVES).find({ workspaceId, lotId }, { sort: [['sequence', 1]], limit, after: cursor });
    return { ...page, items: page.items.map((doc) => toReserveResponse(doc, lot, this.seal.open(reserveBuyerContext(doc.id), doc.buyerSealed))) };
  }
}

export const LOT_QUERY_HANDLERS = [GetLotHandler, ListLotsHandler, AnswerReserveHandler, ListReservesHandler];
