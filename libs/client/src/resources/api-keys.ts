// apiKeys: the workspace's API keys (scope `admin`) — create (the secret is shown once), list,
// read, revoke.
import type { PagePromise } from '../core/pagination';
import type { ApiKey, ApiKeyCreateParams, ApiKeyListParams, CreatedApiKey } from '../types';
import { type RequestOptions, Resource } from './resource';

export class ApiKeys extends Resource {
  /** POST /api-keys: the answer's `secret` is shown this once. */
  create(body: ApiKeyCreateParams, options?: RequestOptions): Promise<CreatedApiKey> {
    return this.call('/api/v1/api-keys', 'post', { body }, options);
  }

  /** GET /api-keys, newest first (revoked keys too; never secrets). */
  list(query?: ApiKeyListParams, options?: RequestOptions): PagePromise<ApiKey> {
    return this.listRoute('/api/v1/api-keys', { query }, options);
  }

  /** GET /api-keys/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<ApiKey> {
    return this.call('/api/v1/api-keys/{id}', 'get', { path: { id } }, options);
  }

  /** DELETE /api-keys/{id}: the key answers 401 from the next request on; it stays listed as `revoked`. */
  revoke(id: string, options?: RequestOptions): Promise<ApiKey> {
    return this.call('/api/v1/api-keys/{id}', 'delete', { path: { id } }, options);
  }
}
