// Stored contract of the webhook subscription aggregate (internal events, never delivered).
// Signing secrets are stored only sealed (AES-256-GCM, see SecretBox): never in clear in the log.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

/** A signing secret as stored: sealed, with the instant after which it no longer signs. */
export const storedSecret = z.object({
  sealed: z.string(),
  createdAt: z.string(),
  /** null while it is the current secret; set when a rotation retires it (24 h later). */
  expiresAt: z.string().nullable(),
});
export type StoredSecret = z.infer<typeof storedSecret>;

export const DISABLE_REASONS = ['manual', 'gone', 'failing'] as const;
export type DisableReason = (typeof DISABLE_REASONS)[number];

export const webhookCreated = z.object({
  webhookId: z.string(),
  workspaceId: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  secret: storedSecret,
  createdAt: z.string(),
});

export const webhookUpdated = z.object({
  webhookId: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  changedFields: z.array(z.string()),
  updatedAt: z.string(),
});

export const webhookSecretRotated = z.object({
  webhookId: z.string(),
  secret: storedSecret,
  /** The secrets that keep signing until their `expiresAt` (the one just retired among them). */
  previous: z.array(storedSecret),
  rotatedAt: z.string(),
});

export const webhookDisabled = z.object({
  webhookId: z.string(),
  reason: z.enum(DISABLE_REASONS),
  detail: z.string(),
  disabledAt: z.string(),
});

export const webhookEnabled = z.object({
  webhookId: z.string(),
  /** The instant it had been disabled since: what a replay of the missed events starts from. */
  disabledAt: z.string(),
  enabledAt: z.string(),
});

export const webhookDeleted = z.object({ webhookId: z.string(), deletedAt: z.string() });

export type WebhookEvent =
  | { type: 'webhook.created'; data: z.infer<typeof webhookCreated> }
  | { type: 'webhook.updated'; data: z.infer<typeof webhookUpdated> }
  | { type: 'webhook.secret_rotated'; data: z.infer<typeof webhookSecretRotated> }
  | { type: 'webhook.disabled'; data: z.infer<typeof webhookDisabled> }
  | { type: 'webhook.enabled'; data: z.infer<typeof webhookEnabled> }
  | { type: 'webhook.deleted'; data: z.infer<typeof webhookDeleted> };

export const WEBHOOK_EVENT_TYPES = [
  'webhook.created',
  'webhook.updated',
  'webhook.secret_rotated',
  'webhook.disabled',
  'webhook.enabled',
  'webhook.deleted',
] as const;

export const parseWebhookSubscriptionEvent = parseOnce((event: RecordedEvent): WebhookEvent => {
  switch (event.type) {
    case 'webhook.created':
      return { type: event.type, data: webhookCreated.parse(event.data) };
    case 'webhook.updated':
      return { type: event.type, data: webhookUpdated.parse(event.data) };
    case 'webhook.secret_rotated':
      return { type: event.type, data: webhookSecretRotated.parse(event.data) };
    case 'webhook.disabled':
      return { type: event.type, data: webhookDisabled.parse(event.data) };
    case 'webhook.enabled':
      return { type: event.type, data: webhookEnabled.parse(event.data) };
    case 'webhook.deleted':
      return { type: event.type, data: webhookDeleted.parse(event.data) };
    default:
      throw new Error(`Not a webhook event: ${event.type}`);
  }
});

export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;
