// GET /tradegraph/routing, read: a page of available items (or one), each with its card's price
// points and demand document (two reads for the page) and its best buyer (one read an item),
// ranked into execution actions.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { ApiError, CLOCK, type Clock, EVENTUAL_READ_STORE, type ReadStore } from '@app/platform';

import { priceBandOf } from '../pricing/price-bands';
import { roundedBand } from '../stats';
import { cardSupply } from '../supply/supply-view';
import { type PointsCounts, pointsIdOf, TG_COUNTS } from '../pricing/pricing.views';
import { demandCardId, type DemandSummary, type RequestDoc, TG_DEMAND, TG_REQUESTS, withDemandCounts } from '../summary/summary.views';
import { availableUnits, type ItemDoc, TG_ITEMS } from '../supply/supply.views';
import type { RoutingResponse } from '../tradegraph.schemas';
import { executionActions } from './execution-actions';

const DAY = 86_400_000;

export class TradegraphRoutingQuery extends Query<RoutingResponse> {
  constructor(
    readonly workspaceId: string,
    readonly q: { windowDays: number; inventoryItemId?: string; limit: number; cursor?: string },
  ) {
    super();
  }
}

@QueryHandler(TradegraphRoutingQuery)
export class TradegraphRoutingHandler implements IQueryHandler<TradegraphRoutingQuery> {
  constructor(
    @Inject(EVENTUAL_READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, q }: TradegraphRoutingQuery): Promise<RoutingResponse> {
    const started = performance.now();
    const now = this.clock.now();
    const items = this.reads.collection<ItemDoc>(TG_ITEMS);
    let page: { items: ItemDoc[]; nextCursor: string | null };
    if (q.inventoryItemId) {
      const one = await items.get(q.inventoryItemId);
      if (!one || one.workspaceId !== workspaceId) throw ApiError.notFound('inventory item', q.inventoryItemId);
      page = { items: [one], nextCursor: null };
    } else {
      page = await items.find({ workspaceId, status: 'available' }, { sort: [['listedAt', 1]], limit: q.limit, after: q.cursor });
    }
    // The page's price counts and card demand, two reads for the whole page.
    const unique = (ids: string[]) => [...new Set(ids)];
    const [points, demands] = await Promise.all([
      this.reads.collection<PointsCounts>(TG_COUNTS).getMany(unique(page.items.map((item) => pointsIdOf(workspaceId, item.pointsKey)))),
      this.reads
        .collection<DemandSummary>(TG_DEMAND)
        .getMany(unique(page.items.map((item) => demandCardId(workspaceId, item))))
        .then((summaries) => withDemandCounts(this.reads, summaries)),
    ]);
    const pointsById = new Map(points.map((p) => [p.id, p]));
    const demandById = new Map(demands.map((d) => [d.id, d]));
    const routed = await Promise.all(
      page.items.map(async (item) => {
        const counts = pointsById.get(pointsIdOf(workspaceId, item.pointsKey));
        const demand = demandById.get(demandCardId(workspaceId, item)) ?? null;
        const band = counts ? priceBandOf(counts, now, q.windowDays).band : null;
        const shown = roundedBand(band);
        // The highest buyer of the card; it is the best one paying the listed price too, when it reaches it.
        // (Requests without a price limit have no bid: they are not among these.)
        const found = await this.bestRequest(workspaceId, item);
        const bid = found?.bidMinor ?? null;
        const best = found && bid !== null ? { buyerRequestId: found.id, maxPrice: bid / 100 } : null;
        const paying = bid !== null && bid >= item.priceMinor ? best : null;
        const sellThrough = demand ? cardSupply(demand, now, q.windowDays, q.windowDays).sellThrough : null;
        return {
          inventoryItemId: item.id,
          itemName: `${item.cardName} (${item.setName}, ${item.condition})`,
          price: item.priceMinor / 100,
          currency: item.currency,
          availableUnits: availableUnits(item),
          band: shown ? { p25: shown.p25, median: shown.median, p75: shown.p75, count: shown.count } : null,
          actions: executionActions({ price: item.priceMinor / 100, band, paying, best, openRequests: demand?.openCount ?? 0, sellThrough, windowDays: q.windowDays }),
        };
      }),
    );
    return {
      windowDays: q.windowDays,
      window: { from: new Date(now.getTime() - q.windowDays * DAY).toISOString(), to: now.toISOString() },
      computedAt: now.toISOString(),
      tookMs: Math.round((performance.now() - started) * 100) / 100,
      items: routed,
      nextCursor: page.nextCursor,
    };
  }

  /** The open request of the item's card, in its currency, with the highest maximum price. */
  private async bestRequest(workspaceId: string, item: ItemDoc): Promise<RequestDoc | null> {
    const page = await this.reads
      .collection<RequestDoc>(TG_REQUESTS)
      .find(
        { workspaceId, cardId: item.cardId, currency: item.currency, bidMinor: { $gte: 0 } },
        { sort: [['bidMinor', -1]], limit: 1 },
      );
    return page.items[0] ?? null;
  }
}
