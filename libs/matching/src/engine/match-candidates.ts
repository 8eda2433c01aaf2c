// Finding candidates through the read models' indexes, then judging them with the pure scorer.
// Full matches are an index range (same card and set, currency, condition class, price bound);
// near misses also look at names a typo away and at a bounded slice of the set's items.
import { Inject, Injectable } from '@nestjs/common';

import { similarCardNames } from '@app/catalog';
import {
  ACTIVE_REQUEST_STATUSES,
  BUYER_REQUESTS,
  type BuyerRequestCriteria,
  type BuyerRequestDoc,
  type InstantMatching,
  type MatchCandidate,
} from '@app/demand';
import { ProjectionRunner, READ_STORE, type ReadStore } from '@app/platform';
import { INVENTORY_ITEMS, type InventoryItemDoc, inventoryProjection } from '@app/supply';

import { byScore, type ItemView, PRICE_TOLERANCE, type RequestView, scoreMatch, TYPO_SIMILARITY } from '../scoring/match-scoring';

/** How many of a set's items a match run reads to find names with a typo (bounded cost). */
export const SET_SCAN_LIMIT = 2000;
/** Reverse matching reads at most this many requests per item. */
export const REQUESTS_PER_ITEM_LIMIT = 1000;

export function requestView(criteria: BuyerRequestCriteria): RequestView {
  return {
    cardName: criteria.cardName,
    cardKey: criteria.match.cardKey,
    setKey: criteria.match.setKey,
    setName: criteria.setName,
    condition: criteria.condition,
    maxPriceMinor: criteria.maxPriceMinor,
    currency: criteria.currency,
  };
}

export function requestViewOfDoc(doc: BuyerRequestDoc): RequestView {
  return { ...doc };
}

@Injectable()
export class MatchCandidates implements InstantMatching {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionRunner,
  ) {}

  inventoryPosition(): Promise<number> {
    return this.projections.appliedPosition(inventoryProjection.name);
  }

  private get items() {
    return this.reads.collection<InventoryItemDoc>(INVENTORY_ITEMS);
  }

  private get requests() {
    return this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS);
  }

  /** Available items that fully meet the request, best first (the cheapest `limit` are judged). */
  async fullMatches(workspaceId: string, criteria: BuyerRequestCriteria, limit: number): Promise<MatchCandidate[]> {
    const { match } = criteria;
    const page = await this.items.find(
      {
        workspaceId,
        matchKey: match.matchKey,
        status: 'available',
        currency: criteria.currency,
        conditionClass: match.conditionClass,
        priceMinor: { $lte: criteria.maxPriceMinor },
        conditionScore: { $gte: match.conditionScore },
      },
      { sort: [['priceMinor', 1]], limit },
    );
    const view = requestView(criteria);
    return page.items
      .map((item) => scoreMatch(view, item))
      .filter((m): m is MatchCandidate => m !== null && m.kind === 'full')
      .sort(byScore);
  }

  /** Full matches and near misses for a match run, best first, at most `limit` of each kind. */
  async runCandidates(workspaceId: string, criteria: BuyerRequestCriteria, limit: number): Promise<MatchCandidate[]> {
    const { match } = criteria;
    const view = requestView(criteria);
    const ceiling = criteria.maxPriceMinor + Math.floor(criteria.maxPriceMinor * PRICE_TOLERANCE);
    const typoKeys = similarCardNames(match.cardKey, { setKey: match.setKey, minSimilarity: TYPO_SIMILARITY, limit: 20 });
    const matchKeys = [match.matchKey, ...typoKeys.map((k) => `${match.setKey}|${k}`)];
    const [byName, bySet] = await Promise.all([
      this.items.find(
        { workspaceId, matchKey: { $in: matchKeys }, status: 'available', currency: criteria.currency, priceMinor: { $lte: ceiling } },
        { sort: [['priceMinor', 1]], limit: 1000 },
      ),
      // Items whose own name has the typo are not in the catalogue: look through the set.
      this.items.find(
        { workspaceId, setKey: match.setKey, status: 'available', currency: criteria.currency },
        { limit: SET_SCAN_LIMIT },
      ),
    ]);
    const seen = new Set<string>();
    const scored: MatchCandidate[] = [];
    for (const item of [...byName.items, ...bySet.items]) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      const m = scoreMatch(view, item satisfies ItemView);
      if (m) scored.push(m);
    }
    scored.sort(byScore);
    const full = scored.filter((m) => m.kind === 'full').slice(0, limit);
    const near = scored.filter((m) => m.kind === 'near_miss').slice(0, limit);
    return [...full, ...near];
  }

  /** Active requests of the workspace that the item fully meets, skipping pairs already recorded. */
  async requestsMetBy(item: InventoryItemDoc): Promise<Array<{ request: BuyerRequestDoc; match: MatchCandidate }>> {
    if (item.status !== 'available') return [];
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
      { limit: REQUESTS_PER_ITEM_LIMIT },
    );
    const out: Array<{ request: BuyerRequestDoc; match: MatchCandidate }> = [];
    for (const request of page.items) {
      if (request.matchedItemIds.includes(item.id)) continue;
      const match = scoreMatch(requestViewOfDoc(request), item);
      if (match?.kind === 'full') out.push({ request, match });
    }
    return out;
  }
}
