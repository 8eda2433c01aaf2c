// Tradegraph: market intelligence from projections of the log — demand clusters (summary), supply,
// price bands and anomalies (pricing), and execution routing.
import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { ProjectionRunner } from '@app/platform';

import { TradegraphPricingHandler } from './pricing/pricing.queries';
import { TradegraphRoutingHandler } from './routing/routing.queries';
import { TradegraphSummaryHandler } from './summary/summary.queries';
import { TradegraphSupplyHandler } from './supply/supply.queries';
import { TradegraphFreshness } from './tradegraph.freshness';
import { TradegraphController } from './tradegraph.http';
import { tradegraphProjection } from './tradegraph.projection';

@Module({
  imports: [CqrsModule],
  controllers: [TradegraphController],
  providers: [TradegraphPricingHandler, TradegraphSummaryHandler, TradegraphSupplyHandler, TradegraphRoutingHandler, TradegraphFreshness],
})
export class TradegraphModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.register(tradegraphProjection);
  }
}
