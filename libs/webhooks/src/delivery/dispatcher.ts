// The fan-out: a persistent subscription group over the public events of the log. For each event
// and each enabled webhook of its workspace that lists its type (and existed before it), a delivery
// is scheduled in the log — its own stream, created once — and only then is the event acked, so a
// crash never loses one and a redelivered event schedules nothing twice. Attempts run in the
// DeliveryWorker, so a slow endpoint never holds the subscription up.
import { Inject, Injectable, Logger } from '@nestjs/common';

import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  type PersistentSubscription,
  ProjectionRunner,
  READ_STORE,
  type ReadStore,
  type RecordedEvent,
  type StreamWrite,
  uuidv7,
  WrongExpectedRevisionError,
} from '@app/platform';

import { EVENT_CATALOGUE } from '../events/event-catalogue';
import { publicData } from '../events/public-event';
import { WEBHOOKS, type WebhookDoc } from '../subscriptions/webhook.projection';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { deliveryDecider } from './delivery.decider';
import { deliveryIdOf, deliveryStream } from './delivery.events';
import { DeliveryWorker } from './delivery-worker';

export const DISPATCHER_GROUP = 'webhook-dispatcher';
/** An event that keeps failing to fan out is parked after this many tries (see parkedEvents). */
const MAX_FAN_OUT_TRIES = 10;

@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger('webhooks');
  private subscription: PersistentSubscription | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    private readonly projections: ProjectionRunner,
    private readonly worker: DeliveryWorker,
  ) {}

  start(): void {
    if (this.subscription) return;
    this.subscription = this.events.persistentSubscription(DISPATCHER_GROUP, {
      filter: { types: EVENT_CATALOGUE.map((e) => e.type) },
      startFrom: 'start',
      bufferSize: 256,
    });
    this.loop = this.follow(this.subscription);
  }

  async stop(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.close();
    await this.loop;
    this.loop = null;
  }

  private async follow(subscription: PersistentSubscription): Promise<void> {
    try {
      for await (const item of subscription) {
        try {
          await this.fanOut(item.event);
          await item.ack();
        } catch (error) {
          if (!this.subscription) return;
          const reason = error instanceof Error ? error.message : String(error);
          this.logger.error(`fan-out of event ${item.event.id} failed (try ${item.retryCount + 1})`, error instanceof Error ? error.stack : error);
          await item.nack(item.retryCount + 1 >= MAX_FAN_OUT_TRIES ? 'park' : 'retry', reason);
          await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** item.retryCount)));
        }
      }
    } catch (error) {
      // The store closing under a stopping app ends the loop; anything else is worth a line.
      if (this.subscription) this.logger.error('the webhook subscription stopped', error instanceof Error ? error.stack : error);
    }
  }

  /** Schedules the deliveries of one event (none when it is not public or nobody listens). */
  async fanOut(event: RecordedEvent): Promise<number> {
    if (publicData(event) === null) return 0;
    // Webhooks created before the event must be visible: the read model must have reached it.
    if (!(await this.projections.waitFor(event.position, 30_000))) throw new Error('projections are behind; will retry');
    const workspaceId = event.metadata.workspaceId;
    const { items } = await this.reads
      .collection<WebhookDoc>(WEBHOOKS)
      .find({ workspaceId, status: 'enabled' }, { limit: this.settings.maxPerWorkspace });
    const targets = items.filter((w) => w.createdPosition < event.position && w.events.includes(event.type));
    if (targets.length === 0) return 0;
    const now = this.clock.now();
    const writes: StreamWrite[] = targets.map((webhook) => {
      const deliveryId = deliveryIdOf(webhook.id, event.id);
      const [scheduled] = deliveryDecider.decide(
        {
          type: 'ScheduleDelivery',
          ref: {
            deliveryId,
            webhookId: webhook.id,
            eventId: event.id,
            eventType: event.type,
            eventPosition: event.position,
            eventCreatedAt: event.createdAt,
          },
          reason: 'event',
          firstDelayMs: this.settings.schedule[0],
          now,
        },
        deliveryDecider.initialState,
      );
      return {
        streamId: deliveryStream(deliveryId),
        expectedRevision: 'no_stream',
        events: [{ id: uuidv7(), type: scheduled.type, data: scheduled.data, metadata: { workspaceId, actor: 'system', causationId: event.id, schemaVersion: 1 } }],
      };
    });
    await this.appendAll(writes);
    const dueAt = now.getTime() + this.settings.schedule[0];
    for (const webhook of targets) this.worker.submit({ deliveryId: deliveryIdOf(webhook.id, event.id), webhookId: webhook.id, workspaceId }, dueAt);
    return targets.length;
  }

  /** One transaction; when a delivery already exists (a redelivered event), stream by stream. */
  private async appendAll(writes: StreamWrite[]): Promise<void> {
    try {
      await this.events.appendMany(writes);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      for (const write of writes) {
        try {
          await this.events.append(write.streamId, write.events, { expectedRevision: write.expectedRevision });
        } catch (inner) {
          if (!(inner instanceof WrongExpectedRevisionError)) throw inner;
        }
      }
    }
  }
}
