// The notifications process manager: follows the log for the matches recorded on buyer requests
// (`buyer_request.matches_recorded`, and the old `buyer_request.matched` / `match.created`, read as
// one through demand's parser) and, for each new FULL match on a request that carries a widget
// buyer (`buyerId` + a sealed contact), queues it on that buyer's notice stream. Whatever the
// source — instant matching at POST, reverse matching after an intake push or a new item, a PATCH —
// the match arrives here the same way. The buyer's stream decides (buyer-notice.decider.ts): a
// match already taken decides nothing, so replays, restarts and rebuilds never queue it again.
// Emails off for the workspace: the matches are recorded as suppressed at once.
//
// It also follows the erasure of a buyer's personal data: the outbox files of that buyer's emails
// (the only copies of the address this service wrote) are deleted.
import { Inject, Injectable, Logger } from '@nestjs/common';

import { BUYER_CONTACT_READER, BUYER_EVENT_TYPES, type BuyerContactReader, buyerPersonalDataErased, MATCHES_RECORDED_TYPES, parseMatchesRecorded } from '@app/demand';
import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, type ProcessManager, READ_STORE, type ReadStore, type RecordedEvent } from '@app/platform';
import { handleCommand } from '@app/platform/domain';
import { NOTIFICATION_SETTINGS_READER, type NotificationSettingsReader } from '@app/widget';

import { BuyerEmailSettings } from '../buyer-email.config';
import { buyerNoticeAggregate } from './buyer-notice.aggregate';
import { buyerNoticeStream, type NoticeMatch } from './buyer-notice.events';
import { BUYER_NOTICES, type BuyerNoticeDoc } from './buyer-notice.projection';

export const BUYER_NOTICE_PROCESS = 'buyer-notices';

@Injectable()
export class BuyerNoticeProcess implements ProcessManager {
  readonly name = BUYER_NOTICE_PROCESS;
  readonly eventTypes: readonly string[] = [...MATCHES_RECORDED_TYPES, ...BUYER_EVENT_TYPES];
  private readonly logger = new Logger('buyer-notices');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(BUYER_CONTACT_READER) private readonly contacts: BuyerContactReader,
    @Inject(NOTIFICATION_SETTINGS_READER) private readonly settings: NotificationSettingsReader,
    private readonly config: BuyerEmailSettings,
  ) {}

  async handle(batch: readonly RecordedEvent[]): Promise<void> {
    // The requests of the batch's full matches, per workspace: their buyers read once.
    const full = batch.flatMap((event) => {
      if (!(MATCHES_RECORDED_TYPES as readonly string[]).includes(event.type)) return [];
      const recorded = parseMatchesRecorded(event);
      return recorded.full.length > 0 ? [{ event, recorded }] : [];
    });
    const byEvent = new Map(full.map((f) => [f.event, f]));
    const buyers = new Map<string, Map<string, string | null>>();
    for (const { event, recorded } of full) {
      const ws = event.metadata.workspaceId;
      if (!buyers.has(ws)) buyers.set(ws, new Map());
      buyers.get(ws)!.set(recorded.buyerRequestId, null);
    }
    for (const [ws, byRequest] of buyers) {
      for (const r of await this.contacts.buyersOf(ws, [...byRequest.keys()])) byRequest.set(r.buyerRequestId, r.buyerId);
    }
    for (const event of batch) {
      if (event.type === 'buyer.personal_data_erased') {
        await this.forget(event);
        continue;
      }
      const one = byEvent.get(event);
      if (!one) continue;
      const workspaceId = event.metadata.workspaceId;
      const buyerId = buyers.get(workspaceId)?.get(one.recorded.buyerRequestId) ?? null;
      if (!buyerId) continue;
      const matches: NoticeMatch[] = one.recorded.full.map((m) => ({ matchId: m.matchId, buyerRequestId: one.recorded.buyerRequestId, inventoryItemId: m.inventoryItemId }));
      const enabled = (await this.settings.notificationSettings(workspaceId)).settings.enabled;
      await handleCommand(
        this.events,
        buyerNoticeStream(buyerId),
        buyerNoticeAggregate,
        { type: 'QueueMatches', buyerId, matches, newNotificationId: this.ids.next('ntf'), suppress: enabled ? null : 'disabled', policy: this.config.policy, now: this.clock.now() },
        { workspaceId, actor: 'notifications', causationId: event.id, correlationId: event.metadata.correlationId },
      );
    }
  }

  /** The buyer's personal data was erased: their emails in the outbox go too. */
  private async forget(event: RecordedEvent): Promise<void> {
    const { buyerId } = buyerPersonalDataErased.parse(event.data);
    const workspaceId = event.metadata.workspaceId;
    let after: string | undefined;
    let removed = 0;
    do {
      const page = await this.reads.collection<BuyerNoticeDoc>(BUYER_NOTICES).find({ workspaceId, buyerId }, { limit: 500, after });
      for (const doc of page.items) {
        this.config.outbox.remove(workspaceId, doc.id);
        removed += 1;
      }
      after = page.nextCursor ?? undefined;
    } while (after);
    if (removed > 0) this.logger.log(`buyer ${buyerId} erased: the outbox holds none of their emails any more`);
  }
}
