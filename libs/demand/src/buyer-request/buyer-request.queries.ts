// Query handlers for the buyer request routes, and the read-only port other contexts read requests
// through (BuyerRequestReader). Both answer with the buyer opened; the read model keeps it sealed.
import { Inject, Injectable, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { BuyerSeal, type Filter, findOwned, getOwned, instantRange, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { type BuyerContact, BuyerContacts } from '../buyer/buyer-contacts';
import type {
  BuyerRequestReader,
  BuyerRequestStatus,
  BuyerRequestView,
  MatchView,
  OfferedItem,
} from './buyer-request-reader.port';
import { buyerSealContext, contactSealContext } from './buyer-request.events';
import {
  ACTIVE_REQUEST_STATUSES,
  BUYER_REQUESTS,
  type BuyerRequestDoc,
  type BuyerRequestHistory,
  MATCHES,
  type MatchDoc,
} from './buyer-request.projection';

/** A buyer request document with its buyer opened. */
export interface BuyerRequestWithBuyer extends BuyerRequestView, BuyerRequestHistory {
  revision: number;
}

/** A buyer request with its buyer and its contact opened: what the routes answer from. */
export interface OpenedBuyerRequest extends BuyerRequestWithBuyer {
  /** The widget's buyer (`buyer_…`); null when the request has no contact. */
  buyerId: string | null;
  /** How to reach the buyer, while readable; null when none, or erased. */
  contact: BuyerContact | null;
  /** The buyer's personal data was erased: the contact no longer opens. */
  contactErased: boolean;
}

/** The document with its buyer opened (SecretBoxError when it does not open: never answered as "no buyer"). */
export function openBuyerRequest(buyers: BuyerSeal, doc: BuyerRequestDoc): BuyerRequestWithBuyer {
  const { buyerSealed, buyerId: _buyerId, contactSealed: _contactSealed, ...rest } = doc;
  return { ...rest, buyer: buyers.open(buyerSealContext(doc.id), buyerSealed) };
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

export interface BuyerRequestFilters {
  status?: BuyerRequestStatus;
  /** Normalized card identity (`cardKey`). */
  cardKey?: string;
  /** Normalized set identity (`setKey`). */
  setKey?: string;
  /** The widget's buyer (`buyer_…`). */
  buyerId?: string;
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
    return this.reads
      .collection<MatchDoc>(MATCHES)
      .find({ buyerRequestId }, { sort: [['score', -1]], limit, after: cursor });
  }
}

/** Cards asked per query by `activeRequestsForMany`. */
const MANY_CARDS_PER_QUERY = 250;
/** Rows one such query may return before its items are asked one by one instead. */
const MANY_ROWS_PER_QUERY = 20_000;

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

  async activeRequestsForMany(items: readonly OfferedItem[], limit: number, rowsPerQuery = MANY_ROWS_PER_QUERY): Promise<BuyerRequestView[][]> {
    const out: BuyerRequestView[][] = items.map(() => []);
    // Items that share the index's equality fields but the card are asked together: the cards as
    // an IN list, the loosest price and condition of the chunk as the bounds; each item then takes
    // its own requests from the rows (what its own query would answer: same filter, id order).
    const groups = new Map<string, number[]>();
    for (const [i, item] of items.entries()) {
      const key = `${item.workspaceId}\u0000${item.currency}\u0000${item.conditionClass}`;
      const group = groups.get(key);
      if (group) group.push(i);
      else groups.set(key, [i]);
    }
    const views = new Map<string, BuyerRequestView>();
    const viewOf = (doc: BuyerRequestDoc) => {
      let view = views.get(doc.id);
      if (!view) {
        view = this.view(doc);
        views.set(doc.id, view);
      }
      return view;
    };
    for (const members of groups.values()) {
      const byCard = new Map<string, number[]>();
      for (const i of members) {
        const list = byCard.get(items[i].matchKey);
        if (list) list.push(i);
        else byCard.set(items[i].matchKey, [i]);
      }
      const cards = [...byCard.keys()];
      for (let start = 0; start < cards.length; start += MANY_CARDS_PER_QUERY) {
        const chunk = cards.slice(start, start + MANY_CARDS_PER_QUERY);
        const asking = chunk.flatMap((card) => byCard.get(card) ?? []);
        const first = items[asking[0]];
        const page = await this.requests.find(
          {
            workspaceId: first.workspaceId,
            matchKey: chunk.length === 1 ? chunk[0] : { $in: chunk },
            currency: first.currency,
            conditionClass: first.conditionClass,
            status: { $in: [...ACTIVE_REQUEST_STATUSES] },
            maxPriceMinor: { $gte: Math.min(...asking.map((i) => items[i].priceMinor)) },
            conditionScore: { $lte: Math.max(...asking.map((i) => items[i].conditionScore)) },
          },
          { limit: rowsPerQuery },
        );
        if (page.nextCursor !== null) {
          // More rows than a query should hold in memory (a few very popular cards): item by item.
          for (const i of asking) out[i] = await this.activeRequestsFor(items[i], limit);
          continue;
        }
        const docsByCard = new Map<string, BuyerRequestDoc[]>();
        for (const doc of page.items) {
          const list = docsByCard.get(doc.matchKey);
          if (list) list.push(doc);
          else docsByCard.set(doc.matchKey, [doc]);
        }
        for (const i of asking) {
          const item = items[i];
          const mine: BuyerRequestView[] = [];
          for (const doc of docsByCard.get(item.matchKey) ?? []) {
            if (mine.length >= limit) break;
            if (doc.maxPriceMinor >= item.priceMinor && doc.conditionScore <= item.conditionScore) mine.push(viewOf(doc));
          }
          out[i] = mine;
        }
      }
    }
    return out;
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

export const BUYER_REQUEST_QUERY_HANDLERS = [
  GetBuyerRequestHandler,
  ListBuyerRequestsHandler,
  ListBuyerRequestMatchesHandler,
  CountBuyerRequestsOfBuyerHandler,
];
