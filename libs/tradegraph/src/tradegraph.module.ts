// Tradegraph: market intelligence from projections of the log — demand clusters (summary), price
// bands and anomalies (pricing), supply; routing to come.
import { Module, type OnModuleInit } from '@nestjs/common';

import { ProjectionRunner } from '@app/platform';

import { PricingReads } from './pricing/pricing.reads';
import { SummaryReads } from './summary/summary.reads';
import { SupplyReads } from './supply/supply.reads';
import { TradegraphController } from './tradegraph.http';
import { tradegraphProjection } from './tradegraph.projection';

@Module({
  controllers: [TradegraphController],
  providers: [PricingReads, SummaryReads, SupplyReads],
})
export class TradegraphModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.register(tradegraphProjection);
  }
}
