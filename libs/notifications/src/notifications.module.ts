// Notifications: the widget's buyers are emailed when a card they want is in stock. A process
// manager on the log queues each new full match on the buyer's own notice stream (its recorded
// sends: never twice for one match, at most one email per buyer per window); a durable timer per
// buyer sends the due email (SMTP, or the outbox under DATA_DIR/outbox) and retries failures with
// backoff. It reads demand (the buyer and the contact), supply (the items) and the widget (the
// seller's email settings) through their contracts only.
import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { AccessModule } from '@app/access';
import { DemandModule } from '@app/demand';
import { DurableTimers, ProcessManagerRunner, ProjectionRunner } from '@app/platform';
import { SupplyModule } from '@app/supply';
import { WidgetModule } from '@app/widget';

import { BuyerEmailSettings } from './buyer-email.config';
import { NotificationsController } from './buyer-notice/buyer-notice.http';
import { BuyerNoticeProcess } from './buyer-notice/buyer-notice.process';
import { buyerNoticeProjection } from './buyer-notice/buyer-notice.projection';
import { BUYER_NOTICE_QUERY_HANDLERS } from './buyer-notice/buyer-notice.queries';
import { BuyerNoticeSender } from './buyer-notice/buyer-notice.sender';
import { buyerNoticeTimers } from './buyer-notice/buyer-notice.timers';
import { UnsubscribeController } from './unsubscribe/unsubscribe.http';

@Module({
  imports: [CqrsModule, AccessModule, DemandModule, SupplyModule, WidgetModule],
  controllers: [NotificationsController, UnsubscribeController],
  providers: [BuyerEmailSettings, BuyerNoticeProcess, BuyerNoticeSender, ...BUYER_NOTICE_QUERY_HANDLERS],
})
export class NotificationsModule implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionRunner,
    private readonly processManagers: ProcessManagerRunner,
    private readonly timers: DurableTimers,
    private readonly process: BuyerNoticeProcess,
    private readonly sender: BuyerNoticeSender,
  ) {}

  onModuleInit(): void {
    this.projections.register(buyerNoticeProjection);
    this.processManagers.register(this.process);
    this.timers.register(buyerNoticeTimers);
    this.timers.handle(this.sender);
  }
}
