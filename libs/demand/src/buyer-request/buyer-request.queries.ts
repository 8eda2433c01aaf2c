// Query handlers for the buyer request routes, and the read-only port other contexts read requests
// through (BuyerRequestReader). Both answer with the buyer opened; the read model keeps it sealed.
import { Inject, Injectable, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { BuyerSeal, type Filter, findOwned, getOwned, instantRange, type Page, READ_STORE, type ReadStore } from '@app/platform';

import type {
  BuyerRequestReader,
  BuyerRequestStatus,
  BuyerRequestView,
  MatchView,
  OfferedItem,
} from './buyer-request-reader.port';
import { buyerSealContext } from './buyer-request.events';
import {
  ACTIVE_REQUEST_STATUSES,
  BUYER_REQUESTS,
  type BuyerRequestDoc,
  type BuyerRequestHistory,
  MATCHES,
  type MatchDoc,
} from './buyer-request.projection';

/** A buyer request document with its buyer opened: what the routes answer from. */
export interface OpenedBuyerRequest extends BuyerRequestView, BuyerRequestHistory {
  revision: number;
}

/** The document with its buyer opened (SecretBoxError when it does not open: never answered as "no buyer"). */
export function openBuyerRequest(buyers: BuyerSeal, doc: BuyerRequestDoc): OpenedBuyerRequest {
  const { buyerSealed, ...rest } = doc;
  return { ...rest, buyer: buyers.open(buyerSealContext(doc.id), buyerSealed) };
}

/** The buyer request of this workspace, or NOT_FOUND. */
export class GetBuyerRequestQuery extends Query<OpenedBuyerRequest> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetBuyerRequestQuery)
export class GetBuyerRequestHandler implements IQueryHandler<GetBuyerRequestQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly buyers: BuyerSeal,
  ) {}

  async execute({ workspaceId, id }: GetBuyerRequestQuery): Promise<OpenedBuyerRequest> {
    const doc = await getOwned(this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS), workspaceId, id, 'buyer request');
    return openBuyerRequest(this.buyers, doc);
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

export class ListBuyerRequestsQuery extends Query<Page<OpenedBuyerRequest>> {
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
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly buyers: BuyerSeal,
  ) {}

  async execute({ workspaceId, limit, cursor, filters }: ListBuyerRequestsQuery): Promise<Page<OpenedBuyerRequest>> {
    const filter: Record<string, Filter[string]> = { workspaceId };
    if (filters.status) filter.status = filters.status;
    if (filters.cardKey) filter.cardKey = filters.cardKey;
    if (filters.setKey) filter.setKey = filters.setKey;
    const createdAt = instantRange(filters.createdFrom, filters.createdTo);
    if (createdAt) filter.createdAt = createdAt;
    const page = await this.reads
      .collection<BuyerRequestDoc>(BUYER_REQUESTS)
      .find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
    return { ...page, items: page.items.map((doc) => openBuyerRequest(this.buyers, doc)) };
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
  /** Without a BuyerSeal (no SecretBox) only requests that name no buyer can be read. */
  private readonly buyers: BuyerSeal;

  constructor(@Inject(READ_STORE) private readonly reads: ReadStore, @Optional() buyers?: BuyerSeal) {
    this.buyers = buyers ?? new BuyerSeal();
  }

  private get requests() {
    return this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS);
  }

  private view(doc: BuyerRequestDoc): BuyerRequestView {
    return openBuyerRequest(this.buyers, doc);
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
    return page.items.map((doc) => this.view(doc));
  }

  async getMany(ids: readonly string[]): Promise<BuyerRequestView[]> {
    return (await this.requests.getMany(ids)).map((doc) => this.view(doc));
  }

  async getMatch(workspaceId: string, matchId: string): Promise<MatchView | null> {
    const doc = await findOwned(this.reads.collection<MatchDoc>(MATCHES), workspaceId, matchId);
    if (!doc) return null;
    return { matchId: doc.id, buyerRequestId: doc.buyerRequestId, inventoryItemId: doc.inventoryItemId, kind: doc.kind, score: doc.score };
  }
}

export const BUYER_REQUEST_QUERY_HANDLERS = [GetBuyerRequestHandler, ListBuyerRequestsHandler, ListBuyerRequestMatchesHandler];
