// Query handlers for the offer routes: one offer with its thread (every offer of the negotiation,
// oldest first) and the list.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { BuyerSeal, getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { buyersOf, pageWithBuyers } from '../trading.reads';
import type { OfferStatus } from './offer.events';
import { OFFERS, type OfferDoc } from './offer.projection';
import { type OfferResponse, toOfferResponse } from './offer.schemas';

/** A thread has at most this many offers listed with one of them. */
const THREAD_LIMIT = 100;

/** An offer with its thread (what automations read too). */
export class GetOfferQuery extends Query<OfferResponse> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

/** An offer with its thread, and its version (the stream revision: the ETag). */
export interface VersionedOffer {
  offer: OfferResponse;
  revision: number;
}

export class GetVersionedOfferQuery extends Query<VersionedOffer> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetVersionedOfferQuery)
export class GetVersionedOfferHandler implements IQueryHandler<GetVersionedOfferQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
  ) {}

  async execute({ workspaceId, id }: GetVersionedOfferQuery): Promise<VersionedOffer> {
    const offers = this.reads.collection<OfferDoc>(OFFERS);
    const doc = await getOwned(offers, workspaceId, id, 'offer');
    const [thread, buyers] = await Promise.all([
      offers.find({ workspaceId, threadId: doc.threadId }, { sort: [['createdAt', -1]], limit: THREAD_LIMIT }),
      buyersOf(this.requests, workspaceId, [doc.buyerRequestId]),
    ]);
    return { offer: toOfferResponse(doc, buyers.get(doc.buyerRequestId ?? '') ?? null, [...thread.items].reverse()), revision: doc.revision };
  }
}

@QueryHandler(GetOfferQuery)
export class GetOfferHandler implements IQueryHandler<GetOfferQuery> {
  constructor(private readonly versioned: GetVersionedOfferHandler) {}

  async execute({ workspaceId, id }: GetOfferQuery): Promise<OfferResponse> {
    return (await this.versioned.execute(new GetVersionedOfferQuery(workspaceId, id))).offer;
  }
}

/** An offer a write just decided on, as the answer shows it: its buyer read through demand's contract; no thread (GET has it). */
export class AnswerFromOfferQuery extends Query<OfferResponse> {
  constructor(
    readonly workspaceId: string,
    readonly offer: OfferDoc,
  ) {
    super();
  }
}

@QueryHandler(AnswerFromOfferQuery)
export class AnswerFromOfferHandler implements IQueryHandler<AnswerFromOfferQuery> {
  constructor(@Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader) {}

  async execute({ workspaceId, offer }: AnswerFromOfferQuery): Promise<OfferResponse> {
    const buyers = await buyersOf(this.requests, workspaceId, [offer.buyerRequestId]);
    return toOfferResponse(offer, buyers.get(offer.buyerRequestId ?? '') ?? null);
  }
}

export interface OfferListFilters {
  status?: OfferStatus;
  inventoryItemId?: string;
  buyerRequestId?: string;
  threadId?: string;
}

export class ListOffersQuery extends Query<Page<OfferResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly filters: OfferListFilters,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListOffersQuery)
export class ListOffersHandler implements IQueryHandler<ListOffersQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly seal: BuyerSeal,
  ) {}

  execute({ workspaceId, filters, limit, cursor }: ListOffersQuery): Promise<Page<OfferResponse>> {
    return pageWithBuyers<OfferDoc, OfferResponse>(this.reads, this.requests, this.seal, OFFERS, { workspaceId, filters: { ...filters }, limit, cursor }, (doc, buyer) =>
      toOfferResponse(doc, buyer),
    );
  }
}

export const OFFER_QUERY_HANDLERS = [GetVersionedOfferHandler, GetOfferHandler, AnswerFromOfferHandler, ListOffersHandler];
