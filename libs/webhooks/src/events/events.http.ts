// HTTP: GET /api/v1/event-types (the catalogue) and GET /api/v1/events (the workspace's public
// events, from the log, newest first). Request and response schemas live in events.schemas.ts.
import { Controller, Get, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, type ListResponse, type PublicEvent, RequireScope, toListResponse } from '@app/platform';

import { ListEventsQuery, ListEventTypesQuery } from './events.queries';
import { eventExample, eventTypeExample, eventTypeListResponse, listEventsQuery, publicEventListResponse } from './events.schemas';

const TAGS = ['Events'];

@Controller('api/v1')
export class EventsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('event-types')
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'listEventTypes',
    summary: 'The event catalogue',
    description: 'Every event type a webhook can subscribe to, what it means and the fields of its `data`.',
    tags: TAGS,
    responses: { 200: { description: 'The catalogue', schema: eventTypeListResponse, example: { data: [eventTypeExample] } } },
  })
  async eventTypes(): Promise<z.output<typeof eventTypeListResponse>> {
    const entries = await this.queries.execute(new ListEventTypesQuery());
    return { data: entries.map((e) => ({ type: e.type, description: e.description, data: { ...e.data } })) };
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
    const page = await this.queries.execute(
      new ListEventsQuery(auth.workspaceId, query.limit, query.cursor, { type: query.type, from: query.from, to: query.to }),
    );
    return toListResponse(page, (doc) => doc.envelope);
  }
}
