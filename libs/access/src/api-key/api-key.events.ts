// Stored contract of the API key aggregate (internal events). The secret itself is never stored:
// only its SHA-256 hash.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const apiKeyCreated = z.object({
  keyId: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  secretHash: z.string(),
  createdAt: z.string(),
});

export const apiKeyRevoked = z.object({ keyId: z.string(), revokedAt: z.string() });

export type ApiKeyEvent =
  | { type: 'api_key.created'; data: z.infer<typeof apiKeyCreated> }
  | { type: 'api_key.revoked'; data: z.infer<typeof apiKeyRevoked> };

export const parseApiKeyEvent = parseOnce((event: RecordedEvent): ApiKeyEvent => {
  switch (event.type) {
    case 'api_key.created':
      return { type: event.type, data: apiKeyCreated.parse(event.data) };
    case 'api_key.revoked':
      return { type: event.type, data: apiKeyRevoked.parse(event.data) };
    default:
      throw new Error(`Not an API key event: ${event.type}`);
  }
});

export const apiKeyStream = (keyId: string) => `api_key-${keyId}`;
