// Commands and queries on deliveries, for the HTTP layer: replay and test go through the CommandBus,
// the delivery history through the QueryBus, like every other route; WebhookDeliveries does the work.
import { Command, CommandHandler, type ICommandHandler, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import type { Page, PublicEvent } from '@app/platform';

import type { DeliveryDoc } from './delivery.projection';
import { type DeliveryQuery, type ReplayResult, type ReplaySelection, type TestResult, WebhookDeliveries } from './delivery.service';

export class ReplayWebhookEventsCommand extends Command<ReplayResult> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly selection: ReplaySelection,
  ) {
    super();
  }
}

@CommandHandler(ReplayWebhookEventsCommand)
export class ReplayWebhookEventsHandler implements ICommandHandler<ReplayWebhookEventsCommand> {
  constructor(private readonly deliveries: WebhookDeliveries) {}

  execute({ workspaceId, webhookId, selection }: ReplayWebhookEventsCommand): Promise<ReplayResult> {
    return this.deliveries.replay(workspaceId, webhookId, selection);
  }
}

export class TestWebhookCommand extends Command<TestResult> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}

@CommandHandler(TestWebhookCommand)
export class TestWebhookHandler implements ICommandHandler<TestWebhookCommand> {
  constructor(private readonly deliveries: WebhookDeliveries) {}

  execute({ workspaceId, webhookId }: TestWebhookCommand): Promise<TestResult> {
    return this.deliveries.test(workspaceId, webhookId);
  }
}

export class ListWebhookDeliveriesQuery extends Query<Page<DeliveryDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly query: DeliveryQuery,
  ) {
    super();
  }
}

@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery> {
  constructor(private readonly deliveries: WebhookDeliveries) {}

  execute({ workspaceId, webhookId, query }: ListWebhookDeliveriesQuery): Promise<Page<DeliveryDoc>> {
    return this.deliveries.list(workspaceId, webhookId, query);
  }
}

export class GetWebhookDeliveryQuery extends Query<{ delivery: DeliveryDoc; payload: PublicEvent | null }> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly deliveryId: string,
  ) {
    super();
  }
}

@QueryHandler(GetWebhookDeliveryQuery)
export class GetWebhookDeliveryHandler implements IQueryHandler<GetWebhookDeliveryQuery> {
  constructor(private readonly deliveries: WebhookDeliveries) {}

  execute({ workspaceId, webhookId, deliveryId }: GetWebhookDeliveryQuery): Promise<{ delivery: DeliveryDoc; payload: PublicEvent | null }> {
    return this.deliveries.get(workspaceId, webhookId, deliveryId);
  }
}

export const DELIVERY_HANDLERS = [ReplayWebhookEventsHandler, TestWebhookHandler, ListWebhookDeliveriesHandler, GetWebhookDeliveryHandler];
