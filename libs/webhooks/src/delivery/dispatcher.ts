// The fan-out: a persistent subscription group over the public events of the log. For each public
// event (a stored event is one, or several: see the catalogue's fan-out) and each enabled webhook of
// its workspace that lists its type (and existed before it), a delivery is scheduled in the log —
// its own stream, created once, named by the webhook and the public event's id — and only then is
// the stored event acked, so a crash never loses one and a redelivered event schedules nothing twice. Attempts run in the
// DeliveryWorker, so a slow endpoint never holds the subscription up.
//
// Events are fanned out many at a time: the schedules of all the events in hand go to the log
// together (AppendBatcher), so do their acks, and a workspace's webhooks are read once for all the
// events the read model had already reached when they were read.
//
// Most events have nobody listening (a workspace without webhooks). Those the dispatcher can tell
// on the spot are skipped by the subscription (`skip`): never handed out, nothing written for
// them. To tell them, it knows the webhooks of every workspace as the read model had them at some
// position (a snapshot taken when it starts, then each workspace's list as read for the events it
// handles), and it watches the webhook events in the log as the subscription scans it: a
// workspace's list at position A is its list at P > A when the log holds none of its webhook events
// between A and P — known only when every webhook event before P was seen (the scans are contiguous).
// Anything else is handed out and handled as before.
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

import { WEBHOOK_EVENT_TYPES } from '../subscriptions/webhook.events';
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
/** The snapshot of every workspace's webhooks is taken only while there are at most this many. */
const SNAPSHOT_LIMIT = 10_000;
/** After a gap in what the dispatcher saw of the log, the snapshot is taken again at most this often. */
const SNAPSHOT_EVERY_MS = 1_000;
const WEBHOOK_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

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
  /** Stored types standing for public events with data: the only ones delivered. */
  private readonly delivered: ReadonlySet<string>;
  /**
   * Every webhook event at or below `knownTo` is either in the snapshot (at or below its `asOf`) or
   * counted in `lastChange` (-1: nothing known). Workspaces outside the snapshot had no webhook.
   */
  private knownTo = -1;
  private snapshot: { asOf: number; workspaces: ReadonlySet<string> } | null = null;
  /** Per workspace, the position of its latest webhook event seen in a scan. */
  private readonly lastChange = new Map<string, number>();
  private snapshotting: Promise<void> | null = null;
  private lastSnapshotAt = 0;
  private stopped = true;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly appends: AppendBatcher,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly projections: ProjectionRunner,
    private readonly worker: DeliveryWorker,
  ) {
    this.delivered = new Set(catalogue.deliveredStoredTypes());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.close();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    // The snapshot first, so the subscription's first scan can already skip.
    await this.takeSnapshot();
    if (this.stopped) return;
    this.subscription = this.events.persistentSubscription(DISPATCHER_GROUP, {
      // The webhook events too: the dispatcher learns from them where webhooks changed (and skips them).
      filter: { types: [...this.catalogue.storedTypes(), ...WEBHOOK_EVENT_TYPES] },
      startFrom: 'start',
      bufferSize: FAN_OUT_CONCURRENCY,
      skip: (events, scanned) => this.skip(events, scanned),
    });
    await this.follow(this.subscription);
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

  /**
   * The subscription's `skip`: true for the events `fanOut` would schedule nothing for, as far as
   * the dispatcher can tell now (false when it cannot). It first notes the webhook events shown.
   */
  private skip(events: readonly RecordedEvent[], scanned: { after: number; upTo: number }): boolean[] {
    for (const event of events) {
      if (!WEBHOOK_TYPES.has(event.type)) continue;
      const workspaceId = event.metadata.workspaceId;
      this.lastChange.set(workspaceId, Math.max(event.position, this.lastChange.get(workspaceId) ?? -1));
      const named = (event.data as { workspaceId?: unknown } | null)?.workspaceId;
      if (typeof named === 'string' && named !== workspaceId) this.lastChange.set(named, Math.max(event.position, this.lastChange.get(named) ?? -1));
    }
    // Every event of the filter in (after, upTo] was just shown: when that joins what is known, so
    // is every webhook event up to upTo.
    if (this.knownTo >= 0 && scanned.after <= this.knownTo && scanned.upTo > this.knownTo) this.knownTo = scanned.upTo;
    else if (Number.isFinite(scanned.after) && scanned.after > this.knownTo) this.retakeSnapshot();
    return events.map((event) => this.nobodyListens(event));
  }

  private nobodyListens(event: RecordedEvent): boolean {
    if (!this.delivered.has(event.type)) return true;
    const workspaceId = event.metadata.workspaceId;
    let known = this.webhooksByWorkspace.get(workspaceId);
    if (!known && this.snapshot && !this.snapshot.workspaces.has(workspaceId)) known = { asOf: this.snapshot.asOf, webhooks: [] };
    if (!known) return false;
    // As fanOut reads it (a list the read model had at or after the event), or still the list at
    // the event: no webhook event of the workspace since it was read, and all of those before the event seen.
    const current = known.asOf >= event.position || (this.knownTo >= event.position - 1 && known.asOf >= (this.lastChange.get(workspaceId) ?? -1));
    if (!current) return false;
    const types = this.catalogue.publicTypesOf(event.type);
    return !known.webhooks.some((w) => w.createdPosition < event.position && types.some((t) => w.events.includes(t)));
  }

  /** After a gap in what the scans showed, the snapshot again (not more than once a second). */
  private retakeSnapshot(): void {
    if (this.snapshotting || this.stopped || Date.now() - this.lastSnapshotAt < SNAPSHOT_EVERY_MS) return;
    void this.takeSnapshot();
  }

  /**
   * Every workspace's enabled webhooks as the read model has them at `asOf` (its position for the
   * webhooks): every webhook event up to there is then known. Not taken when there are too many.
   */
  private takeSnapshot(): Promise<void> {
    this.snapshotting ??= (async () => {
      try {
        this.lastSnapshotAt = Date.now();
        const asOf = await this.projections.appliedPosition(webhookProjection.name);
        const { items } = await this.reads.collection<WebhookDoc>(WEBHOOKS).find({ status: 'enabled' }, { limit: SNAPSHOT_LIMIT + 1 });
        if (items.length > SNAPSHOT_LIMIT) return;
        const byWorkspace = new Map<string, WebhookDoc[]>();
        for (const webhook of items) byWorkspace.set(webhook.workspaceId, [...(byWorkspace.get(webhook.workspaceId) ?? []), webhook]);
        // Lists read before asOf may miss a change the scans did not show: the snapshot's replace them.
        for (const [workspaceId, known] of this.webhooksByWorkspace) {
          if (known.asOf < asOf) this.webhooksByWorkspace.set(workspaceId, { asOf, webhooks: byWorkspace.get(workspaceId) ?? [] });
        }
        this.snapshot = { asOf, workspaces: new Set(byWorkspace.keys()) };
        this.knownTo = Math.max(this.knownTo, asOf);
      } catch (error) {
        if (!this.stopped) this.logger.warn(`webhook snapshot failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.snapshotting = null;
      }
    })();
    return this.snapshotting;
  }

  /** Schedules the deliveries of one stored event's public events (none when it is not public or nobody listens). */
  async fanOut(event: RecordedEvent): Promise<number> {
    const published = this.catalogue.publicEvents(event);
    if (published.length === 0) return 0;
    const workspaceId = event.metadata.workspaceId;
    const webhooks = await this.webhooksAt(workspaceId, event.position);
    const older = webhooks.filter((w) => w.createdPosition < event.position);
    const jobs = published.flatMap((p) => older.filter((w) => w.events.includes(p.type)).map((webhook) => ({ p, webhook, deliveryId: deliveryIdOf(webhook.id, p.eventId) })));
    if (jobs.length === 0) return 0;
    const now = this.clock.now();
    // Each delivery stream is created once (through the batcher, the schedules of a turn are one
    // append); a redelivered event finds its delivery there already, and the decider adds nothing.
    await Promise.all(
      jobs.map(({ p, webhook, deliveryId }) => {
        const ref = { deliveryId, webhookId: webhook.id, eventId: p.eventId, eventType: p.type, eventPosition: event.position, eventCreatedAt: event.createdAt };
        return handleCommand(
          this.appends,
          deliveryStream(deliveryId),
          deliveryAggregate,
          { type: 'ScheduleDelivery', ref, reason: 'event', firstDelayMs: this.settings.schedule[0], now },
          { workspaceId, actor: 'system', causationId: event.id },
          { newStream: true },
        );
      }),
    );
    const dueAt = now.getTime() + this.settings.schedule[0];
    for (const { webhook, deliveryId } of jobs) this.worker.submit({ deliveryId, webhookId: webhook.id, workspaceId }, dueAt);
    return jobs.length;
  }

  /**
   * The workspace's enabled webhooks, read once the read model has reached `position` (webhooks
   * created before the event must be visible), and reused for every later event up to the position
   * the read model had when they were read.
   */
  private async webhooksAt(workspaceId: string, position: number): Promise<WebhookDoc[]> {
    const cached = this.webhooksByWorkspace.get(workspaceId);
    if (cached && cached.asOf >= position) return cached.webhooks;
    // The webhooks read model alone is what the fan-out reads: no other projection is waited for.
    if (!(await this.projections.waitFor(position, 30_000, [webhookProjection.name]))) throw new Error('the webhooks read model is behind; will retry');
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
