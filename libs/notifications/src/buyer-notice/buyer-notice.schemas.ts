// Request and response schemas of /api/v1/notifications (they validate and they document).
import { z } from 'zod';

import { listResponseSchema, paginationQuery } from '@app/platform';

import { SUPPRESSION_REASONS } from './buyer-notice.events';
import { type BuyerNoticeDoc, NOTICE_STATUSES } from './buyer-notice.projection';

export const listNotificationsQuery = paginationQuery.extend({
  buyerId: z
    .string()
    .regex(/^buyer_[a-z2-7]{26}$/)
    .optional()
    .meta({ description: "Only this buyer's emails (the pseudonymous `buyer_…` id a want list answers and buyer requests carry)." }),
});

export const notificationResponse = z
  .strictObject({
    id: z.string().meta({ description: 'The notice (`ntf_…`): one email, or the matches not emailed.' }),
    buyerId: z.string().meta({ description: 'The buyer, by pseudonymous id: never the address.' }),
    status: z.enum(NOTICE_STATUSES).meta({
      description:
        '`pending` (waiting for its time: at once, or the end of the hour after the last email), `sending`, `retrying` (a send failed and is tried again at `sendAt`), ' +
        '`sent`, `failed` (given up: see `lastError`), `suppressed` (not sent: see `reason`).',
    }),
    matches: z.array(z.strictObject({ matchId: z.string(), buyerRequestId: z.string(), inventoryItemId: z.string() })),
    attempts: z.number().int(),
    sendAt: z.string().nullable().meta({ description: 'When it is to be sent or tried again.' }),
    sentAt: z.string().nullable(),
    transport: z.enum(['smtp', 'outbox']).nullable().meta({ description: '`outbox`: written to DATA_DIR/outbox (no SMTP_URL set).' }),
    reason: z.enum(SUPPRESSION_REASONS).nullable().meta({ description: 'Why a suppressed notice was not sent.' }),
    lastError: z
      .strictObject({ code: z.string(), message: z.string(), responseCode: z.number().int().nullable() })
      .nullable()
      .meta({ description: 'The last failure (the SMTP reply code; never the server text).' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Notification' });
export type NotificationResponse = z.output<typeof notificationResponse>;

export const notificationListResponse = listResponseSchema(notificationResponse).meta({ id: 'NotificationList' });

export function toNotificationResponse(doc: BuyerNoticeDoc): NotificationResponse {
  return {
    id: doc.id,
    buyerId: doc.buyerId,
    status: doc.status,
    matches: doc.matches.map((m) => ({ matchId: m.matchId, buyerRequestId: m.buyerRequestId, inventoryItemId: m.inventoryItemId })),
    attempts: doc.attempts,
    sendAt: doc.sendAt,
    sentAt: doc.sentAt,
    transport: doc.transport,
    reason: doc.reason,
    lastError: doc.lastError,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export const notificationExample: NotificationResponse = {
  id: 'ntf_01JD2Q7W5X3Y4Z5A6B7C8D9E0F',
  buyerId: 'buyer_k3m7q2xw5v4r6t8y2u3i4o5p6a',
  status: 'sent',
  matches: [{ matchId: 'mt_01JD2Q7W5X3Y4Z5A6B7C8D9E0G', buyerRequestId: 'br_01JD2Q7W5X3Y4Z5A6B7C8D9E0H', inventoryItemId: 'inv_01JD2Q7W5X3Y4Z5A6B7C8D9E0J' }],
  attempts: 1,
  sendAt: '2025-11-22T15:04:05.000Z',
  sentAt: '2025-11-22T15:04:06.000Z',
  transport: 'smtp',
  reason: null,
  lastError: null,
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:06.000Z',
};

export const previewResponse = z
  .strictObject({
    subject: z.string(),
    from: z.string().meta({ description: 'The From header: your shop name and SMTP_FROM.' }),
    replyTo: z.string().nullable(),
    headers: z.record(z.string(), z.string()).meta({ description: 'List-Unsubscribe (a sample link) and List-Unsubscribe-Post.' }),
    text: z.string(),
    html: z.string(),
  })
  .meta({ id: 'NotificationPreview' });

export const outboxResponse = z
  .strictObject({
    transport: z.enum(['smtp', 'outbox']).meta({ description: 'Where emails go now: `outbox` when no SMTP_URL is set.' }),
    data: z.array(z.strictObject({ notificationId: z.string(), size: z.number().int(), writtenAt: z.string() })),
  })
  .meta({ id: 'NotificationOutbox' });

export const notificationIdParams = z.object({ id: z.string().regex(/^ntf_[0-9A-Z]{26}$/).meta({ description: 'The notice (`ntf_…`).', examples: ['ntf_01JD2Q7W5X3Y4Z5A6B7C8D9E0F'] }) });
export const unsubscribeParams = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .meta({ description: 'The signed token from the email.', examples: ['u1.ws_01JD2Q7W5X3Y4Z5A6B7C8D9E0F.buyer_k3m7q2xw5v4r6t8y2u3i4o5p6a.q0Jd0bX1c2V3n4M5a6S7dA'] }),
});

export const previewExample: z.output<typeof previewResponse> = {
  subject: 'Charizard is in stock at Acme Cards',
  from: '"Acme Cards" <no-reply@acme.example>',
  replyTo: 'hello@acme.example',
  headers: { 'List-Unsubscribe': '<https://api.example.com/email/unsubscribe/u1.ws_….buyer_….…>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  text: 'Good news: a card you asked us to look out for is in stock.\n\n* Charizard — Base Set, Near Mint: $420.00\n…',
  html: '<!doctype html><html>…</html>',
};

export const outboxExample: z.output<typeof outboxResponse> = {
  transport: 'outbox',
  data: [{ notificationId: 'ntf_01JD2Q7W5X3Y4Z5A6B7C8D9E0F', size: 4821, writtenAt: '2025-11-22T15:04:06.000Z' }],
};
