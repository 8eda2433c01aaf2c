// Webhook subscriptions: created with a url, event types and a sealed secret; updated, rotated,
// disabled (by hand, or by the dispatcher for a 410 or 24 h of failures), enabled and deleted.
import { type Decider, DomainError } from '@app/platform/domain';

import type { DisableReason, StoredSecret, WebhookEvent } from './webhook.events';

/** How many retired secrets may still sign beside the current one (each until its expiry). */
export const MAX_RETIRED_SECRETS = 3;

export type WebhookCommand =
  | {
      type: 'CreateWebhook';
      webhookId: string;
      workspaceId: string;
      url: string;
      events: readonly string[];
      description: string | null;
      secret: StoredSecret;
      now: Date;
    }
  | {
      type: 'UpdateWebhook';
      webhookId: string;
      workspaceId: string;
      url?: string;
      events?: readonly string[];
      description?: string | null;
      now: Date;
    }
  | { type: 'RotateWebhookSecret'; webhookId: string; workspaceId: string; secret: StoredSecret; overlapMs: number; now: Date }
  | { type: 'DisableWebhook'; webhookId: string; workspaceId: string; reason: DisableReason; detail: string; now: Date }
  | { type: 'EnableWebhook'; webhookId: string; workspaceId: string; now: Date }
  | { type: 'DeleteWebhook'; webhookId: string; workspaceId: string; now: Date };

export interface LiveWebhook {
  status: 'enabled' | 'disabled';
  webhookId: string;
  workspaceId: string;
  url: string;
  events: string[];
  description: string | null;
  /** The current secret first, then retired ones still signing. */
  secrets: StoredSecret[];
  disabledAt: string | null;
}

export type WebhookState = { status: 'none' } | { status: 'deleted'; webhookId: string; workspaceId: string } | LiveWebhook;

function live(state: WebhookState, command: { webhookId: string; workspaceId: string }): LiveWebhook {
  // Another workspace's webhook answers exactly like a missing one: ids must not leak.
  if (state.status === 'none' || state.status === 'deleted' || state.workspaceId !== command.workspaceId) {
    throw new DomainError('NOT_FOUND', `No webhook with id ${command.webhookId}`);
  }
  return state;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'CreateWebhook':
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Webhook ${command.webhookId} already exists`);
        return [
          {
            type: 'webhook.created',
            data: {
              webhookId: command.webhookId,
              workspaceId: command.workspaceId,
              url: command.url,
              events: [...command.events],
              description: command.description,
              secret: command.secret,
              createdAt: at,
            },
          },
        ];
      case 'UpdateWebhook': {
        const current = live(state, command);
        const next = {
          url: command.url ?? current.url,
          events: command.events ? [...command.events] : current.events,
          description: command.description === undefined ? current.description : command.description,
        };
        const changedFields = [
          ...(next.url !== current.url ? ['url'] : []),
          ...(!sameList(next.events, current.events) ? ['events'] : []),
          ...(next.description !== current.description ? ['description'] : []),
        ];
        if (changedFields.length === 0) return [];
        return [{ type: 'webhook.updated', data: { webhookId: command.webhookId, ...next, changedFields, updatedAt: at } }];
      }
      case 'RotateWebhookSecret': {
        const current = live(state, command);
        const retireAt = new Date(command.now.getTime() + command.overlapMs).toISOString();
        const [active, ...retired] = current.secrets;
        const stillSigning = retired.filter((s) => s.expiresAt !== null && s.expiresAt > at);
        const previous = [{ ...active, expiresAt: retireAt }, ...stillSigning].slice(0, MAX_RETIRED_SECRETS);
        return [{ type: 'webhook.secret_rotated', data: { webhookId: command.webhookId, secret: command.secret, previous, rotatedAt: at } }];
      }
      case 'DisableWebhook': {
        const current = live(state, command);
        if (current.status === 'disabled') return [];
        return [
          { type: 'webhook.disabled', data: { webhookId: command.webhookId, reason: command.reason, detail: command.detail, disabledAt: at } },
        ];
      }
      case 'EnableWebhook': {
        const current = live(state, command);
        if (current.status === 'enabled') return [];
        return [{ type: 'webhook.enabled', data: { webhookId: command.webhookId, disabledAt: current.disabledAt ?? at, enabledAt: at } }];
      }
      case 'DeleteWebhook':
        live(state, command);
        return [{ type: 'webhook.deleted', data: { webhookId: command.webhookId, deletedAt: at } }];
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'webhook.created') {
      const d = event.data;
      return {
        status: 'enabled',
        webhookId: d.webhookId,
        workspaceId: d.workspaceId,
        url: d.url,
        events: d.events,
        description: d.description,
        secrets: [d.secret],
        disabledAt: null,
      };
    }
    if (state.status === 'none' || state.status === 'deleted') return state;
    switch (event.type) {
      case 'webhook.updated':
        return { ...state, url: event.data.url, events: event.data.events, description: event.data.description };
      case 'webhook.secret_rotated':
        return { ...state, secrets: [event.data.secret, ...event.data.previous] };
      case 'webhook.disabled':
        return { ...state, status: 'disabled', disabledAt: event.data.disabledAt };
      case 'webhook.enabled':
        return { ...state, status: 'enabled', disabledAt: null };
      case 'webhook.deleted':
        return { status: 'deleted', webhookId: state.webhookId, workspaceId: state.workspaceId };
      default:
        return state;
    }
  },
};

/** The secrets that sign at `now`: the current one, then retired ones not yet expired. */
export function signingSecrets(secrets: readonly StoredSecret[], now: Date): StoredSecret[] {
  const at = now.toISOString();
  return secrets.filter((s) => s.expiresAt === null || s.expiresAt > at);
}
