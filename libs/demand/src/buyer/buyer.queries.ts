// What others may ask of buyers: the buyer id an email has in a workspace (nothing is stored or
// looked up; the widget's honeypot answers with it so a caught bot sees a normal answer).
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { BuyerContacts } from './buyer-contacts';

export class BuyerIdOfEmailQuery extends Query<string> {
  constructor(
    readonly workspaceId: string,
    readonly email: string,
  ) {
    super();
  }
}

@QueryHandler(BuyerIdOfEmailQuery)
export class BuyerIdOfEmailHandler implements IQueryHandler<BuyerIdOfEmailQuery> {
  constructor(private readonly contacts: BuyerContacts) {}

  async execute({ workspaceId, email }: BuyerIdOfEmailQuery): Promise<string> {
    return this.contacts.buyerIdOf(workspaceId, email);
  }
}

export const BUYER_QUERY_HANDLERS = [BuyerIdOfEmailHandler];
