// Query handlers for the hold routes: one hold (with its buyer, through its buyer request) and the list.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { BuyerSeal, getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { buyersOfDocs, pageWithBuyers } from '../trading.reads';
import type { HoldStatus } from './hold.events';
import { HOLDS, type HoldDoc } from './hold.projection';
import { type HoldResponse, toHoldResponse } from './hold.schemas';

/** A hold as answered, and its version (the stream revision: the ETag). */
export interface VersionedHold {
  hold: HoldResponse;
  revision: number;
}

export class GetHoldQuery extends Query<VersionedHold> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetHoldQuery)
export class GetHoldHandler implements IQueryHandler<GetHoldQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly seal: BuyerSeal,
  ) {}

  async execute({ workspaceId, id }: GetHoldQuery): Promise<VersionedHold> {
    const doc = await getOwned(this.reads.collection<HoldDoc>(HOLDS), workspaceId, id, 'hold');
    const buyers = await buyersOfDocs(this.requests, this.seal, workspaceId, [doc]);
    return { hold: toHoldResponse(doc, buyers.get(doc.id) ?? null), revision: doc.revision };
  }
}

/** A hold a write just decided on, as the answer shows it: its buyer opened, or read through demand's contract. */
export class AnswerHoldQuery extends Query<HoldResponse> {
  constructor(
    readonly workspaceId: string,
    readonly hold: HoldDoc,
  ) {
    super();
  }
}

@QueryHandler(AnswerHoldQuery)
export class AnswerHoldHandler implements IQueryHandler<AnswerHoldQuery> {
  constructor(
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly seal: BuyerSeal,
  ) {}

  async execute({ workspaceId, hold }: AnswerHoldQuery): Promise<HoldResponse> {
    const buyers = await buyersOfDocs(this.requests, this.seal, workspaceId, [hold]);
    return toHoldResponse(hold, buyers.get(hold.id) ?? null);
  }
}

export interface HoldListFilters {
  status?: HoldStatus;
  inventoryItemId?: string;
  buyerRequestId?: string;
}

export class ListHoldsQuery extends Query<Page<HoldResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly filters: HoldListFilters,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListHoldsQuery)
export class ListHoldsHandler implements IQueryHandler<ListHoldsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly seal: BuyerSeal,
  ) {}

  execute({ workspaceId, filters, limit, cursor }: ListHoldsQuery): Promise<Page<HoldResponse>> {
    return pageWithBuyers<HoldDoc, HoldResponse>(this.reads, this.requests, this.seal, HOLDS, { workspaceId, filters: { ...filters }, limit, cursor }, toHoldResponse);
  }
}

export const HOLD_QUERY_HANDLERS = [GetHoldHandler, AnswerHoldHandler, ListHoldsHandler];
