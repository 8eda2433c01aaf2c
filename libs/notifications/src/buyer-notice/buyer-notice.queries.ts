// Query handler for the buyer emails of a workspace, newest first (GET /api/v1/notifications).
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { type Page, READ_STORE, type ReadStore } from '@app/platform';

import { BUYER_NOTICES, type BuyerNoticeDoc } from './buyer-notice.projection';

export class ListNotificationsQuery extends Query<Page<BuyerNoticeDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly buyerId: string | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListNotificationsQuery)
export class ListNotificationsHandler implements IQueryHandler<ListNotificationsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, buyerId, limit, cursor }: ListNotificationsQuery): Promise<Page<BuyerNoticeDoc>> {
    // Scoped to the caller's workspace by construction.
    const filter: Record<string, string> = buyerId ? { workspaceId, buyerId } : { workspaceId };
    return this.reads.collection<BuyerNoticeDoc>(BUYER_NOTICES).find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

export const BUYER_NOTICE_QUERY_HANDLERS = [ListNotificationsHandler];
