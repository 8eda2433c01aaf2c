// The fan-out: a persistent subscription group over the public events of the log. For each event
// and each enabled webhook of its workspace that lists its type (and existed before it), a delivery
// is scheduled in the log — its own stream, created once — and only then is the event acked, so a
// crash never loses one and a redelivered event schedules nothing twice. Attempts run in the
// DeliveryWorker, so a slow endpoint never holds the subscription up.
//
// Events are fanned out many at a time: the schedules of all the events in hand go to the log
// together (AppendBatcher), so do their acks, and a workspace's webhooks are read once for all the
// events the read model had already reached when they were read.
import { Inject, Injectable, Logger } from '@nestjs/common';

import {
  AppendBatcher,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  type PersistentSubscription,
  type PersistentSubscriptionEvent,
  ProjectionRunner,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEventCatalogue,
  READ_STORE,
  type ReadStore,
  type RecordedEvent,
} from '@app/platform';
import { handleCommand } from '@app/platform/domain';

import { WEBHOOKS, type WebhookDoc, webhookProjection } from '../subscriptions/webhook.projection';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { deliveryAggregate } from './delivery.aggregate';
import { deliveryIdOf, deliveryStream } from './delivery.events';
import { DeliveryWorker } from './delivery-worker';

export const DISPATCHER_GROUP = 'webhook-dispatcher';
/** An event that keeps failing to fan out is parked after this many tries (see parkedEvents). */
const MAX_FAN_OUT_TRIES = 10;
/** Events fanned out at once (and held unacked by the subscription). */
const FAN_OUT_CONCURRENCY = 256;
/** Workspaces whose webhooks are kept in memory. */
const CACHED_WORKSPACES = 10_000;

/** A workspace's enabled webhooks, as the read model had them once it had applied the log to `asOf`. */
interface WorkspaceWebhooks {
  asOf: number;
  webhooks: WebhookDoc[];
}


@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger('webhooks');
  private subscription: PersistentSubscription | null = null;
  private loop: Promise<void> | null = null;
  private readonly webhooksByWorkspace = new Map<string, WorkspaceWebhooks>();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly appends: AppendBatcher,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly projections: ProjectionRunner,
    private readonly worker: DeliveryWorker,
  ) {}

  start(): void {
    if (this.subscription) return;
    this.subscription = this.events.persistentSubscription(DISPATCHER_GROUP, {
      filter: { types: this.catalogue.types() },
      startFrom: 'start',
      bufferSize: FAN_OUT_CONCURRENCY,
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
    const inFlight = new Set<Promise<void>>();
    try {
      for await (const item of subscription) {
        const task: Promise<void> = this.handle(item).finally(() => inFlight.delete(task));
        inFlight.add(task);
        if (inFlight.size >= FAN_OUT_CONCURRENCY) await Promise.race(inFlight);
      }
    } catch (error) {
      // The store closing under a stopping app ends the loop; anything else is worth a line.
      if (this.subscription) this.logger.error('the webhook subscription stopped', error instanceof Error ? error.stack : error);
    }
    await Promise.all(inFlight);
  }

  private async handle(item: PersistentSubscriptionEvent): Promise<void> {
    try {
      await this.fanOut(item.event);
      await item.ack();
    } catch (error) {
      if (!this.subscription) return;
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(`fan-out of event ${item.event.id} failed (try ${item.retryCount + 1})`, error instanceof Error ? error.stack : error);
      await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** item.retryCount)));
      if (!this.subscription) return;
      await item.nack(item.retryCount + 1 >= MAX_FAN_OUT_TRIES ? 'park' : 'retry', reason).catch(() => undefined);
    }
  }

  /** Schedules the deliveries of one event (none when it is not public or nobody listens). */
  async fanOut(event: RecordedEvent): Promise<number> {
    if (this.catalogue.data(event) === null) return 0;
    const workspaceId = event.metadata.workspaceId;
    const webhooks = await this.webhooksAt(workspaceId, event.position);
    const targets = webhooks.filter((w) => w.createdPosition < event.position && w.events.includes(event.type));
    if (targets.length === 0) return 0;
    const now = this.clock.now();
    const ref = { eventId: event.id, eventType: event.type, eventPosition: event.position, eventCreatedAt: event.createdAt };
    // Each delivery stream is created once (through the batcher, the schedules of a turn are one
    // append); a redelivered event finds its delivery there already, and the decider adds nothing.
    await Promise.all(
      targets.map((webhook) => {
        const deliveryId = deliveryIdOf(webhook.id, event.id);
        return handleCommand(
          this.appends,
          deliveryStream(deliveryId),
          deliveryAggregate,
          { type: 'ScheduleDelivery', ref: { ...ref, deliveryId, webhookId: webhook.id }, reason: 'event', firstDelayMs: this.settings.schedule[0], now },
          { workspaceId, actor: 'system', causationId: event.id },
          { newStream: true },
        );
      }),
    );
    const dueAt = now.getTime() + this.settings.schedule[0];
    for (const webhook of targets) this.worker.submit({ deliveryId: deliveryIdOf(webhook.id, event.id), webhookId: webhook.id, workspaceId }, dueAt);
    return targets.length;
  }

  /**
   * The workspace's enabled webhooks, read once the read model has reached `position` (webhooks
   * created before the event must be visible), and reused for every later event up to the position
   * the read model had when they were read.
   */
  private async webhooksAt(workspaceId: string, position: number): Promise<WebhookDoc[]> {
    const cached = this.webhooksByWorkspace.get(workspaceId);
    if (cached && cached.asOf >= position) return cached.webhooks;
    if (!(await this.projections.waitFor(position, 30_000))) throw new Error('projections are behind; will retry');
    const asOf = await this.projections.appliedPosition(webhookProjection.name);
    const { items } = await this.reads
      .collection<WebhookDoc>(WEBHOOKS)
      .find({ workspaceId, status: 'enabled' }, { limit: this.settings.maxPerWorkspace });
    const latest = this.webhooksByWorkspace.get(workspaceId);
    if (!latest || latest.asOf < asOf) {
      this.webhooksByWorkspace.delete(workspaceId);
      this.webhooksByWorkspace.set(workspaceId, { asOf, webhooks: items });
      if (this.webhooksByWorkspace.size > CACHED_WORKSPACES) {
        this.webhooksByWorkspace.delete(this.webhooksByWorkspace.keys().next().value as string);
      }
    }
    return items;
  }
}
