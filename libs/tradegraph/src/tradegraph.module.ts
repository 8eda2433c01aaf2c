// Tradegraph: market intelligence from projections of the log — demand clusters (summary), supply,
// price bands and anomalies (pricing), and execution routing.
import { Module, type OnModuleInit } from '@nestjs/common';

import { ProjectionRunner } from '@app/platform';

import { PricingReads } from './pricing/pricing.reads';
import { RoutingReads } from './routing/routing.reads';
import { SummaryReads } from './summary/summary.reads';
import { SupplyReads } from './supply/supply.reads';
import { TradegraphFreshness } from './tradegraph.freshness';
import { TradegraphController } from './tradegraph.http';
import { tradegraphProjection } from './tradegraph.projection';

@Module({
  controllers: [TradegraphController],
  providers: [PricingReads, SummaryReads, SupplyReads, RoutingReads, TradegraphFreshness],
})
export class TradegraphModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.register(tradegraphProjection);
  }
}
