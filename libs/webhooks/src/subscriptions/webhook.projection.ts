// Read model of webhook subscriptions: what the API lists and what the dispatcher matches events
// against. Secrets stay sealed here too; the API view never includes them.
import { documentProjection, type StreamDoc } from '@app/platform';

import { signingSecrets } from './webhook.decider';
import {
  type DisableReason,
  type StoredSecret,
  WEBHOOK_EVENT_TYPES,
  webhookCreated,
  webhookDisabled,
  webhookEnabled,
  webhookSecretRotated,
  webhookUpdated,
} from './webhook.events';

export interface WebhookDoc extends StreamDoc {
  workspaceId: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: DisableReason | null;
  disabledDetail: string | null;
  disabledAt: string | null;
  /** The last disabled period, once re-enabled: what a replay of the missed events covers. */
  lastDisabled: { from: string; to: string } | null;
  /** Sealed; the current one first. */
  secrets: StoredSecret[];
  /** Global position of `webhook.created`: only later events are delivered to it. */
  createdPosition: number;
  createdAt: string;
  updatedAt: string;
}

export const WEBHOOKS = {
  name: 'webhooks',
  indexes: [{ name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] }],
} as const;

export const webhookProjection = documentProjection<WebhookDoc>({
  name: 'webhooks',
  version: 1,
  // The webhook routes' own read model: the write that changes a webhook brings it up to date.
  inline: true,
  collection: WEBHOOKS,
  eventTypes: WEBHOOK_EVENT_TYPES,
  evolve(doc, event) {
    if (event.type === 'webhook.created') {
      const d = webhookCreated.parse(event.data);
      return {
        id: d.webhookId,
        revision: event.revision,
        workspaceId: d.workspaceId,
        url: d.url,
        events: d.events,
        description: d.description,
        status: 'enabled',
        disabledReason: null,
        disabledDetail: null,
        disabledAt: null,
        lastDisabled: null,
        secrets: [d.secret],
        createdPosition: event.position,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'webhook.updated': {
        const d = webhookUpdated.parse(event.data);
        return { ...doc, url: d.url, events: d.events, description: d.description, updatedAt: d.updatedAt };
      }
      case 'webhook.secret_rotated': {
        const d = webhookSecretRotated.parse(event.data);
        return { ...doc, secrets: signingSecrets([d.secret, ...d.previous], new Date(d.rotatedAt)), updatedAt: d.rotatedAt };
      }
      case 'webhook.disabled': {
        const d = webhookDisabled.parse(event.data);
        return { ...doc, status: 'disabled', disabledReason: d.reason, disabledDetail: d.detail, disabledAt: d.disabledAt, updatedAt: d.disabledAt };
      }
      case 'webhook.enabled': {
        const d = webhookEnabled.parse(event.data);
        return {
          ...doc,
          status: 'enabled',
          disabledReason: null,
          disabledDetail: null,
          disabledAt: null,
          lastDisabled: { from: d.disabledAt, to: d.enabledAt },
          updatedAt: d.enabledAt,
        };
      }
      case 'webhook.deleted':
        return null;
      default:
        return doc;
    }
  },
});
