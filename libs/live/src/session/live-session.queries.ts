// Query handlers for the session routes: one session (with its version), and the list.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { type Filter, getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import type { LiveSessionStatus } from './live-session.events';
import { LIVE_SESSIONS, type LiveSessionDoc } from './live-session.projection';
import { type LiveSessionResponse, toLiveSessionResponse } from './live-session.schemas';

/** A session as answered, and its version (its stream's revision: the ETag). */
export interface VersionedLiveSession {
  answer: LiveSessionResponse;
  revision: number;
}

export class GetLiveSessionQuery extends Query<VersionedLiveSession> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetLiveSessionQuery)
export class GetLiveSessionHandler implements IQueryHandler<GetLiveSessionQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, id }: GetLiveSessionQuery): Promise<VersionedLiveSession> {
    const doc = await getOwned(this.reads.collection<LiveSessionDoc>(LIVE_SESSIONS), workspaceId, id, 'live session');
    return { answer: toLiveSessionResponse(doc), revision: doc.revision };
  }
}

export class ListLiveSessionsQuery extends Query<Page<LiveSessionResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly status: LiveSessionStatus | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListLiveSessionsQuery)
export class ListLiveSessionsHandler implements IQueryHandler<ListLiveSessionsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, status, limit, cursor }: ListLiveSessionsQuery): Promise<Page<LiveSessionResponse>> {
    const filter: Filter = { workspaceId, ...(status ? { status } : {}) };
    const page = await this.reads.collection<LiveSessionDoc>(LIVE_SESSIONS).find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
    return { ...page, items: page.items.map(toLiveSessionResponse) };
  }
}

export const LIVE_SESSION_QUERY_HANDLERS = [GetLiveSessionHandler, ListLiveSessionsHandler];
