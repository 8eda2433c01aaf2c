import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { ProjectionRunner } from '@app/platform';

import { BUYER_REQUEST_READER } from './buyer-request/buyer-request-reader.port';
import { BUYER_REQUEST_COMMAND_HANDLERS } from './buyer-request/buyer-request.handlers';
import { BuyerRequestsController } from './buyer-request/buyer-request.http';
import { buyerRequestProjection, matchProjection } from './buyer-request/buyer-request.projection';
import { BUYER_REQUEST_QUERY_HANDLERS, BuyerRequestReadModel } from './buyer-request/buyer-request.queries';

@Module({
  imports: [CqrsModule],
  controllers: [BuyerRequestsController],
  providers: [
    ...BUYER_REQUEST_COMMAND_HANDLERS,
    ...BUYER_REQUEST_QUERY_HANDLERS,
    BuyerRequestReadModel,
    { provide: BUYER_REQUEST_READER, useExisting: BuyerRequestReadModel },
  ],
  exports: [BUYER_REQUEST_READER],
})
export class DemandModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(buyerRequestProjection, matchProjection);
  }
}
