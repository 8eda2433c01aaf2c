// Query handlers for the live routes: sessions, a session's lots, a lot's reserves (each with its
// buyer opened; the read model keeps it sealed).
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { BuyerSeal, type Filter, getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { lotOfSession, reserveBuyerContext } from './lot/lot.handlers';
import type { LotStatus } from './lot/lot.events';
import { LOTS, type LotDoc, RESERVES, type ReserveDoc } from './lot/lot.projection';
import {
  type LiveSessionResponse,
  type LotResponse,
  type ReserveResponse,
  toLiveSessionResponse,
  toLotResponse,
  toReserveResponse,
} from './live.schemas';
import type { LiveSessionStatus } from './session/live-session.events';
import { LIVE_SESSIONS, type LiveSessionDoc } from './session/live-session.projection';

export class GetLiveSessionQuery extends Query<LiveSessionResponse> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetLiveSessionQuery)
export class GetLiveSessionHandler implements IQueryHandler<GetLiveSessionQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, id }: GetLiveSessionQuery): Promise<LiveSessionResponse> {
    return toLiveSessionResponse(await getOwned(this.reads.collection<LiveSessionDoc>(LIVE_SESSIONS), workspaceId, id, 'live session'));
  }
}

export class ListLiveSessionsQuery extends Query<Page<LiveSessionResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly status: LiveSessionStatus | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListLiveSessionsQuery)
export class ListLiveSessionsHandler implements IQueryHandler<ListLiveSessionsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, status, limit, cursor }: ListLiveSessionsQuery): Promise<Page<LiveSessionResponse>> {
    const filter: Filter = { workspaceId, ...(status ? { status } : {}) };
    const page = await this.reads.collection<LiveSessionDoc>(LIVE_SESSIONS).find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
    return { ...page, items: page.items.map(toLiveSessionResponse) };
  }
}

export class GetLotQuery extends Query<LotResponse> {
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

  async execute({ workspaceId, sessionId, lotId }: GetLotQuery): Promise<LotResponse> {
    return toLotResponse((await lotOfSession(this.reads, workspaceId, sessionId, lotId)).lot);
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

export class GetReserveQuery extends Query<ReserveResponse> {
  constructor(
    readonly workspaceId: string,
    readonly sessionId: string,
    readonly lotId: string,
    readonly reserveId: string,
  ) {
    super();
  }
}

@QueryHandler(GetReserveQuery)
export class GetReserveHandler implements IQueryHandler<GetReserveQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly seal: BuyerSeal,
  ) {}

  async execute({ workspaceId, sessionId, lotId, reserveId }: GetReserveQuery): Promise<ReserveResponse> {
    const { lot } = await lotOfSession(this.reads, workspaceId, sessionId, lotId);
    const doc = await getOwned(this.reads.collection<ReserveDoc>(RESERVES), workspaceId, reserveId, 'reserve');
    return toReserveResponse(doc, lot, this.seal.open(reserveBuyerContext(doc.id), doc.buyerSealed));
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
  ) {}

  /** A lot's reserves in the lot's order (sequence 1, 2, 3…). */
  async execute({ workspaceId, sessionId, lotId, limit, cursor }: ListReservesQuery): Promise<Page<ReserveResponse>> {
    const { lot } = await lotOfSession(this.reads, workspaceId, sessionId, lotId);
    const page = await this.reads.collection<ReserveDoc>(RESERVES).find({ workspaceId, lotId }, { sort: [['sequence', 1]], limit, after: cursor });
    return { ...page, items: page.items.map((doc) => toReserveResponse(doc, lot, this.seal.open(reserveBuyerContext(doc.id), doc.buyerSealed))) };
  }
}

export const LIVE_QUERY_HANDLERS = [GetLiveSessionHandler, ListLiveSessionsHandler, GetLotHandler, ListLotsHandler, GetReserveHandler, ListReservesHandler];
