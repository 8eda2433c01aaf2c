// GET /tradegraph/pricing, read: a page of the workspace's price points (one document per card,
// condition and currency, filtered by the catalogue's identity of the card, set and condition
// asked for), each turned into its band, dispersion and anomalies for the window — and, for each
// price found outside its band, the listed items at that price (an indexed read). One read per
// page, plus one per anomalous price, whatever the size of the workspace.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { normalizeCardName, normalizeCondition, normalizeSetName } from '@app/catalog';
import { CLOCK, type Clock, EVENTUAL_READ_STORE, type Filter, type ReadStore } from '@app/platform';

import { roundedBand } from '../stats';
import { LISTED_ORDER, type PointsCounts, type PointsIdentity, pointsKeyOf, TG_COUNTS, TG_POINTS } from './pricing.views';
import { type ItemDoc, TG_ITEMS } from '../supply/supply.views';
import type { PricingResponse } from '../tradegraph.schemas';
import { pricingOf } from './price-bands';

const SEVERITY = { high: 0, medium: 1, low: 2 } as const;
const DAY = 86_400_000;
/** Items listed at one anomalous price named at most (the rest are the same finding). */
const ITEMS_PER_PRICE = 50;

export interface PricingRequest {
  windowDays: number;
  card?: string;
  set?: string;
  condition?: string;
  limit: number;
  cursor?: string;
}

export class TradegraphPricingQuery extends Query<PricingResponse> {
  constructor(
    readonly workspaceId: string,
    readonly q: PricingRequest,
  ) {
    super();
  }
}

@QueryHandler(TradegraphPricingQuery)
export class TradegraphPricingHandler implements IQueryHandler<TradegraphPricingQuery> {
  constructor(
    @Inject(EVENTUAL_READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, q }: TradegraphPricingQuery): Promise<PricingResponse> {
    const started = performance.now();
    const now = this.clock.now();
    const filter: Record<string, string> = { workspaceId };
    if (q.card) filter.cardKey = normalizeCardName(q.card).value.key;
    if (q.set) filter.setKey = normalizeSetName(q.set).value.key;
    if (q.condition) filter.condition = normalizeCondition(q.condition).value.label;
    const page = await this.reads
      .collection<PointsIdentity>(TG_POINTS)
      .find(filter as Filter, { sort: LISTED_ORDER, limit: q.limit, after: q.cursor });
    const counts = new Map((await this.reads.collection<PointsCounts>(TG_COUNTS).getMany(page.items.map((p) => p.id))).map((c) => [c.id, c]));
    const cards: PricingResponse['cards'] = [];
    const anomalies: PricingResponse['anomalies'] = [];
    for (const identity of page.items) {
      const doc = { ...identity, ...(counts.get(identity.id) ?? { sales: [], asks: [], bids: [] }) };
      const priced = pricingOf(doc, now, q.windowDays);
      cards.push({
        card: doc.cardName,
        set: doc.setName,
        condition: doc.condition,
        currency: doc.currency,
        band: roundedBand(priced.band),
        sources: priced.sources,
        dispersion: priced.dispersion,
        anomalyCount: priced.anomalies.reduce((sum, a) => sum + a.listings, 0),
      });
      for (const a of priced.anomalies) {
        const listed = await this.reads
          .collection<ItemDoc>(TG_ITEMS)
          .find({ workspaceId, pointsKey: pointsKeyOf(doc), priceMinor: a.priceMinor, available: { $gt: 0 } }, { limit: ITEMS_PER_PRICE });
        for (const item of listed.items) {
          anomalies.push({
            itemName: `${doc.cardName} (${doc.setName}, ${doc.condition})`,
            itemId: item.id,
            direction: a.direction,
            severity: a.severity,
            price: a.price,
            currency: doc.currency,
            ratio: a.ratio,
            band: roundedBand(a.against) as NonNullable<ReturnType<typeof roundedBand>>,
            factors: a.factors,
            reasons: a.reasons,
          });
        }
      }
    }
    anomalies.sort((a, b) => SEVERITY[a.severity] - SEVERITY[b.severity] || Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)));
    return {
      windowDays: q.windowDays,
      window: { from: new Date(now.getTime() - q.windowDays * DAY).toISOString(), to: now.toISOString() },
      computedAt: now.toISOString(),
      tookMs: Math.round((performance.now() - started) * 100) / 100,
      cards,
      anomalies,
      nextCursor: page.nextCursor,
    };
  }
}
