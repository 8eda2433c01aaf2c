// Tradegraph: market intelligence from projections of the log — price bands and anomalies (more
// routes to come: summary, supply, routing).
import { Module, type OnModuleInit } from '@nestjs/common';

import { ProjectionRunner } from '@app/platform';

import { PricingReads } from './pricing/pricing.reads';
import { TradegraphController } from './tradegraph.http';
import { tradegraphProjection } from './tradegraph.projection';

@Module({
  controllers: [TradegraphController],
  providers: [PricingReads],
})
export class TradegraphModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.register(tradegraphProjection);
  }
}
