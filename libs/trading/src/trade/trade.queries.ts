// Query handlers for the trade routes: one trade (with its buyer, through its buyer request, and
// its timeline, read from its stream) and the list.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { BuyerSeal, EVENT_STORE, type EventStore, getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { buyersOfDocs, pageWithBuyers } from '../trading.reads';
import { parseTradeEvent, type TradeStatus, tradeStream } from './trade.events';
import { TRADES, type TradeDoc } from './trade.projection';
import { type TimelineEntry, type TradeResponse, toTradeResponse } from './trade.schemas';

/** A trade as answered, and its version (the stream revision: the ETag). */
export interface VersionedTrade {
  trade: TradeResponse;
  revision: number;
}

export class GetTradeQuery extends Query<VersionedTrade> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetTradeQuery)
export class GetTradeHandler implements IQueryHandler<GetTradeQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly seal: BuyerSeal,
  ) {}

  async execute({ workspaceId, id }: GetTradeQuery): Promise<VersionedTrade> {
    const doc = await getOwned(this.reads.collection<TradeDoc>(TRADES), workspaceId, id, 'trade');
    const [buyers, timeline] = await Promise.all([buyersOfDocs(this.requests, this.seal, workspaceId, [doc]), this.timeline(id)]);
    return { trade: toTradeResponse(doc, buyers.get(doc.id) ?? null, timeline), revision: doc.revision };
  }

  /** Every move of the trade, oldest first, from its stream. */
  private async timeline(id: string): Promise<TimelineEntry[]> {
    const entries: TimelineEntry[] = [];
    for (const recorded of await this.events.readStream(tradeStream(id))) {
      const event = parseTradeEvent(recorded);
      if (event.type === 'trade.initiated') {
        entries.push({ status: 'initiated', at: event.data.initiatedAt, by: 'client', reason: null, reference: null, carrier: null, trackingNumber: null });
      } else if (event.type === 'trade.status_changed') {
        const d = event.data;
        entries.push({ status: d.to, at: d.at, by: d.by, reason: d.reason, reference: d.reference, carrier: d.carrier, trackingNumber: d.trackingNumber });
      }
    }
    return entries;
  }
}

/** A trade a write just decided on, as the answer shows it: its buyer read through demand's contract; no timeline. */
export class AnswerTradeQuery extends Query<TradeResponse> {
  constructor(
    readonly workspaceId: string,
    readonly trade: TradeDoc,
  ) {
    super();
  }
}

@QueryHandler(AnswerTradeQuery)
export class AnswerTradeHandler implements IQueryHandler<AnswerTradeQuery> {
  constructor(
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly seal: BuyerSeal,
  ) {}

  async execute({ workspaceId, trade }: AnswerTradeQuery): Promise<TradeResponse> {
    const buyers = await buyersOfDocs(this.requests, this.seal, workspaceId, [trade]);
    return toTradeResponse(trade, buyers.get(trade.id) ?? null);
  }
}

export interface TradeListFilters {
  status?: TradeStatus;
  inventoryItemId?: string;
  buyerRequestId?: string;
  createdFrom?: string;
  createdTo?: string;
}

export class ListTradesQuery extends Query<Page<TradeResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly filters: TradeListFilters,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListTradesQuery)
export class ListTradesHandler implements IQueryHandler<ListTradesQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly seal: BuyerSeal,
  ) {}

  execute({ workspaceId, filters, limit, cursor }: ListTradesQuery): Promise<Page<TradeResponse>> {
    const { createdFrom, createdTo, ...exact } = filters;
    const createdAt =
      createdFrom || createdTo
        ? { ...(createdFrom ? { $gte: new Date(createdFrom).toISOString() } : {}), ...(createdTo ? { $lt: new Date(createdTo).toISOString() } : {}) }
        : undefined;
    return pageWithBuyers<TradeDoc, TradeResponse>(this.reads, this.requests, this.seal, TRADES, { workspaceId, filters: { ...exact, createdAt }, limit, cursor }, (doc, buyer) =>
      toTradeResponse(doc, buyer),
    );
  }
}

export const TRADE_QUERY_HANDLERS = [GetTradeHandler, AnswerTradeHandler, ListTradesHandler];
