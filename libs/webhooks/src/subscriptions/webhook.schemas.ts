// Request and response schemas of the webhook subscription routes (they validate and they
// document), with examples.
import { z } from 'zod';

import { listResponseSchema } from '@app/platform';

import type { WebhookView } from './webhook.queries';

/** An event type a webhook can subscribe to; the delivery and replay routes take it too. */
/** An event type name; the handlers check it against the composed catalogue (unknown → 400 naming the field). */
export const webhookEventType = z.string().min(1).max(100);
/** Event types one webhook may list (duplicates are dropped when it is stored). */
export const MAX_WEBHOOK_EVENT_TYPES = 100;
const eventTypes = z.array(webhookEventType).min(1).max(MAX_WEBHOOK_EVENT_TYPES);
const url = z.string().trim().min(1).max(2048).meta({ description: 'The receiver: an https URL resolving to public addresses only.' });
const description = z.string().trim().max(500);

export const createWebhookBody = z
  .strictObject({
    url,
    events: eventTypes.meta({ description: 'Event types to deliver (see `GET /api/v1/event-types`).' }),
    description: description.optional().meta({ description: 'What the endpoint is for.' }),
  })
  .meta({ id: 'CreateWebhook' });

export const updateWebhookBody = z
  .strictObject({
    url: url.optional(),
    events: eventTypes.optional(),
    description: description.nullable().optional(),
    enabled: z.boolean().optional().meta({
      description: 'false stops deliveries; true resumes them, and the answer\'s `missedWhileDisabled` is the range to replay.',
    }),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one of url, events, description, enabled' })
  .meta({ id: 'UpdateWebhook' });

export const webhookResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Webhook id (`wh_…`).' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabledReason: z.enum(['manual', 'gone', 'failing']).nullable().meta({
      description: '`manual` (PATCH), `gone` (the endpoint answered 410) or `failing` (every attempt failed for 24 h).',
    }),
    disabledDetail: z.string().nullable(),
    disabledAt: z.string().nullable().meta({ format: 'date-time' }),
    failingSince: z.string().nullable().meta({ description: 'Since when every attempt has failed; null once one succeeds.', format: 'date-time' }),
    missedWhileDisabled: z
      .strictObject({ from: z.string().meta({ format: 'date-time' }), to: z.string().meta({ format: 'date-time' }) })
      .nullable()
      .meta({ description: 'After a re-enable: the period it was off. `POST /webhooks/:id/replay` with this `{from, to}` delivers what was missed.' }),
    secretCreatedAt: z.string().meta({ format: 'date-time' }),
    previousSecretsExpireAt: z.string().nullable().meta({
      description: 'After a rotation: until then the previous secret signs too (both signatures are sent).',
      format: 'date-time',
    }),
    createdAt: z.string().meta({ format: 'date-time' }),
    updatedAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'Webhook', description: 'A webhook subscription; its secret is never shown again after creation or rotation.' });

const secretField = z.string().meta({ description: 'The signing secret (`whsec_…`): shown this once only, store it now.' });
export const createdWebhookResponse = webhookResponse.extend({ secret: secretField }).meta({ id: 'CreatedWebhook' });
export const rotatedWebhookResponse = webhookResponse.extend({ secret: secretField }).meta({ id: 'RotatedWebhook' });
export const webhookListResponse = listResponseSchema(webhookResponse).meta({ id: 'WebhookList' });
export const deletedWebhookResponse = z.strictObject({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedWebhook' });

export const webhookIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Webhook id (`wh_…`).', examples: ['wh_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

export const webhookExample: WebhookView = {
  id: 'wh_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  url: 'https://hooks.example.com/collectibles',
  events: ['buyer_request.matched', 'trade.completed'],
  description: 'order desk',
  status: 'enabled',
  disabledReason: null,
  disabledDetail: null,
  disabledAt: null,
  failingSince: null,
  missedWhileDisabled: null,
  secretCreatedAt: '2025-11-22T15:04:05.000Z',
  previousSecretsExpireAt: null,
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:05.000Z',
};
export const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8tVbCeC0hfk=';
