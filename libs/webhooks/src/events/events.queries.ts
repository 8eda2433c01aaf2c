// Queries of the public events: the catalogue, and the workspace's events read from the log's
// read model (newest first).
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import {
  instantRange,
  type Page,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEventCatalogue,
  type PublicEventType,
  READ_STORE,
  type ReadStore,
} from '@app/platform';

import { assertPublicEventTypes } from './event-types';
import { PUBLIC_EVENTS, type PublicEventDoc } from './public-event.projection';

export class ListEventTypesQuery extends Query<readonly PublicEventType[]> {}

@QueryHandler(ListEventTypesQuery)
export class ListEventTypesHandler implements IQueryHandler<ListEventTypesQuery> {
  constructor(@Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue) {}

  execute(): Promise<readonly PublicEventType[]> {
    return Promise.resolve(this.catalogue.entries);
  }
}

export interface EventFilters {
  type?: string;
  /** ISO 8601: created at or after. */
  from?: string;
  /** ISO 8601: created before. */
  to?: string;
}

export class ListEventsQuery extends Query<Page<PublicEventDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
    readonly filters: EventFilters = {},
  ) {
    super();
  }
}

@QueryHandler(ListEventsQuery)
export class ListEventsHandler implements IQueryHandler<ListEventsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
  ) {}

  execute({ workspaceId, limit, cursor, filters }: ListEventsQuery): Promise<Page<PublicEventDoc>> {
    assertPublicEventTypes(this.catalogue, 'query', 'type', filters.type);
    const createdAt = instantRange(filters.from, filters.to);
    const filter = { workspaceId, ...(filters.type ? { type: filters.type } : {}), ...(createdAt ? { createdAt } : {}) };
    return this.reads.collection<PublicEventDoc>(PUBLIC_EVENTS).find(filter, {
      sort: [
        ['createdAt', -1],
        ['position', -1],
      ],
      limit,
      after: cursor,
    });
  }
}

export const EVENT_QUERY_HANDLERS = [ListEventTypesHandler, ListEventsHandler];
