// Queries of the delivery history: a webhook's deliveries with their attempts, and one delivery
// with the payload it delivered (read from the public events read model).
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import {
  getOwned,
  instantRange,
  type Page,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEvent,
  type PublicEventCatalogue,
  READ_STORE,
  type ReadStore,
} from '@app/platform';
import { DomainError } from '@app/platform/domain';

import { assertPublicEventTypes } from '../events/event-types';
import { PUBLIC_EVENTS, type PublicEventDoc } from '../events/public-event.projection';
import { WEBHOOKS, type WebhookDoc } from '../subscriptions/webhook.projection';
import { type DeliveryDoc, type DeliveryStatus, WEBHOOK_DELIVERIES } from './delivery.projection';

export interface DeliveryQuery {
  eventType?: string;
  status?: DeliveryStatus;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** The webhook of this workspace, or NOT_FOUND (another workspace's answers the same). */
function webhookOf(reads: ReadStore, workspaceId: string, webhookId: string): Promise<WebhookDoc> {
  return getOwned(reads.collection<WebhookDoc>(WEBHOOKS), workspaceId, webhookId, 'webhook');
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
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
  ) {}

  async execute({ workspaceId, webhookId, query }: ListWebhookDeliveriesQuery): Promise<Page<DeliveryDoc>> {
    assertPublicEventTypes(this.catalogue, 'query', 'eventType', query.eventType);
    await webhookOf(this.reads, workspaceId, webhookId);
    const createdAt = instantRange(query.from, query.to);
    const filter = {
      webhookId,
      workspaceId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.eventType ? { eventType: query.eventType } : {}),
      ...(createdAt ? { createdAt } : {}),
    };
    return this.reads
      .collection<DeliveryDoc>(WEBHOOK_DELIVERIES)
      .find(filter, { sort: [['createdAt', -1]], limit: query.limit, after: query.cursor });
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
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, webhookId, deliveryId }: GetWebhookDeliveryQuery): Promise<{ delivery: DeliveryDoc; payload: PublicEvent | null }> {
    await webhookOf(this.reads, workspaceId, webhookId);
    const delivery = await this.reads.collection<DeliveryDoc>(WEBHOOK_DELIVERIES).get(deliveryId);
    if (!delivery || delivery.webhookId !== webhookId) throw new DomainError('NOT_FOUND', `No delivery with id ${deliveryId}`);
    const event = await this.reads.collection<PublicEventDoc>(PUBLIC_EVENTS).get(delivery.eventId);
    return { delivery, payload: event?.envelope ?? null };
  }
}

export const DELIVERY_QUERY_HANDLERS = [ListWebhookDeliveriesHandler, GetWebhookDeliveryHandler];
