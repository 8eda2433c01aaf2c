// Finding candidates through the read models' indexes, then judging them with the pure scorer.
// Full matches are an index range (same card and set, currency, condition class, price bound);
// near misses also look at names a typo away and at a bounded slice of the set's items.
import { Inject, Injectable } from '@nestjs/common';

import { ANY_CONDITION_CLASS, ANY_SET_KEY, similarCardNames } from '@app/catalog';
import type { MatchCandidate } from '@app/contracts';
import { BUYER_REQUEST_READER, type BuyerRequestCriteria, type BuyerRequestReader, type BuyerRequestView, type InstantMatching } from '@app/demand';
import { INVENTORY_READER, type InventoryItemView, type InventoryReader } from '@app/supply';

import { byScore, PRICE_TOLERANCE, type RequestView, scoreMatch, TYPO_SIMILARITY } from '../scoring/match-scoring';

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

export function requestViewOfDoc(doc: BuyerRequestView): RequestView {
  return { ...doc };
}

/** The request takes any printing of its card (no set given). */
const anySet = (criteria: BuyerRequestCriteria): boolean => criteria.match.setKey === ANY_SET_KEY;

/** Reads candidates through the ports demand and supply publish, and judges them. */
@Injectable()
export class MatchCandidates implements InstantMatching {
  constructor(
    @Inject(INVENTORY_READER) private readonly items: InventoryReader,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
  ) {}

  inventoryPosition(): Promise<number> {
    return this.items.appliedPosition();
  }

  /** Available items that fully meet the request, best first (the cheapest `limit` are judged). */
  async fullMatches(workspaceId: string, criteria: BuyerRequestCriteria, limit: number): Promise<MatchCandidate[]> {
    const { match } = criteria;
    const items = await this.items.availableFor(
      {
        workspaceId,
        cardKey: match.cardKey,
        matchKey: anySet(criteria) ? null : match.matchKey,
        currency: criteria.currency,
        conditionClass: match.conditionClass === ANY_CONDITION_CLASS ? null : match.conditionClass,
        minConditionScore: match.conditionScore,
        maxPriceMinor: criteria.maxPriceMinor,
      },
      limit,
    );
    const view = requestView(criteria);
    return items
      .map((item) => scoreMatch(view, item))
      .filter((m): m is MatchCandidate => m !== null && m.kind === 'full')
      .sort(byScore);
  }

  /** Full matches and near misses for a match run, best first, at most `limit` of each kind. */
  async runCandidates(workspaceId: string, criteria: BuyerRequestCriteria, limit: number): Promise<MatchCandidate[]> {
    const { match } = criteria;
    const view = requestView(criteria);
    const max = criteria.maxPriceMinor;
    const ceiling = max === null ? null : max + Math.floor(max * PRICE_TOLERANCE);
    let byName: InventoryItemView[];
    let bySet: InventoryItemView[] = [];
    if (anySet(criteria)) {
      // Any printing: the card and the catalogue names a typo away, in every set. (Names with a
      // typo the catalogue does not know are found within a set only, so not here.)
      const typoKeys = similarCardNames(match.cardKey, { minSimilarity: TYPO_SIMILARITY, limit: 20 });
      byName = await this.items.availableByCardKeys(workspaceId, [match.cardKey, ...typoKeys], criteria.currency, ceiling, 1000);
    } else {
      const typoKeys = similarCardNames(match.cardKey, { setKey: match.setKey, minSimilarity: TYPO_SIMILARITY, limit: 20 });
      const matchKeys = [match.matchKey, ...typoKeys.map((k) => `${match.setKey}|${k}`)];
      [byName, bySet] = await Promise.all([
        this.items.availableByMatchKeys(workspaceId, matchKeys, criteria.currency, ceiling, 1000),
        // Items whose own name has the typo are not in the catalogue: look through the set.
        this.items.availableInSet(workspaceId, match.setKey, criteria.currency, SET_SCAN_LIMIT),
      ]);
    }
    const seen = new Set<string>();
    const scored: MatchCandidate[] = [];
    for (const item of [...byName, ...bySet]) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      const m = scoreMatch(view, item);
      if (m) scored.push(m);
    }
    scored.sort(byScore);
    const full = scored.filter((m) => m.kind === 'full').slice(0, limit);
    const near = scored.filter((m) => m.kind === 'near_miss').slice(0, limit);
    return [...full, ...near];
  }

  /** Active requests of the workspace that the item fully meets, skipping pairs already recorded. */
  async requestsMetBy(item: InventoryItemView): Promise<Array<{ request: BuyerRequestView; match: MatchCandidate }>> {
    return (await this.requestsMetByMany([item]))[0];
  }

  /** `requestsMetBy` of each item (same order), the requests read for all of them at once. */
  async requestsMetByMany(items: readonly InventoryItemView[]): Promise<Array<Array<{ request: BuyerRequestView; match: MatchCandidate }>>> {
    const available = items.filter((item) => item.status === 'available');
    const found = available.length === 0 ? [] : await this.requests.activeRequestsForMany(available, REQUESTS_PER_ITEM_LIMIT);
    const byItem = new Map(available.map((item, i) => [item, found[i]]));
    return items.map((item) => {
      const out: Array<{ request: BuyerRequestView; match: MatchCandidate }> = [];
      for (const request of byItem.get(item) ?? []) {
        if (request.matchedItemIds.includes(item.id)) continue;
        const match = scoreMatch(requestViewOfDoc(request), item);
        if (match?.kind === 'full') out.push({ request, match });
      }
      return out;
    });
  }
}
