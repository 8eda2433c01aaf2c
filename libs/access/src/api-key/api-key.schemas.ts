// Request and response schemas of /api/v1/api-keys (they validate and they document), with examples.
import { z } from 'zod';

import { listResponseSchema, SCOPES } from '@app/platform';

export const createApiKeyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).meta({ description: 'What the key is for, e.g. the system that holds it.' }),
    /** Blank (or absent) means full access, as in the portal. */
    scopes: z
      .array(z.enum(SCOPES))
      .max(SCOPES.length)
      .optional()
      .meta({ description: 'Scopes the key gets; absent or empty means full access (`admin`).' }),
  })
  .meta({ id: 'CreateApiKey' });

export const apiKeyResponse = z
  .object({
    id: z.string().meta({ description: 'API key id (`key_…`).' }),
    name: z.string(),
    scopes: z.array(z.string()),
    status: z.enum(['active', 'revoked']),
    createdAt: z.string().meta({ format: 'date-time' }),
    revokedAt: z.string().nullable().meta({ format: 'date-time' }),
    lastUsedAt: z.string().nullable().meta({ description: 'Accurate to about a minute.', format: 'date-time' }),
  })
  .meta({ id: 'ApiKey', description: 'An API key; its secret is never shown again after creation.' });

export const createdApiKeyResponse = z
  .object({
    id: z.string().meta({ description: 'API key id (`key_…`).' }),
    name: z.string(),
    scopes: z.array(z.string()),
    status: z.literal('active'),
    createdAt: z.string().meta({ format: 'date-time' }),
    secret: z.string().meta({ description: 'The bearer secret: shown this once only, store it now.' }),
  })
  .meta({ id: 'CreatedApiKey' });

export const apiKeyListResponse = listResponseSchema(apiKeyResponse).meta({ id: 'ApiKeyList' });

export const apiKeyIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'API key id (`key_…`).', examples: ['key_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

export const apiKeyExample: z.output<typeof apiKeyResponse> = {
  id: 'key_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  name: 'ci',
  scopes: ['read:requests', 'write:requests'],
  status: 'active',
  createdAt: '2025-11-22T15:04:05.000Z',
  revokedAt: null,
  lastUsedAt: '2025-11-22T16:00:00.000Z',
};

export const createdApiKeyExample: z.output<typeof createdApiKeyResponse> = {
  id: apiKeyExample.id,
  name: 'ci',
  scopes: ['read:requests', 'write:requests'],
  status: 'active',
  createdAt: apiKeyExample.createdAt,
  secret: 'sk_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3_Xq2v9Lr8TnYc4WbK0pHs7MdE1gJzAf6uNo3RiVe5yQk',
};
