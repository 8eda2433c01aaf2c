// Request and response schemas of /api/v1/live-sessions (the sessions; their lots and reserves are
// in lot/lot.schemas.ts): they validate and they document, with examples; and the mapper from the
// read model.
import { z } from 'zod';

import { currencyCode, isoInstant, listResponseSchema, paginationQuery } from '@app/platform';

import { LIVE_SESSION_STATUSES, SETTLEMENTS } from './live-session.events';
import type { LiveSessionDoc } from './live-session.projection';

const id = (what: string) => z.string().trim().min(1).max(64).meta({ description: what });

export const createLiveSessionBody = z
  .strictObject({
    title: z.string().trim().min(1).max(200).meta({ description: 'What the show is called.' }),
    currency: currencyCode.optional().meta({ description: 'ISO 4217 code the lots sell in (their items must be priced in it); default `USD`.' }),
    scheduledAt: isoInstant.optional().meta({ description: 'When the show is announced to start (informative).' }),
    settlement: z.enum(SETTLEMENTS).optional().meta({
      description: 'What a winning reserve becomes when its lot closes: `hold` (default: the units held for the winner, a deposit due, until the payment window ends) or `trade` (a trade opened at once).',
    }),
    depositPercent: z.number().int().min(0).max(100).optional().meta({ description: 'With `hold`: the deposit due, as a percentage of the winning amount; default 20.' }),
    paymentWindowHours: z.number().int().min(1).max(720).optional().meta({ description: 'With `hold`: how long a winner has to pay, from the lot\'s close; default 48.' }),
  })
  .meta({ id: 'CreateLiveSession' });

export const liveSessionIdParams = z.object({ id: id('Live session id (`ls_…`).').meta({ examples: ['ls_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }) });

export const listLiveSessionsQuery = paginationQuery.extend({
  status: z.enum(LIVE_SESSION_STATUSES).optional().meta({ description: 'Only sessions in this status.' }),
});

export const liveSessionResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Live session id (`ls_…`).' }),
    status: z.enum(LIVE_SESSION_STATUSES).meta({ description: '`scheduled` → `live` (start) → `ended` (end).' }),
    title: z.string(),
    currency: z.string(),
    scheduledAt: z.string().nullable(),
    settlement: z.enum(SETTLEMENTS),
    depositPercent: z.number().int(),
    paymentWindowHours: z.number().int(),
    lotCount: z.number().int(),
    startedAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'LiveSession' });
export type LiveSessionResponse = z.output<typeof liveSessionResponse>;
export const liveSessionListResponse = listResponseSchema(liveSessionResponse).meta({ id: 'LiveSessionList' });

const at = '2025-11-23T20:00:00.000Z';
export const liveSessionExample: LiveSessionResponse = {
  id: 'ls_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  status: 'live',
  title: 'Friday night vintage breaks',
  currency: 'USD',
  scheduledAt: at,
  settlement: 'hold',
  depositPercent: 20,
  paymentWindowHours: 48,
  lotCount: 1,
  startedAt: at,
  endedAt: null,
  createdAt: at,
  updatedAt: at,
};

export function toLiveSessionResponse(doc: LiveSessionDoc): LiveSessionResponse {
  const { id: sessionId, status, title, currency, scheduledAt, settlement, depositPercent, paymentWindowHours, lotCount, startedAt, endedAt, createdAt, updatedAt } = doc;
  return { id: sessionId, status, title, currency, scheduledAt, settlement, depositPercent, paymentWindowHours, lotCount, startedAt, endedAt, createdAt, updatedAt };
}
