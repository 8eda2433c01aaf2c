// GET /tradegraph/summary, read: a page of the workspace's demand clusters (by card or by set),
// the most open requests first, each computed for the window from its one document.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENTUAL_READ_STORE, type ReadStore } from '@app/platform';

import { roundedBand } from '../stats';
import { type DemandSummary, TG_DEMAND, withDemandCounts } from './summary.views';
import type { SummaryResponse } from '../tradegraph.schemas';
import { demandCluster } from './demand-clusters';

const DAY = 86_400_000;

export class TradegraphSummaryQuery extends Query<SummaryResponse> {
  constructor(
    readonly workspaceId: string,
    readonly q: { windowDays: number; groupBy: 'card' | 'set'; limit: number; cursor?: string },
  ) {
    super();
  }
}

@QueryHandler(TradegraphSummaryQuery)
export class TradegraphSummaryHandler implements IQueryHandler<TradegraphSummaryQuery> {
  constructor(
    @Inject(EVENTUAL_READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, q }: TradegraphSummaryQuery): Promise<SummaryResponse> {
    const started = performance.now();
    const now = this.clock.now();
    const page = await this.reads
      .collection<DemandSummary>(TG_DEMAND)
      .find({ workspaceId, kind: q.groupBy }, { sort: [['openCount', -1], ['name', 1]], limit: q.limit, after: q.cursor });
    const docs = await withDemandCounts(this.reads, page.items);
    const clusters = docs.map((doc) => {
      const c = demandCluster(doc, now, q.windowDays);
      return {
        name: doc.name,
        card: doc.cardName,
        set: doc.setName,
        open: c.open,
        unmatched: c.unmatched,
        requestedPrices: roundedBand(c.prices),
        created: c.created,
        velocity: c.velocity,
        previousVelocity: c.previousVelocity,
        trend: c.trend,
        missed: c.missed,
        heat: c.heat,
        factors: c.factors,
        reasons: c.reasons,
      };
    });
    return {
      windowDays: q.windowDays,
      window: { from: new Date(now.getTime() - q.windowDays * DAY).toISOString(), to: now.toISOString() },
      computedAt: now.toISOString(),
      tookMs: Math.round((performance.now() - started) * 100) / 100,
      groupBy: q.groupBy,
      clusters,
      nextCursor: page.nextCursor,
    };
  }
}
