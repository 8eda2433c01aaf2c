// Commands on deliveries: replay events from the log, and send a test event (WebhookDeliveries does the work).
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { type ReplayResult, type ReplaySelection, type TestResult, WebhookDeliveries } from './delivery.service';

export class ReplayWebhookEventsCommand extends Command<ReplayResult> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly selection: ReplaySelection,
  ) {
    super();
  }
}

@CommandHandler(ReplayWebhookEventsCommand)
export class ReplayWebhookEventsHandler implements ICommandHandler<ReplayWebhookEventsCommand> {
  constructor(private readonly deliveries: WebhookDeliveries) {}

  execute({ workspaceId, webhookId, selection }: ReplayWebhookEventsCommand): Promise<ReplayResult> {
    return this.deliveries.replay(workspaceId, webhookId, selection);
  }
}

export class TestWebhookCommand extends Command<TestResult> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}

@CommandHandler(TestWebhookCommand)
export class TestWebhookHandler implements ICommandHandler<TestWebhookCommand> {
  constructor(private readonly deliveries: WebhookDeliveries) {}

  execute({ workspaceId, webhookId }: TestWebhookCommand): Promise<TestResult> {
    return this.deliveries.test(workspaceId, webhookId);
  }
}

export const DELIVERY_COMMAND_HANDLERS = [ReplayWebhookEventsHandler, TestWebhookHandler];
