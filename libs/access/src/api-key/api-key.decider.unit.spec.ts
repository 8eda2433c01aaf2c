import { deciderSpec } from '@app/testing/support/decider-spec';

import { apiKeyDecider } from './api-key.decider';

const spec = deciderSpec(apiKeyDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const created = {
  type: 'api_key.created' as const,
  data: {
    keyId: 'key_1',
    workspaceId: 'ws_1',
    name: 'ci',
    scopes: ['read:requests'],
    secretHash: 'ab'.repeat(32),
    createdAt: now.toISOString(),
  },
};

describe('api key decider', () => {
  it('creates a key holding only the hash of its secret', () => {
    spec
      .given([])
      .when({ type: 'CreateApiKey', keyId: 'key_1', workspaceId: 'ws_1', name: 'ci', scopes: ['read:requests'], secretHash: 'ab'.repeat(32), now })
      .then([created]);
  });

  it('revokes an active key', () => {
    spec
      .given([created])
      .when({ type: 'RevokeApiKey', keyId: 'key_1', workspaceId: 'ws_1', now })
      .then([{ type: 'api_key.revoked', data: { keyId: 'key_1', revokedAt: now.toISOString() } }]);
  });

  it('answers NOT_FOUND for another workspace, so ids do not leak', () => {
    spec.given([created]).when({ type: 'RevokeApiKey', keyId: 'key_1', workspaceId: 'ws_2', now }).thenThrows('NOT_FOUND');
  });

  it('revokes twice as a no-op: a repeated terminal action records nothing', () => {
    spec
      .given([created, { type: 'api_key.revoked', data: { keyId: 'key_1', revokedAt: now.toISOString() } }])
      .when({ type: 'RevokeApiKey', keyId: 'key_1', workspaceId: 'ws_1', now })
      .then([]);
  });
});
