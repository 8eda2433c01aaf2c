// GET /tradegraph/routing, read: a page of available items (or one), each with its card's price
// points and demand document — three reads an item — ranked into execution actions.
import { Inject, Injectable } from '@nestjs/common';

import { ApiError, CLOCK, type Clock, READ_STORE, type ReadStore } from '@app/platform';

import { pricingOf } from '../pricing/price-bands';
import { roundedBand } from '../stats';
import { cardSupply } from '../supply/supply-view';
import { availableUnits, demandCardId, type DemandDoc, type ItemDoc, pointsIdOf, type PointsDoc, TG_DEMAND, TG_ITEMS, TG_POINTS } from '../tradegraph.projection';
import type { RoutingResponse } from '../tradegraph.schemas';
import { executionActions } from './execution-actions';

const DAY = 86_400_000;

@Injectable()
export class RoutingReads {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async routing(workspaceId: string, q: { windowDays: number; inventoryItemId?: string; limit: number; cursor?: string }): Promise<RoutingResponse> {
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
    const routed = await Promise.all(
      page.items.map(async (item) => {
        const [points, demand] = await Promise.all([
          this.reads.collection<PointsDoc>(TG_POINTS).get(pointsIdOf(workspaceId, item.pointsKey)),
          this.reads.collection<DemandDoc>(TG_DEMAND).get(demandCardId(workspaceId, item)),
        ]);
        const band = points ? pricingOf(points, now, q.windowDays).band : null;
        const shown = roundedBand(band);
        const requests = Object.entries(demand?.open ?? {})
          .filter(([, r]) => r.currency === item.currency)
          .map(([buyerRequestId, r]) => ({ buyerRequestId, maxPrice: r.priceMinor / 100 }));
        const sellThrough = demand ? cardSupply(demand, now, q.windowDays, q.windowDays).sellThrough : null;
        return {
          inventoryItemId: item.id,
          itemName: `${item.cardName} (${item.setName}, ${item.condition})`,
          price: item.priceMinor / 100,
          currency: item.currency,
          availableUnits: availableUnits(item),
          band: shown ? { p25: shown.p25, median: shown.median, p75: shown.p75, count: shown.count } : null,
          actions: executionActions({ price: item.priceMinor / 100, band, requests, sellThrough, windowDays: q.windowDays }),
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
}
