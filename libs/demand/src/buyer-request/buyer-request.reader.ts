// The read-only port other contexts read buyer requests and matches through (BuyerRequestReader):
// the request's own read model, with the buyer opened; matches by id through the match index.
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';

import { ANY_CONDITION_CLASS, anySetMatchKey } from '@app/catalog';
import { APP_CONFIG, type AppConfig, BuyerSeal, findOwned, ProjectionRunner, READ_STORE, type ReadStore } from '@app/platform';

import type { BuyerRequestReader, BuyerRequestView, MatchView, OfferedItem } from './buyer-request-reader.port';
import { BUYER_REQUEST_MATCHES, type BuyerRequestMatchesDoc, MATCHES, matchProjection, type MatchRefDoc } from './buyer-request-matches.projection';
import { buyerSealContext } from './buyer-request.events';
import { ACTIVE_REQUEST_STATUSES, BUYER_REQUESTS, type BuyerRequestDoc, type BuyerRequestHistory } from './buyer-request.projection';

/** A buyer request document with its buyer opened. */
export interface BuyerRequestWithBuyer extends BuyerRequestView, BuyerRequestHistory {
  revision: number;
}

/** The document with its buyer opened (SecretBoxError when it does not open: never answered as "no buyer"). */
export function openBuyerRequest(buyers: BuyerSeal, doc: BuyerRequestDoc): BuyerRequestWithBuyer {
  const { buyerSealed, buyerId: _buyerId, contactSealed: _contactSealed, ...rest } = doc;
  return { ...rest, buyer: buyers.open(buyerSealContext(doc.id), buyerSealed) };
}

/** Cards asked per query by `activeRequestsForMany`. */
const MANY_CARDS_PER_QUERY = 250;
/** Rows one such query may return before its items are asked one by one instead. */
const MANY_ROWS_PER_QUERY = 20_000;

@Injectable()
export class BuyerRequestReadModel implements BuyerRequestReader {
  private readonly logger = new Logger('buyer-requests');
  /** Without a BuyerSeal (no SecretBox) only requests that name no buyer can be read. */
  private readonly buyers: BuyerSeal;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Optional() buyers?: BuyerSeal,
    /** Without a runner (tests), a match the match index has not seen yet is not waited for. */
    @Optional() private readonly runner?: ProjectionRunner,
    @Optional() @Inject(APP_CONFIG) private readonly config?: Pick<AppConfig, 'READ_YOUR_WRITES_TIMEOUT_MS'>,
  ) {
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
    // checked on the rows the range leaves. Requests for any printing of the card (`*|<cardKey>`)
    // and for any condition (`*`) are values of the same fields: two IN lists, still the index.
    const page = await this.requests.find(
      {
        workspaceId: item.workspaceId,
        matchKey: { $in: [item.matchKey, anySetMatchKey(item.cardKey)] },
        currency: item.currency,
        conditionClass: { $in: [item.conditionClass, ANY_CONDITION_CLASS] },
        status: { $in: [...ACTIVE_REQUEST_STATUSES] },
        priceCeilingMinor: { $gte: item.priceMinor },
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
        // Each item's own match key, and the key of requests for any printing of its card.
        const keys = [...new Set([...chunk, ...asking.map((i) => anySetMatchKey(items[i].cardKey))])];
        const page = await this.requests.find(
          {
            workspaceId: first.workspaceId,
            matchKey: { $in: keys },
            currency: first.currency,
            conditionClass: { $in: [first.conditionClass, ANY_CONDITION_CLASS] },
            status: { $in: [...ACTIVE_REQUEST_STATUSES] },
            priceCeilingMinor: { $gte: Math.min(...asking.map((i) => items[i].priceMinor)) },
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
          // Its own set's requests and those for any printing of its card, in id order (as one query answers).
          const candidates = [...(docsByCard.get(item.matchKey) ?? []), ...(docsByCard.get(anySetMatchKey(item.cardKey)) ?? [])];
          candidates.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          for (const doc of candidates) {
            if (mine.length >= limit) break;
            if (doc.priceCeilingMinor >= item.priceMinor && doc.conditionScore <= item.conditionScore) mine.push(viewOf(doc));
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
    const ref = await this.matchRef(workspaceId, matchId);
    if (!ref) return null;
    // What the match is now (a near miss may have become full): the request's document, which the
    // write recording it brought up to date.
    const doc = await findOwned(this.reads.collection<BuyerRequestMatchesDoc>(BUYER_REQUEST_MATCHES), workspaceId, ref.buyerRequestId);
    const match = doc?.matches.find((m) => m.id === matchId);
    if (!match) return null;
    return { matchId, buyerRequestId: ref.buyerRequestId, inventoryItemId: match.inventoryItemId, kind: match.kind, score: match.score };
  }

  /**
   * Which request a match belongs to. The match index follows the log asynchronously, so a match
   * it has not seen may have been recorded a moment ago (its id just read from the request's
   * matches): then it is waited for — that model alone, bounded — before the match is called unknown.
   */
  private async matchRef(workspaceId: string, matchId: string): Promise<MatchRefDoc | null> {
    const refs = this.reads.collection<MatchRefDoc>(MATCHES);
    const ref = await findOwned(refs, workspaceId, matchId);
    if (ref || !this.runner) return ref;
    const caughtUp = await this.runner.waitForHead([matchProjection.name], this.config?.READ_YOUR_WRITES_TIMEOUT_MS ?? 5000);
    if (!caughtUp) this.logger.warn('the match index is behind the log; answering with what it holds');
    return findOwned(refs, workspaceId, matchId);
  }
}
