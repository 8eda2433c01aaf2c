// HTTP: GET /api/v1/event-types (the catalogue) and GET /api/v1/events (the workspace's public
// events, from the log, newest first). Request and response schemas live in events.schemas.ts.
import { Controller, Get, Inject, Query as QueryParams } from '@nestjs/common';
import type { z } from 'zod';

import {
  ApiOperation,
  Auth,
  type AuthContext,
  instantRange,
  type ListResponse,
  READ_STORE,
  type ReadStore,
  RequireScope,
  toListResponse,
} from '@app/platform';

import { EVENT_CATALOGUE } from './event-catalogue';
import { eventExample, eventTypeListResponse, listEventsQuery, publicEventListResponse } from './events.schemas';
import type { PublicEvent } from './public-event';
import { PUBLIC_EVENTS, type PublicEventDoc } from './public-event.projection';

const TAGS = ['Events'];

@Controller('api/v1')
export class EventsController {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  @Get('event-types')
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'listEventTypes',
    summary: 'The event catalogue',
    description: 'Every event type a webhook can subscribe to, what it means and the fields of its `data`.',
    tags: TAGS,
    responses: {
      200: {
        description: 'The catalogue',
        schema: eventTypeListResponse,
        example: { data: EVENT_CATALOGUE.filter((e) => e.type === 'trade.completed').map((e) => ({ ...e, data: { ...e.data } })) },
      },
    },
  })
  eventTypes(): z.output<typeof eventTypeListResponse> {
    return { data: EVENT_CATALOGUE.map((e) => ({ type: e.type, description: e.description, data: { ...e.data } })) };
  }

  @Get('events')
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'List the workspace\'s public events, newest first',
    description: 'Read from the event log: the envelopes webhooks deliver, with the same ids. Internal events are never listed.',
    tags: TAGS,
    query: listEventsQuery,
    responses: { 200: { description: 'A page of events', schema: publicEventListResponse, example: { data: [eventExample], nextCursor: null } } },
  })
  async events(
    @Auth() auth: AuthContext,
    @QueryParams() query: z.output<typeof listEventsQuery>,
  ): Promise<ListResponse<PublicEvent>> {
    const createdAt = instantRange(query.from, query.to);
    const filter = { workspaceId: auth.workspaceId, ...(query.type ? { type: query.type } : {}), ...(createdAt ? { createdAt } : {}) };
    const page = await this.reads.collection<PublicEventDoc>(PUBLIC_EVENTS).find(filter, {
      sort: [
        ['createdAt', -1],
        ['position', -1],
      ],
      limit: query.limit,
      after: query.cursor,
    });
    return toListResponse(page, (doc) => doc.envelope);
  }
}
