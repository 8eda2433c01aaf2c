// Request and response schemas of /api/v1/event-types and /api/v1/events (they validate and they
// document), with an example.
import { z } from 'zod';

import { isoInstant, listResponseSchema, paginationQuery, type PublicEvent } from '@app/platform';

const eventField = z.strictObject({
  type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'string|null', 'number|null']),
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
  // Checked against the composed catalogue by the query (an unknown type → 400 naming `type`).
  type: z.string().optional().meta({ description: 'Only events of this type.' }),
  from: isoInstant.optional().meta({ description: 'Created at or after this instant (ISO 8601).' }),
  to: isoInstant.optional().meta({ description: 'Created before this instant (ISO 8601).' }),
});

export const eventExample: PublicEvent = {
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

/** One catalogue entry, as `GET /api/v1/event-types` lists it (the spec's trade.completed). */
export const eventTypeExample: z.output<typeof eventTypeResponse> = {
  type: 'trade.completed',
  description: 'A trade completed successfully.',
  data: {
    trade_id: { type: 'string', description: 'Trade id (`trd_…`).' },
    offer_id: { type: 'string', description: 'The accepted offer the trade came from (`ofr_…`).' },
    amount: { type: 'number', description: 'Agreed amount, a decimal with at most 2 places.' },
    status: { type: 'string', description: 'The trade\'s status after this event.' },
  },
};
