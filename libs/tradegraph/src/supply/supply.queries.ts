// GET /tradegraph/supply, read: the workspace's supply document and a page of its cards (the most
// available units first), each computed for the window.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENTUAL_READ_STORE, type ReadStore } from '@app/platform';

import { demandDoc, type DemandSummary, TG_DEMAND, withDemandCounts, workspaceDemandId } from '../summary/summary.views';
import type { SupplyResponse } from '../tradegraph.schemas';
import { cardSupply, workspaceSupply } from './supply-view';

const DAY = 86_400_000;

export class TradegraphSupplyQuery extends Query<SupplyResponse> {
  constructor(
    readonly workspaceId: string,
    readonly q: { windowDays: number; staleDays: number; limit: number; cursor?: string },
  ) {
    super();
  }
}

@QueryHandler(TradegraphSupplyQuery)
export class TradegraphSupplyHandler implements IQueryHandler<TradegraphSupplyQuery> {
  constructor(
    @Inject(EVENTUAL_READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, q }: TradegraphSupplyQuery): Promise<SupplyResponse> {
    const started = performance.now();
    const now = this.clock.now();
    const [workspace, page] = await Promise.all([
      demandDoc(this.reads, workspaceDemandId(workspaceId)),
      this.reads.collection<DemandSummary>(TG_DEMAND).find({ workspaceId, kind: 'card', availableUnits: { $gt: 0 } }, { sort: [['availableUnits', -1], ['name', 1]], limit: q.limit, after: q.cursor }),
    ]);
    const cards = (await withDemandCounts(this.reads, page.items)).map((doc) => ({ name: doc.name, card: doc.cardName ?? '', set: doc.setName, ...cardSupply(doc, now, q.windowDays, q.staleDays) }));
    const overall = workspaceSupply(workspace, now, q.windowDays, q.staleDays);
    return {
      windowDays: q.windowDays,
      window: { from: new Date(now.getTime() - q.windowDays * DAY).toISOString(), to: now.toISOString() },
      computedAt: now.toISOString(),
      tookMs: Math.round((performance.now() - started) * 100) / 100,
      staleDays: q.staleDays,
      workspace: overall,
      cards,
      nextCursor: page.nextCursor,
    };
  }
}
