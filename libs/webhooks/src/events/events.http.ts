// HTTP: GET /api/v1/event-types (the catalogue) and GET /api/v1/events (the workspace's public
// events, from the log, newest first).
import { Controller, Get, Inject, Query as QueryParams } from '@nestjs/common';
import { z } from 'zod';

import {
  ApiOperation,
  Auth,
  type AuthContext,
  instantRange,
  isoInstant,
  type ListResponse,
  listResponseSchema,
  paginationQuery,
  READ_STORE,
  type ReadStore,
  RequireScope,
  toListResponse,
} from '@app/platform';

import { EVENT_CATALOGUE, PUBLIC_EVENT_TYPES } from './event-catalogue';
import type { PublicEvent } from './public-event';
import { PUBLIC_EVENTS, type PublicEventDoc } from './public-event.projection';

const eventField = z.strictObject({
  type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'string|null']),
  description: z.string(),
});

export const eventTypeResponse = z
  .strictObject({
    type: z.string().meta({ description: 'The event type, e.g. `trade.completed`.' }),
    description: z.string(),
    data: z.record(z.string(), eventField).meta({ description: 'The fields of the envelope\'s `data`, snake_case.' }),
  })
  .meta({ id: 'EventType' });

export const eventTypeListResponse = z.strictObject({ data: z.array(eventTypeResponse) }).meta({ id: 'EventTypeList' });

export const publicEventResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Event id (`evt_…`), the same in every delivery and replay.' }),
    type: z.string(),
    created_at: z.iso.datetime().meta({ description: 'ISO 8601 UTC.' }),
    workspace_id: z.string().meta({ description: 'Workspace id (`ws_…`).' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'Event-specific, snake_case: see `GET /api/v1/event-types`.' }),
  })
  .meta({ id: 'Event' });

export const publicEventListResponse = listResponseSchema(publicEventResponse).meta({ id: 'EventList' });

export const listEventsQuery = paginationQuery.extend({
  type: z
    .string()
    .refine((t) => PUBLIC_EVENT_TYPES.has(t), { message: 'Unknown event type: see GET /api/v1/event-types' })
    .optional()
    .meta({ description: 'Only events of this type.' }),
  from: isoInstant.optional().meta({ description: 'Created at or after this instant (ISO 8601).' }),
  to: isoInstant.optional().meta({ description: 'Created before this instant (ISO 8601).' }),
});

const eventExample: PublicEvent = {
  id: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718',
  type: 'buyer_request.created',
  created_at: '2025-11-22T15:04:05.000Z',
  workspace_id: 'ws_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  data: {
    buyer_request_id: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
    card_name: 'Charizard',
    set_name: 'Base',
    condition: 'Near Mint',
    max_price: 450.5,
    currency: 'USD',
    source: 'card-show',
  },
};

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
