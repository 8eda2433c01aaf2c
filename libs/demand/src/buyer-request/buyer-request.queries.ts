// Query handlers for the buyer request routes, and the read-only port other contexts read requests
// through (BuyerRequestReader).
import { Inject, Injectable } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { type Filter, getOwned, instantRange, type Page, READ_STORE, type ReadStore } from '@app/platform';

import type { BuyerRequestReader, BuyerRequestStatus, BuyerRequestView, OfferedItem } from './buyer-request-reader.port';
import {
  ACTIVE_REQUEST_STATUSES,
  BUYER_REQUESTS,
  type BuyerRequestDoc,
  MATCHES,
  type MatchDoc,
} from './buyer-request.projection';

/** The buyer request of this workspace, or NOT_FOUND. */
export class GetBuyerRequestQuery extends Query<BuyerRequestDoc> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetBuyerRequestQuery)
export class GetBuyerRequestHandler implements IQueryHandler<GetBuyerRequestQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, id }: GetBuyerRequestQuery): Promise<BuyerRequestDoc> {
    return getOwned(this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS), workspaceId, id, 'buyer request');
  }
}

export interface BuyerRequestFilters {
  status?: BuyerRequestStatus;
  /** Normalized card identity (`cardKey`). */
  cardKey?: string;
  /** Normalized set identity (`setKey`). */
  setKey?: string;
  createdFrom?: string;
  createdTo?: string;
}

export class ListBuyerRequestsQuery extends Query<Page<BuyerRequestDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
    readonly filters: BuyerRequestFilters = {},
  ) {
    super();
  }
}

@QueryHandler(ListBuyerRequestsQuery)
export class ListBuyerRequestsHandler implements IQueryHandler<ListBuyerRequestsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, limit, cursor, filters }: ListBuyerRequestsQuery): Promise<Page<BuyerRequestDoc>> {
    const filter: Record<string, Filter[string]> = { workspaceId };
    if (filters.status) filter.status = filters.status;
    if (filters.cardKey) filter.cardKey = filters.cardKey;
    if (filters.setKey) filter.setKey = filters.setKey;
    const createdAt = instantRange(filters.createdFrom, filters.createdTo);
    if (createdAt) filter.createdAt = createdAt;
    return this.reads
      .collection<BuyerRequestDoc>(BUYER_REQUESTS)
      .find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

/** The matches of a buyer request of this workspace (NOT_FOUND for another's), best first. */
export class ListBuyerRequestMatchesQuery extends Query<Page<MatchDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly buyerRequestId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListBuyerRequestMatchesQuery)
export class ListBuyerRequestMatchesHandler implements IQueryHandler<ListBuyerRequestMatchesQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, buyerRequestId, limit, cursor }: ListBuyerRequestMatchesQuery): Promise<Page<MatchDoc>> {
    await getOwned(this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS), workspaceId, buyerRequestId, 'buyer request');
    return this.reads
      .collection<MatchDoc>(MATCHES)
      .find({ buyerRequestId }, { sort: [['score', -1]], limit, after: cursor });
  }
}

@Injectable()
export class BuyerRequestReadModel implements BuyerRequestReader {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  private get requests() {
    return this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS);
  }

  async activeRequestsFor(item: OfferedItem, limit: number): Promise<BuyerRequestView[]> {
    // Equality on the `by_match` index's leading fields, then the price range; the condition is
    // checked on the rows the range leaves.
    const page = await this.requests.find(
      {
        workspaceId: item.workspaceId,
        matchKey: item.matchKey,
        currency: item.currency,
        conditionClass: item.conditionClass,
        status: { $in: [...ACTIVE_REQUEST_STATUSES] },
        maxPriceMinor: { $gte: item.priceMinor },
        conditionScore: { $lte: item.conditionScore },
      },
      { limit },
    );
    return page.items;
  }

  getMany(ids: readonly string[]): Promise<BuyerRequestView[]> {
    return this.requests.getMany(ids);
  }
}

export const BUYER_REQUEST_QUERY_HANDLERS = [GetBuyerRequestHandler, ListBuyerRequestsHandler, ListBuyerRequestMatchesHandler];
