// Runs delivery attempts. The durable truth is each delivery's stream (scheduled, attempted, …):
// a job only says "look at this delivery"; the worker reads its stream, and attempts it when it is
// pending and due, recording the outcome with the stream's expected revision, so an attempt that
// completed is recorded once and never repeated, by this process or any other.
//
// Jobs come from the fan-out (new deliveries, at once), from timers armed for the next attempt,
// and from a poll of the read model for due attempts (after a restart, or made by another process).
// Concurrency is bounded in total and per webhook, and ready jobs are taken round-robin across
// webhooks, so a slow or failing endpoint only ever occupies its own share.
import { Inject, Injectable, Logger } from '@nestjs/common';

import { AppendBatcher, CLOCK, type Clock, EVENT_STORE, type EventStore, publicEventId, READ_STORE, type ReadStore } from '@app/platform';
import { fold, handleCommand } from '@app/platform/domain';

import { webhookAggregate } from '../subscriptions/webhook.aggregate';
import { webhookStream } from '../subscriptions/webhook.events';
import { WEBHOOKS, type WebhookDoc } from '../subscriptions/webhook.projection';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { deliveryAggregate } from './delivery.aggregate';
import { type DeliveryCommand, deliveryDecider, type DeliveryState, type SendOutcome } from './delivery.decider';
import { type DeliveryEvent, deliveryStream, parseDeliveryEvent } from './delivery.events';
import { type DeliveryDoc, WEBHOOK_DELIVERIES, WEBHOOK_HEALTH, type WebhookHealthDoc } from './delivery.projection';
import { DeliverySender } from './delivery-sender';

export interface DeliveryJob {
  deliveryId: string;
  webhookId: string;
  workspaceId: string;
}

/** Ready jobs held in memory per webhook; beyond it the durable poll picks them up later. */
const MAX_QUEUED_PER_WEBHOOK = 20_000;
/** Due deliveries read per poll, and at most this many pages scanned past ones already known. */
const POLL_PAGE = 500;
const POLL_MAX_PAGES = 20;

interface Lane {
  queue: DeliveryJob[];
  active: number;
}

@Injectable()
export class DeliveryWorker {
  private readonly logger = new Logger('webhooks');
  /** Every delivery this worker is holding: queued, in flight, or waiting on a timer. */
  private readonly known = new Map<string, 'queued' | 'active' | NodeJS.Timeout>();
  private readonly lanes = new Map<string, Lane>();
  /** Round-robin order of webhooks with queued jobs. */
  private readonly ready: string[] = [];
  private active = 0;
  private running = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private readonly failingSince = new Map<string, number>();
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly appends: AppendBatcher,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    private readonly sender: DeliverySender,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedulePoll(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    await this.polling;
    for (const state of this.known.values()) if (typeof state === 'object') clearTimeout(state);
    // In-flight attempts finish and are recorded; queued ones stay pending in the log.
    await Promise.all([...this.inflight]);
    this.known.clear();
    this.lanes.clear();
    this.ready.length = 0;
  }

  /** A delivery that may be due now (or at `dueAt`). Ignored when this worker already holds it. */
  submit(job: DeliveryJob, dueAt?: number): void {
    if (!this.running || this.known.has(job.deliveryId)) return;
    const wait = dueAt === undefined ? 0 : dueAt - this.clock.now().getTime();
    if (wait > 0) {
      this.arm(job, wait);
      return;
    }
    this.enqueue(job);
  }

  /** Resolves when nothing is queued or in flight (tests and benches). */
  whenIdle(): Promise<void> {
    if (this.active === 0 && this.ready.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private arm(job: DeliveryJob, waitMs: number): void {
    // Timers beyond ~24.8 days overflow; the poll covers anything that far out.
    const timer = setTimeout(() => {
      if (this.known.get(job.deliveryId) !== timer) return;
      this.known.delete(job.deliveryId);
      this.enqueue(job);
    }, Math.min(waitMs, 2 ** 31 - 1));
    timer.unref();
    this.known.set(job.deliveryId, timer);
  }

  private enqueue(job: DeliveryJob): void {
    let lane = this.lanes.get(job.webhookId);
    if (!lane) {
      lane = { queue: [], active: 0 };
      this.lanes.set(job.webhookId, lane);
    }
    if (lane.queue.length >= MAX_QUEUED_PER_WEBHOOK) return;
    if (lane.queue.length === 0) this.ready.push(job.webhookId);
    lane.queue.push(job);
    this.known.set(job.deliveryId, 'queued');
    this.pump();
  }

  /** Starts queued jobs while there is capacity, one webhook after another. */
  private pump(): void {
    let skipped = 0;
    while (this.running && this.active < this.settings.concurrency && this.ready.length > skipped) {
      const webhookId = this.ready.shift() as string;
      const lane = this.lanes.get(webhookId);
      if (!lane || lane.queue.length === 0) continue;
      if (lane.active >= this.settings.concurrencyPerEndpoint) {
        // This endpoint is at its share: look at the others, keep its place for later.
        this.ready.push(webhookId);
        skipped += 1;
        continue;
      }
      skipped = 0;
      const job = lane.queue.shift() as DeliveryJob;
      if (lane.queue.length > 0) this.ready.push(webhookId);
      lane.active += 1;
      this.active += 1;
      this.known.set(job.deliveryId, 'active');
      const run = this.run(job)
        .catch((error: unknown) => this.logger.error(`delivery ${job.deliveryId} failed to run`, error instanceof Error ? error.stack : error))
        .finally(() => {
          this.inflight.delete(run);
          lane.active -= 1;
          this.active -= 1;
          if (this.known.get(job.deliveryId) === 'active') this.known.delete(job.deliveryId);
          if (lane.active === 0 && lane.queue.length === 0) this.lanes.delete(webhookId);
          this.pump();
          if (this.active === 0 && this.ready.length === 0) for (const wake of this.idleWaiters.splice(0)) wake();
        });
      this.inflight.add(run);
    }
  }

  /** One look at a delivery: attempt it if pending and due, cancel it if its webhook is gone or off. */
  private async run(job: DeliveryJob): Promise<void> {
    const stream = deliveryStream(job.deliveryId);
    const recorded = await this.events.readStream(stream);
    const state = fold(deliveryDecider, recorded.map(parseDeliveryEvent));
    if (state.status !== 'pending') return;
    const now = this.clock.now();
    const due = state.nextAttemptAt ? Date.parse(state.nextAttemptAt) : now.getTime();
    if (due > now.getTime()) {
      this.known.delete(job.deliveryId);
      this.arm(job, due - now.getTime());
      return;
    }
    const revision = recorded[recorded.length - 1].revision;
    const webhook = await this.reads.collection<WebhookDoc>(WEBHOOKS).get(state.webhookId);
    if (!webhook || webhook.status === 'disabled') {
      const reason = webhook ? 'webhook_disabled' : 'webhook_deleted';
      await this.record(job, stream, revision, state, { type: 'CancelDelivery', reason, url: webhook?.url ?? '', now });
      return;
    }
    const body = await this.sender.body(state.eventPosition, state.eventId);
    if (body === null) {
      // The event is not public (or gone from the log): nothing can ever be sent.
      const outcome: SendOutcome = { statusCode: null, durationMs: 0, error: 'the event is not deliverable', responseBody: '', retryAfterMs: null, ok: false };
      // An empty schedule: this attempt is the last one.
      await this.record(job, stream, revision, state, { type: 'RecordAttempt', attempt: state.attempt + 1, url: webhook.url, outcome, schedule: [], now });
      return;
    }
    const attempt = state.attempt + 1;
    const result = await this.sender.send({ webhookId: webhook.id, url: webhook.url, secrets: webhook.secrets }, publicEventId(state.eventId), body, now);
    const outcome: SendOutcome = {
      statusCode: result.status,
      durationMs: result.durationMs,
      error: result.error,
      responseBody: result.responseBody,
      retryAfterMs: result.retryAfterMs,
      ok: result.ok,
    };
    const at = this.clock.now();
    const appended = await this.record(job, stream, revision, state, {
      type: 'RecordAttempt',
      attempt,
      url: webhook.url,
      outcome,
      schedule: this.settings.schedule,
      now: at,
    });
    await this.afterAttempt(webhook, outcome, appended, at);
  }

  /**
   * Records what the decider makes of `command`, decided on the state this look read (through the
   * batcher: the records of a turn are one append). A lost race means another process recorded
   * first: decided again on the new state, a stale command records nothing.
   */
  private async record(job: DeliveryJob, stream: string, revision: number, state: DeliveryState, command: DeliveryCommand): Promise<DeliveryEvent['type'] | null> {
    const { events } = await handleCommand(this.appends, stream, deliveryAggregate, command, { workspaceId: job.workspaceId, actor: 'system' }, {
      known: { state, revision },
    });
    const [event] = events;
    if (!event) return null;
    if (event.type === 'webhook.delivery_attempted') {
      this.known.delete(job.deliveryId);
      this.arm(job, Math.max(0, Date.parse(event.data.nextAttemptAt) - this.clock.now().getTime()));
    }
    return event.type;
  }

  /** 410 disables the endpoint at once; so does failing every attempt for `disableAfterMs`. */
  private async afterAttempt(webhook: WebhookDoc, outcome: SendOutcome, recorded: string | null, at: Date): Promise<void> {
    if (recorded === null) return;
    if (outcome.ok) {
      this.failingSince.delete(webhook.id);
      return;
    }
    if (outcome.statusCode === 410) {
      await this.disable(webhook, 'gone', 'the endpoint answered 410 Gone');
      return;
    }
    let since = this.failingSince.get(webhook.id);
    if (since === undefined) {
      const health = await this.reads.collection<WebhookHealthDoc>(WEBHOOK_HEALTH).get(webhook.id);
      since = health?.failingSince ? Date.parse(health.failingSince) : at.getTime();
      this.failingSince.set(webhook.id, since);
    }
    if (at.getTime() - since >= this.settings.disableAfterMs) {
      const hours = Math.round(this.settings.disableAfterMs / 360_000) / 10;
      await this.disable(webhook, 'failing', `every delivery attempt failed for ${hours} h (since ${new Date(since).toISOString()})`);
    }
  }

  private async disable(webhook: WebhookDoc, reason: 'gone' | 'failing', detail: string): Promise<void> {
    this.failingSince.delete(webhook.id);
    try {
      await handleCommand(
        this.events,
        webhookStream(webhook.id),
        webhookAggregate,
        { type: 'DisableWebhook', webhookId: webhook.id, workspaceId: webhook.workspaceId, reason, detail, now: this.clock.now() },
        { workspaceId: webhook.workspaceId, actor: 'system' },
      );
      this.logger.warn(`webhook ${webhook.id} disabled: ${detail}`);
    } catch (error) {
      this.logger.error(`could not disable webhook ${webhook.id}`, error instanceof Error ? error.stack : error);
    }
  }

  private schedulePoll(delayMs: number): void {
    if (!this.running) return;
    this.pollTimer = setTimeout(() => {
      this.polling = this.poll()
        .catch((error: unknown) => this.logger.error('polling due deliveries failed', error instanceof Error ? error.stack : error))
        .finally(() => {
          this.polling = null;
          this.schedulePoll(this.settings.pollMs);
        });
    }, delayMs);
    this.pollTimer.unref();
  }

  /** Hands every due pending delivery this worker does not hold yet to the queue. */
  private async poll(): Promise<void> {
    const deliveries = this.reads.collection<DeliveryDoc>(WEBHOOK_DELIVERIES);
    const now = this.clock.now().toISOString();
    let after: string | undefined;
    for (let page = 0; page < POLL_MAX_PAGES && this.running; page += 1) {
      const found = await deliveries.find(
        { status: 'pending', nextAttemptAt: { $lte: now } },
        { sort: [['nextAttemptAt', 1]], limit: POLL_PAGE, after },
      );
      for (const doc of found.items) this.submit({ deliveryId: doc.id, webhookId: doc.webhookId, workspaceId: doc.workspaceId });
      if (!found.nextCursor) return;
      after = found.nextCursor;
    }
  }
}
