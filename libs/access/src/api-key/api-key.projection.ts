// Read model of API keys: what the auth guard checks on every request (hash, scopes, status).
import { documentProjection, type StreamDoc } from '@app/platform';

import { apiKeyCreated, apiKeyRevoked } from './api-key.events';

export interface ApiKeyDoc extends StreamDoc {
  workspaceId: string;
  name: string;
  scopes: string[];
  secretHash: string;
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt: string | null;
}

export const API_KEYS = {
  name: 'api_keys',
  indexes: [{ name: 'by_workspace', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] }],
} as const;

export const apiKeyProjection = documentProjection<ApiKeyDoc>({
  name: 'api_keys',
  version: 1,
  // The key routes' own read model, and what the guard checks: the write that creates or revokes a
  // key brings it up to date, so the key works (or stops working) from the answer on.
  inline: true,
  collection: API_KEYS,
  eventTypes: ['api_key.created', 'api_key.revoked'],
  evolve(doc, event) {
    if (event.type === 'api_key.created') {
      const d = apiKeyCreated.parse(event.data);
      return {
        id: d.keyId,
        revision: event.revision,
        workspaceId: d.workspaceId,
        name: d.name,
        scopes: d.scopes,
        secretHash: d.secretHash,
        status: 'active',
        createdAt: d.createdAt,
        revokedAt: null,
      };
    }
    if (!doc) return null;
    return { ...doc, status: 'revoked', revokedAt: apiKeyRevoked.parse(event.data).revokedAt };
  },
});
