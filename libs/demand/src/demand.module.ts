import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { CLOCK, type Clock, PersonalDataVault, ProjectionRunner, READ_STORE, type ReadStore, SECRET_BOX, type SecretBox } from '@app/platform';

import { BUYER_CONTACT_READER, BuyerContactReadModel } from './buyer/buyer-contact-reader';
import { BuyerContacts } from './buyer/buyer-contacts';
import { BUYER_COMMAND_HANDLERS } from './buyer/buyer.handlers';
import { BuyersController } from './buyer/buyer.http';
import { BUYER_QUERY_HANDLERS } from './buyer/buyer.queries';
import { BUYER_REQUEST_READER } from './buyer-request/buyer-request-reader.port';
import { BUYER_REQUEST_COMMAND_HANDLERS } from './buyer-request/buyer-request.handlers';
import { BuyerRequestsController } from './buyer-request/buyer-request.http';
import { buyerRequestMatchesProjection, matchProjection } from './buyer-request/buyer-request-matches.projection';
import { buyerRequestProjection } from './buyer-request/buyer-request.projection';
import { BUYER_REQUEST_QUERY_HANDLERS, BuyerRequestReadModel } from './buyer-request/buyer-request.queries';

@Module({
  imports: [CqrsModule],
  controllers: [BuyerRequestsController, BuyersController],
  providers: [
    ...BUYER_REQUEST_COMMAND_HANDLERS,
    ...BUYER_REQUEST_QUERY_HANDLERS,
    ...BUYER_COMMAND_HANDLERS,
    ...BUYER_QUERY_HANDLERS,
    BuyerRequestReadModel,
    { provide: BUYER_REQUEST_READER, useExisting: BuyerRequestReadModel },
    // Buyers' personal data: one data key per buyer, wrapped by the SecretBox (see PersonalDataVault).
    {
      provide: PersonalDataVault,
      inject: [READ_STORE, SECRET_BOX, CLOCK],
      useFactory: (reads: ReadStore, box: SecretBox, clock: Clock) => new PersonalDataVault(reads, box, clock),
    },
    BuyerContacts,
    BuyerContactReadModel,
    { provide: BUYER_CONTACT_READER, useExisting: BuyerContactReadModel },
  ],
  exports: [BUYER_REQUEST_READER, BUYER_CONTACT_READER],
})
export class DemandModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(buyerRequestProjection, buyerRequestMatchesProjection, matchProjection);
  }
}
