// The webhooks context: the event catalogue and public events, subscriptions, and the dispatcher
// (fan-out on a persistent subscription + delivery worker), which runs where the workers run.
import { Inject, Module, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { APP_CONFIG, AppendBatcher, type AppConfig, EVENT_STORE, type EventStore, ProjectionRunner } from '@app/platform';

import { DELIVERY_HANDLERS } from './delivery/delivery.handlers';
import { WebhookDeliveriesController } from './delivery/delivery.http';
import { deliveryProjection } from './delivery/delivery.projection';
import { WebhookDeliveries } from './delivery/delivery.service';
import { DeliverySender } from './delivery/delivery-sender';
import { DeliveryWorker } from './delivery/delivery-worker';
import { WebhookDispatcher } from './delivery/dispatcher';
import { EventsController } from './events/events.http';
import { publicEventProjection } from './events/public-event.projection';
import { WEBHOOK_HANDLERS } from './subscriptions/webhook.handlers';
import { WebhooksController } from './subscriptions/webhook.http';
import { webhookProjection } from './subscriptions/webhook.projection';
import { WEBHOOK_SETTINGS, webhookSettings } from './webhook-settings';

@Module({
  imports: [CqrsModule],
  controllers: [EventsController, WebhooksController, WebhookDeliveriesController],
  providers: [
    { provide: WEBHOOK_SETTINGS, inject: [APP_CONFIG], useFactory: webhookSettings },
    // Shared by the fan-out and the worker: their writes of one turn go to the log together.
    { provide: AppendBatcher, inject: [EVENT_STORE], useFactory: (events: EventStore) => new AppendBatcher(events) },
    ...WEBHOOK_HANDLERS,
    ...DELIVERY_HANDLERS,
    DeliverySender,
    DeliveryWorker,
    WebhookDispatcher,
    WebhookDeliveries,
  ],
  exports: [WebhookDispatcher, DeliveryWorker],
})
export class WebhooksModule implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runner: ProjectionRunner,
    private readonly dispatcher: WebhookDispatcher,
    private readonly worker: DeliveryWorker,
  ) {}

  onModuleInit(): void {
    this.runner.register(publicEventProjection, webhookProjection, deliveryProjection);
  }

  onApplicationBootstrap(): void {
    if (!this.config.RUN_WORKERS) return;
    this.worker.start();
    this.dispatcher.start();
  }

  /** Before the stores close: the fan-out stops, in-flight attempts finish and are recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.dispatcher.stop();
    await this.worker.stop();
  }
}
