import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { ProjectionRunner } from '@app/platform';

import { BUYER_REQUEST_HANDLERS } from './buyer-request/buyer-request.handlers';
import { BuyerRequestsController } from './buyer-request/buyer-request.http';
import { buyerRequestProjection, matchProjection } from './buyer-request/buyer-request.projection';

@Module({
  imports: [CqrsModule],
  controllers: [BuyerRequestsController],
  providers: [...BUYER_REQUEST_HANDLERS],
})
export class DemandModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(buyerRequestProjection, matchProjection);
  }
}
