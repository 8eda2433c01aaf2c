// Sends a buyer's due notice: the durable timer `buyer.notice` (one per buyer, derived from the
// log by buyerNoticeTimers) fires it. On the buyer's stream, through the write path:
//
// 1. decide on the state as loaded: a claim left past its lease is closed as interrupted (never
//    sent again); a notice not due, or under way elsewhere, decides nothing. Otherwise the email is
//    prepared — the buyer's contact opened (erased: suppressed), the requests and items read through
//    demand's and supply's readers (none left in stock: suppressed), the seller's settings (off:
//    suppressed) — and the send is claimed (`buyer.notice_attempted`, with the expected revision:
//    two workers never both claim);
// 2. send (SMTP or the outbox), then record the outcome: `buyer.notified`, or `buyer.notice_failed`
//    with the retry's time (doubling backoff, BUYER_EMAIL_RETRY, up to BUYER_EMAIL_MAX_ATTEMPTS)
//    or given up (a permanent refusal, or the last attempt). The retry is the same durable timer,
//    rescheduled by the failure's `dueAt`: it survives a restart.
//
// The address lives only in memory for the send; logs name the notice and buyer ids alone.
import { Inject, Injectable, Logger } from '@nestjs/common';

import { WorkspaceDirectory } from '@app/access';
import { BUYER_CONTACT_READER, BUYER_REQUEST_READER, type BuyerContactReader, type BuyerRequestReader } from '@app/demand';
import { CLOCK, type Clock, type DueTimer, EVENT_STORE, type EventStore, type TimerHandler } from '@app/platform';
import { handleCommand } from '@app/platform/domain';
import { INVENTORY_READER, type InventoryReader } from '@app/supply';
import { NOTIFICATION_SETTINGS_READER, type NotificationSettingsReader } from '@app/widget';

import { BuyerEmailSettings } from '../buyer-email.config';
import { headerText, type InStockLine, renderInStockEmail } from '../email/in-stock-email';
import { describeSendError, type OutgoingEmail } from '../email/mailer';
import { buyerNoticeAggregate } from './buyer-notice.aggregate';
import { type BuyerNoticeCommand, type BuyerNoticeState, claimable, interrupted, type OpenNotice } from './buyer-notice.decider';
import { buyerNoticeStream, type SuppressionReason } from './buyer-notice.events';

export const BUYER_NOTICE_TIMER = 'buyer.notice';
const ACTOR = 'notifications';

/** An email ready to go, or why the notice is not sent. */
type Prepared = { kind: 'send'; email: Omit<OutgoingEmail, 'notificationId'> } | { kind: 'suppress'; reason: SuppressionReason };

@Injectable()
export class BuyerNoticeSender implements TimerHandler {
  readonly kind = BUYER_NOTICE_TIMER;
  private readonly logger = new Logger('buyer-notices');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BUYER_CONTACT_READER) private readonly contacts: BuyerContactReader,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    @Inject(INVENTORY_READER) private readonly inventory: InventoryReader,
    @Inject(NOTIFICATION_SETTINGS_READER) private readonly settings: NotificationSettingsReader,
    private readonly workspaces: WorkspaceDirectory,
    private readonly config: BuyerEmailSettings,
  ) {}

  async fire(timers: readonly DueTimer[]): Promise<void> {
    for (const timer of timers) {
      try {
        await this.sendDue(timer.workspaceId, timer.subjectId);
      } catch (error) {
        // The timer stays pending and fires again later; never the error's text (it may quote an address).
        this.logger.error(`buyer notice for ${timer.subjectId} could not be handled (${error instanceof Error ? error.name : 'error'}); it is tried again later`);
      }
    }
  }

  /** Acts on the buyer's first open notice if it is due: claim and send, suppress, or close an interrupted claim. */
  async sendDue(workspaceId: string, buyerId: string): Promise<void> {
    const policy = this.config.policy;
    const metadata = { workspaceId, actor: ACTOR };
    let prepared: Prepared | null = null;
    const decided = await handleCommand(
      this.events,
      buyerNoticeStream(buyerId),
      buyerNoticeAggregate,
      async (state: BuyerNoticeState): Promise<BuyerNoticeCommand | null> => {
        const now = this.clock.now();
        const stuck = interrupted(state, policy, now);
        if (stuck) return { type: 'CloseInterrupted', notificationId: stuck.notificationId, policy, now };
        const notice = claimable(state, policy, now);
        if (!notice) return null;
        prepared = state.unsubscribedAt ? { kind: 'suppress', reason: 'unsubscribed' } : await this.prepare(workspaceId, buyerId, notice);
        if (prepared.kind === 'suppress') return { type: 'SuppressNotice', notificationId: notice.notificationId, reason: prepared.reason, policy, now };
        return { type: 'ClaimSend', notificationId: notice.notificationId, policy, now };
      },
      metadata,
    );
    const claim = decided.events.find((e) => e.type === 'buyer.notice_attempted');
    if (!claim || claim.type !== 'buyer.notice_attempted') {
      for (const e of decided.events) {
        if (e.type === 'buyer.notice_suppressed') this.logger.log(`buyer notice ${e.data.notificationId} for ${buyerId} suppressed (${e.data.reason})`);
        if (e.type === 'buyer.notice_failed') this.logger.warn(`buyer notice ${e.data.notificationId} for ${buyerId} failed: ${e.data.error.code}`);
      }
      return;
    }
    const ready = prepared as Prepared | null;
    if (!ready || ready.kind !== 'send') return;
    const { notificationId, attempt } = claim.data;
    // One Message-ID per notice, the same on every attempt: a receiver may recognise a repeat.
    const email: OutgoingEmail = { ...ready.email, notificationId, messageId: ready.email.messageId.replace('{id}', notificationId) };
    let outcome: BuyerNoticeCommand;
    try {
      await this.config.mailer.send(email);
      outcome = { type: 'RecordSent', notificationId, attempt, transport: this.config.mailer.transport, messageId: email.messageId, policy, now: this.clock.now() };
      this.logger.log(`buyer notice ${notificationId} for ${buyerId} sent (${this.config.mailer.transport}, attempt ${attempt})`);
    } catch (error) {
      const { error: described, permanent } = describeSendError(error);
      const now = this.clock.now();
      const giveUp = permanent || attempt >= this.config.maxAttempts;
      const retryAt = giveUp ? null : new Date(now.getTime() + this.config.retryDelay(attempt));
      outcome = { type: 'RecordFailure', notificationId, attempt, error: described, retryAt, policy, now };
      this.logger.warn(`buyer notice ${notificationId} for ${buyerId} failed (attempt ${attempt}, ${described.code}${described.responseCode ? ` ${described.responseCode}` : ''}); ${retryAt ? `retried at ${retryAt.toISOString()}` : 'given up'}`);
    }
    await handleCommand(this.events, buyerNoticeStream(buyerId), buyerNoticeAggregate, outcome, metadata);
  }

  private async prepare(workspaceId: string, buyerId: string, notice: OpenNotice): Promise<Prepared> {
    const settings = (await this.settings.notificationSettings(workspaceId)).settings;
    if (!settings.enabled) return { kind: 'suppress', reason: 'disabled' };
    const requestIds = [...new Set(notice.matches.map((m) => m.buyerRequestId))];
    const contacts = (await this.contacts.contactsOf(workspaceId, requestIds)).filter((c) => c.buyerId === buyerId);
    const open = contacts.filter((c) => c.contact !== null);
    if (open.length === 0) return { kind: 'suppress', reason: contacts.some((c) => c.erased) ? 'erased' : 'no_contact' };
    const reachable = new Set(open.map((c) => c.buyerRequestId));
    // The address of the buyer's latest request (request ids sort by time).
    const to = open.reduce((a, b) => (a.buyerRequestId > b.buyerRequestId ? a : b)).contact!.email;

    const requests = new Map((await this.requests.getMany(requestIds)).filter((r) => r.workspaceId === workspaceId && r.status !== 'archived').map((r) => [r.id, r]));
    const items = new Map(
      (await this.inventory.getMany([...new Set(notice.matches.map((m) => m.inventoryItemId))]))
        .filter((i) => i.workspaceId === workspaceId && i.status === 'available' && i.availableQuantity > 0)
        .map((i) => [i.id, i]),
    );
    const lines: InStockLine[] = [];
    const listed = new Set<string>();
    for (const m of notice.matches) {
      const request = requests.get(m.buyerRequestId);
      const item = items.get(m.inventoryItemId);
      if (!request || !item || !reachable.has(m.buyerRequestId) || listed.has(item.id)) continue;
      listed.add(item.id);
      const wanted = request as { cardName: string; setName: string | null; condition: string | null; maxPriceMinor: number | null; currency: string };
      lines.push({
        cardName: item.cardName,
        setName: item.setName,
        condition: item.condition,
        priceMinor: item.priceMinor,
        currency: item.currency,
        available: item.availableQuantity,
        wanted: { cardName: wanted.cardName, setName: wanted.setName ?? null, condition: wanted.condition ?? null, maxPriceMinor: wanted.maxPriceMinor ?? null, currency: wanted.currency },
      });
    }
    if (lines.length === 0) return { kind: 'suppress', reason: 'no_longer_available' };

    const shopName = headerText(settings.shopName ?? (await this.workspaces.byId(workspaceId))?.name ?? 'Your card shop') || 'Your card shop';
    const unsubscribeUrl = this.config.unsubscribeUrl({ workspaceId, buyerId });
    const rendered = renderInStockEmail({ shopName, shopUrl: settings.shopUrl, unsubscribeUrl, lines });
    const domain = this.config.fromAddress.split('@')[1] ?? 'localhost';
    return {
      kind: 'send',
      email: {
        workspaceId,
        from: { name: shopName, address: this.config.fromAddress },
        to,
        replyTo: settings.replyTo,
        ...rendered,
        headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        messageId: `<{id}@${domain}>`,
      },
    };
  }
}
