// Query handlers for the buyer request routes: they answer with the buyer opened; the read model
// keeps it sealed. The port other contexts read requests through: buyer-request.reader.ts.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { ANY_CONDITION_CLASS, ANY_SET_KEY } from '@app/catalog';
import { BuyerSeal, decodeCursor, encodeCursor, type Filter, getOwned, instantRange, InvalidCursorError, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { type BuyerContact, BuyerContacts } from '../buyer/buyer-contacts';
import type { BuyerRequestStatus } from './buyer-request-reader.port';
import { contactSealContext } from './buyer-request.events';
import { BUYER_REQUEST_MATCHES, type BuyerRequestMatchesDoc, type MatchDoc, type MatchEntry } from './buyer-request-matches.projection';
import { BUYER_REQUESTS, type BuyerRequestDoc, NO_PRICE_LIMIT } from './buyer-request.projection';
import { type BuyerRequestWithBuyer, openBuyerRequest } from './buyer-request.reader';

/** A buyer request with its buyer and its contact opened: what the routes answer from. */
export interface OpenedBuyerRequest extends BuyerRequestWithBuyer {
  /** The widget's buyer (`buyer_…`); null when the request has no contact. */
  buyerId: string | null;
  /** How to reach the buyer, while readable; null when none, or erased. */
  contact: BuyerContact | null;
  /** The buyer's personal data was erased: the contact no longer opens. */
  contactErased: boolean;
}

/** The documents of one workspace with their buyers and contacts opened, in order. */
export async function openBuyerRequests(
  buyers: BuyerSeal,
  contacts: BuyerContacts,
  workspaceId: string,
  docs: readonly BuyerRequestDoc[],
): Promise<OpenedBuyerRequest[]> {
  const opened = await contacts.openMany(
    workspaceId,
    docs.map((d) => ({ buyerId: d.buyerId, contactSealed: d.contactSealed, context: contactSealContext(d.id) })),
  );
  return docs.map((doc, i) => ({
    ...openBuyerRequest(buyers, doc),
    buyerId: doc.buyerId ?? null,
    contact: opened[i].contact,
    contactErased: opened[i].erased,
  }));
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
    private readonly contacts: BuyerContacts,
  ) {}

  async execute({ workspaceId, id }: GetBuyerRequestQuery): Promise<OpenedBuyerRequest> {
    const doc = await getOwned(this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS), workspaceId, id, 'buyer request');
    const [opened] = await openBuyerRequests(this.buyers, this.contacts, workspaceId, [doc]);
    return opened;
  }
}

/** A request a write just decided on, as the routes answer it: its buyer and contact opened. */
export class AnswerBuyerRequestQuery extends Query<OpenedBuyerRequest> {
  constructor(
    readonly workspaceId: string,
    readonly request: BuyerRequestDoc,
  ) {
    super();
  }
}

@QueryHandler(AnswerBuyerRequestQuery)
export class AnswerBuyerRequestHandler implements IQueryHandler<AnswerBuyerRequestQuery> {
  constructor(
    private readonly buyers: BuyerSeal,
    private readonly contacts: BuyerContacts,
  ) {}

  async execute({ workspaceId, request }: AnswerBuyerRequestQuery): Promise<OpenedBuyerRequest> {
    const [opened] = await openBuyerRequests(this.buyers, this.contacts, workspaceId, [request]);
    return opened;
  }
}

export interface BuyerRequestFilters {
  status?: BuyerRequestStatus;
  /** Normalized card identity (`cardKey`). */
  cardKey?: string;
  /** Normalized set identity (`setKey`). */
  setKey?: string;
  /** The widget's buyer (`buyer_…`). */
  buyerId?: string;
  /** true: requests for any printing only; false: requests naming a set only. */
  anySet?: boolean;
  /** true: requests taking any condition only; false: naming one only. */
  anyCondition?: boolean;
  /** true: requests without a price limit only; false: with one only. */
  anyPrice?: boolean;
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
    private readonly contacts: BuyerContacts,
  ) {}

  async execute({ workspaceId, limit, cursor, filters }: ListBuyerRequestsQuery): Promise<Page<OpenedBuyerRequest>> {
    const filter: Record<string, Filter[string]> = { workspaceId };
    if (filters.status) filter.status = filters.status;
    if (filters.cardKey) filter.cardKey = filters.cardKey;
    if (filters.setKey) filter.setKey = filters.setKey;
    if (filters.buyerId) filter.buyerId = filters.buyerId;
    // Open fields are the wildcard values of the match fields (ANY_SET_KEY on `by_ws_set_created`).
    if (filters.anySet !== undefined) filter.setKey = filters.anySet ? ANY_SET_KEY : { $ne: ANY_SET_KEY };
    if (filters.anyCondition !== undefined) filter.conditionClass = filters.anyCondition ? ANY_CONDITION_CLASS : { $ne: ANY_CONDITION_CLASS };
    if (filters.anyPrice !== undefined) filter.priceCeilingMinor = filters.anyPrice ? NO_PRICE_LIMIT : { $ne: NO_PRICE_LIMIT };
    const createdAt = instantRange(filters.createdFrom, filters.createdTo);
    if (createdAt) filter.createdAt = createdAt;
    const page = await this.reads
      .collection<BuyerRequestDoc>(BUYER_REQUESTS)
      .find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
    return { ...page, items: await openBuyerRequests(this.buyers, this.contacts, workspaceId, page.items) };
  }
}

/** How many buyer requests of this workspace name the buyer. */
export class CountBuyerRequestsOfBuyerQuery extends Query<number> {
  constructor(
    readonly workspaceId: string,
    readonly buyerId: string,
  ) {
    super();
  }
}

@QueryHandler(CountBuyerRequestsOfBuyerQuery)
export class CountBuyerRequestsOfBuyerHandler implements IQueryHandler<CountBuyerRequestsOfBuyerQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, buyerId }: CountBuyerRequestsOfBuyerQuery): Promise<number> {
    return this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS).count({ workspaceId, buyerId });
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
    const doc = await this.reads.collection<BuyerRequestMatchesDoc>(BUYER_REQUEST_MATCHES).get(buyerRequestId);
    return pageOfMatches(buyerRequestId, doc?.matches ?? [], limit, cursor);
  }
}

/**
 * A page of a request's matches, best first (score, then id, both descending), after `cursor`: at
 * most MAX_MATCHES_PER_KIND of each kind, so sorted in memory. Cursors are the read store's kind
 * (the last item's score and id), so a cursor handed out before the matches moved here still works.
 */
export function pageOfMatches(buyerRequestId: string, matches: readonly MatchEntry[], limit: number, cursor?: string): Page<MatchDoc> {
  const sorted = [...matches].sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  let from = 0;
  if (cursor !== undefined) {
    const [score, id] = decodeCursor(cursor, 2);
    if (typeof score !== 'number' || typeof id !== 'string') throw new InvalidCursorError();
    from = sorted.findIndex((m) => m.score < score || (m.score === score && m.id < id));
    if (from === -1) from = sorted.length;
  }
  const items = sorted.slice(from, from + limit).map((m) => ({ ...m, buyerRequestId }));
  const last = items[items.length - 1];
  return { items, nextCursor: from + limit < sorted.length && last ? encodeCursor([last.score, last.id]) : null };
}

// The reader port others read requests through lives beside (kept importable from here).
export { BuyerRequestReadModel, type BuyerRequestWithBuyer, openBuyerRequest } from './buyer-request.reader';

export const BUYER_REQUEST_QUERY_HANDLERS = [
  GetBuyerRequestHandler,
  AnswerBuyerRequestHandler,
  ListBuyerRequestsHandler,
  ListBuyerRequestMatchesHandler,
  CountBuyerRequestsOfBuyerHandler,
];
