// The trading context's durable timers: offer expiry, hold expiry and trade auto-completion after
// the dispute window. Each is derived from the log (a source: which events schedule and cancel it)
// and fired by a handler whose command is idempotent — the deciders judge "still due at now"
// themselves, so a timer that fires late, twice, or from two workers has its effect once.
// Timers fire in batches: one transaction per chunk of subjects (the 10,000 holds of one instant
// are a few hundred appends, not 10,000).
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig, type DueTimer, EVENT_STORE, type EventStore, type RecordedEvent, streamEntityId, type TimerHandler, type TimerSource } from '@app/platform';
import { handleCommands } from '@app/platform/domain';

import { decideOnHold } from './hold/hold.handlers';
import { offerAggregate } from './offer/offer.aggregate';
import { offerStream } from './offer/offer.events';
import { decideOnTrade } from './trade/trade.handlers';
import { tradeStatusChanged } from './trade/trade.events';

const CHUNK = 100;

function timer(kind: string, prefix: string, event: RecordedEvent, dueAt: string): DueTimer {
  const subjectId = streamEntityId(event.streamId);
  return { timerId: `${prefix}:${subjectId}`, kind, dueAt, workspaceId: event.metadata.workspaceId, subjectId };
}

export const offerExpirySource: TimerSource = {
  name: 'offer-expiry',
  eventTypes: ['offer.created', 'offer.accepted', 'offer.rejected', 'offer.countered', 'offer.expired'],
  timersOf(event) {
    if (event.type === 'offer.created') return { schedule: [timer('offer.expiry', 'offer-expiry', event, (event.data as { expiresAt: string }).expiresAt)] };
    return { cancel: [`offer-expiry:${streamEntityId(event.streamId)}`] };
  },
};

export const holdExpirySource: TimerSource = {
  name: 'hold-expiry',
  eventTypes: ['hold.created', 'hold.converted', 'hold.released', 'hold.expired'],
  timersOf(event) {
    if (event.type === 'hold.created') return { schedule: [timer('hold.expiry', 'hold-expiry', event, (event.data as { expiresAt: string }).expiresAt)] };
    return { cancel: [`hold-expiry:${streamEntityId(event.streamId)}`] };
  },
};

export function tradeCompletionSource(disputeWindowMs: number): TimerSource {
  return {
    name: 'trade-completion',
    version: 1,
    eventTypes: ['trade.status_changed'],
    timersOf(event) {
      const d = tradeStatusChanged.parse(event.data);
      if (d.to === 'delivered') return { schedule: [timer('trade.completion', 'trade-completion', event, new Date(Date.parse(d.at) + disputeWindowMs).toISOString())] };
      if (d.from === 'delivered') return { cancel: [`trade-completion:${d.tradeId}`] };
      return {};
    },
  };
}

/** Fires `decide` for each timer's subject, a chunk of subjects per transaction (per workspace). */
async function inChunks(events: EventStore, timers: readonly DueTimer[], decide: (tx: Parameters<Parameters<typeof handleCommands>[2]>[0], t: DueTimer) => Promise<unknown>): Promise<void> {
  const byWorkspace = new Map<string, DueTimer[]>();
  for (const t of timers) byWorkspace.set(t.workspaceId, [...(byWorkspace.get(t.workspaceId) ?? []), t]);
  for (const [workspaceId, list] of byWorkspace) {
    for (let i = 0; i < list.length; i += CHUNK) {
      const chunk = list.slice(i, i + CHUNK);
      await handleCommands(events, { workspaceId, actor: 'timer' }, async (tx) => {
        for (const t of chunk) await decide(tx, t);
      });
    }
  }
}

@Injectable()
export class OfferExpiryHandler implements TimerHandler {
  readonly kind = 'offer.expiry';
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  fire(timers: readonly DueTimer[], now: Date): Promise<void> {
    return inChunks(this.events, timers, async (tx, t) => {
      tx.decide(await tx.load(offerStream(t.subjectId), offerAggregate), { type: 'ExpireOffer', offerId: t.subjectId, now });
    });
  }
}

@Injectable()
export class HoldExpiryHandler implements TimerHandler {
  readonly kind = 'hold.expiry';
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  fire(timers: readonly DueTimer[], now: Date): Promise<void> {
    return inChunks(this.events, timers, (tx, t) => decideOnHold(tx, t.workspaceId, t.subjectId, { type: 'ExpireHold', holdId: t.subjectId, now }, now));
  }
}

@Injectable()
export class TradeCompletionHandler implements TimerHandler {
  readonly kind = 'trade.completion';
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  fire(timers: readonly DueTimer[], now: Date): Promise<void> {
    const disputeWindowMs = this.config.TRADE_DISPUTE_WINDOW_SECONDS * 1000;
    return inChunks(this.events, timers, (tx, t) =>
      decideOnTrade(tx, t.workspaceId, t.subjectId, { type: 'CompleteAfterDisputeWindow', tradeId: t.subjectId, disputeWindowMs, now }, now),
    );
  }
}

export const TIMER_HANDLERS = [OfferExpiryHandler, HoldExpiryHandler, TradeCompletionHandler];
