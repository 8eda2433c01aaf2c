// API keys: created with a name, scopes and a secret hash; revoked once.
import { type Decider, DomainError } from '@app/platform/domain';

import type { ApiKeyEvent } from './api-key.events';

export type ApiKeyCommand =
  | {
      type: 'CreateApiKey';
      keyId: string;
      workspaceId: string;
      name: string;
      scopes: readonly string[];
      secretHash: string;
      now: Date;
    }
  | { type: 'RevokeApiKey'; keyId: string; workspaceId: string; now: Date };

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active' | 'revoked'; keyId: string; workspaceId: string };

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey':
        if (state.status !== 'none') throw new DomainError('CONFLICT', `API key ${command.keyId} already exists`);
        return [
          {
            type: 'api_key.created',
            data: {
              keyId: command.keyId,
              workspaceId: command.workspaceId,
              name: command.name,
              scopes: [...command.scopes],
              secretHash: command.secretHash,
              createdAt: command.now.toISOString(),
            },
          },
        ];
      case 'RevokeApiKey':
        // Another workspace's key answers exactly like a missing one: ids must not leak.
        if (state.status === 'none' || state.workspaceId !== command.workspaceId) {
          throw new DomainError('NOT_FOUND', `No API key with id ${command.keyId}`);
        }
        // Repeating a terminal action is a no-op (the house rule): revoking a revoked key records nothing.
        if (state.status === 'revoked') return [];
        return [{ type: 'api_key.revoked', data: { keyId: command.keyId, revokedAt: command.now.toISOString() } }];
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'api_key.created':
        return { status: 'active', keyId: event.data.keyId, workspaceId: event.data.workspaceId };
      case 'api_key.revoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
      default:
        return state;
    }
  },
};
