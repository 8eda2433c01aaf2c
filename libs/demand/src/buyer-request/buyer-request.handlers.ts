// Command and query handlers for buyer requests.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  handleCommand,
  ID_GENERATOR,
  type IdGenerator,
  type Page,
  READ_STORE,
  type ReadStore,
} from '@app/platform';

import { buyerRequestDecider, type CreateBuyerRequest } from './buyer-request.decider';
import { buyerRequestStream, parseBuyerRequestEvent } from './buyer-request.events';
import { BUYER_REQUESTS, type BuyerRequestDoc } from './buyer-request.projection';

const buyerRequestAggregate = { decider: buyerRequestDecider, parseEvent: parseBuyerRequestEvent };

/** What a client decides about a new request; the id and the time are the server's. */
export type NewBuyerRequest = Omit<CreateBuyerRequest, 'type' | 'buyerRequestId' | 'now'>;

export class CreateBuyerRequestCommand extends Command<{ id: string; position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly request: NewBuyerRequest,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateBuyerRequestCommand)
export class CreateBuyerRequestHandler implements ICommandHandler<CreateBuyerRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: CreateBuyerRequestCommand) {
    const id = this.ids.next('br');
    const result = await handleCommand(
      this.events,
      buyerRequestStream(id),
      buyerRequestAggregate,
      { type: 'CreateBuyerRequest', buyerRequestId: id, ...request, now: this.clock.now() },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    return { id, position: result.position ?? 0 };
  }
}

export class GetBuyerRequestQuery extends Query<BuyerRequestDoc | null> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetBuyerRequestQuery)
export class GetBuyerRequestHandler implements IQueryHandler<GetBuyerRequestQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, id }: GetBuyerRequestQuery): Promise<BuyerRequestDoc | null> {
    const doc = await this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS).get(id);
    // Another workspace's request is answered exactly like a missing one.
    return doc && doc.workspaceId === workspaceId ? doc : null;
  }
}

export class ListBuyerRequestsQuery extends Query<Page<BuyerRequestDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListBuyerRequestsQuery)
export class ListBuyerRequestsHandler implements IQueryHandler<ListBuyerRequestsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, limit, cursor }: ListBuyerRequestsQuery): Promise<Page<BuyerRequestDoc>> {
    return this.reads
      .collection<BuyerRequestDoc>(BUYER_REQUESTS)
      .find({ workspaceId }, { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

export const BUYER_REQUEST_HANDLERS = [CreateBuyerRequestHandler, GetBuyerRequestHandler, ListBuyerRequestsHandler];
