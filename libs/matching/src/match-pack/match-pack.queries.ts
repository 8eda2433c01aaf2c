// Query handlers for the match pack routes.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { type Filter, getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { MATCH_PACKS, type MatchPackDoc } from './match-pack.projection';

/** The match pack of this workspace, or NOT_FOUND. */
export class GetMatchPackQuery extends Query<MatchPackDoc> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetMatchPackQuery)
export class GetMatchPackHandler implements IQueryHandler<GetMatchPackQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, id }: GetMatchPackQuery): Promise<MatchPackDoc> {
    return getOwned(this.reads.collection<MatchPackDoc>(MATCH_PACKS), workspaceId, id, 'match pack');
  }
}

export class ListMatchPacksQuery extends Query<Page<MatchPackDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
    readonly buyerRequestId?: string,
  ) {
    super();
  }
}

@QueryHandler(ListMatchPacksQuery)
export class ListMatchPacksHandler implements IQueryHandler<ListMatchPacksQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, limit, cursor, buyerRequestId }: ListMatchPacksQuery): Promise<Page<MatchPackDoc>> {
    const filter: Filter = buyerRequestId ? { workspaceId, buyerRequestId } : { workspaceId };
    return this.reads.collection<MatchPackDoc>(MATCH_PACKS).find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

export const MATCH_PACK_QUERY_HANDLERS = [GetMatchPackHandler, ListMatchPacksHandler];
