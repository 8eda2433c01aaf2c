// The webhooks context: the public events (listed from the log), subscriptions, and the dispatcher
// (fan-out on a persistent subscription + delivery worker), which runs where the workers run. It
// knows no other context: the composition root hands it the catalogue of every context's public
// events (WebhooksModule.forRoot).
import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import {
  APP_CONFIG,
  AppendBatcher,
  type AppConfig,
  EVENT_STORE,
  type EventStore,
  ProjectionRunner,
  PUBLIC_EVENT_CATALOGUE,
  PublicEventCatalogue,
  type PublicEventType,
  workerDuties,
} from '@app/platform';

import { DELIVERY_COMMAND_HANDLERS } from './delivery/delivery.handlers';
import { WebhookDeliveriesController } from './delivery/delivery.http';
import { deliveryProjection } from './delivery/delivery.projection';
import { DELIVERY_QUERY_HANDLERS } from './delivery/delivery.queries';
import { WebhookDeliveries } from './delivery/delivery.service';
import { DeliverySender } from './delivery/delivery-sender';
import { DeliveryWorker } from './delivery/delivery-worker';
import { WebhookDispatcher } from './delivery/dispatcher';
import { EventsController } from './events/events.http';
import { EVENT_QUERY_HANDLERS } from './events/events.queries';
import { publicEventProjection } from './events/public-event.projection';
import { WEBHOOK_COMMAND_HANDLERS } from './subscriptions/webhook.handlers';
import { WebhooksController } from './subscriptions/webhook.http';
import { webhookProjection } from './subscriptions/webhook.projection';
import { WEBHOOK_QUERY_HANDLERS } from './subscriptions/webhook.queries';
import { WEBHOOK_SETTINGS, webhookSettings } from './webhook-settings';

export interface WebhooksOptions {
  /** Every context's public events, as the composition root puts them together. */
  publicEvents: readonly PublicEventType[];
}

@Module({})
export class WebhooksModule implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  static forRoot(options: WebhooksOptions): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [CqrsModule],
      controllers: [EventsController, WebhooksController, WebhookDeliveriesController],
      providers: [
        { provide: PUBLIC_EVENT_CATALOGUE, useValue: new PublicEventCatalogue(options.publicEvents) },
        { provide: WEBHOOK_SETTINGS, inject: [APP_CONFIG], useFactory: webhookSettings },
        // Shared by the fan-out and the worker: their writes of one turn go to the log together.
        { provide: AppendBatcher, inject: [EVENT_STORE], useFactory: (events: EventStore) => new AppendBatcher(events) },
        ...WEBHOOK_COMMAND_HANDLERS,
        ...WEBHOOK_QUERY_HANDLERS,
        ...DELIVERY_COMMAND_HANDLERS,
        ...DELIVERY_QUERY_HANDLERS,
        ...EVENT_QUERY_HANDLERS,
        DeliverySender,
        DeliveryWorker,
        WebhookDispatcher,
        WebhookDeliveries,
      ],
      exports: [WebhookDispatcher, DeliveryWorker, PUBLIC_EVENT_CATALOGUE],
    };
  }

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly runner: ProjectionRunner,
    private readonly dispatcher: WebhookDispatcher,
    private readonly worker: DeliveryWorker,
  ) {}

  onModuleInit(): void {
    this.runner.register(publicEventProjection(this.catalogue), webhookProjection, deliveryProjection);
  }

  onApplicationBootstrap(): void {
    // Where the background work runs (the worker process with WORKER_MODE=process|background).
    if (!workerDuties(this.config).background) return;
    this.worker.start();
    this.dispatcher.start();
  }

  /** Before the stores close: the fan-out stops, in-flight attempts finish and are recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.dispatcher.stop();
    await this.worker.stop();
  }
}
