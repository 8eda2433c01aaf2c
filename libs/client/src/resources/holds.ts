// holds: units of an item reserved for a buyer until `expiresAt`, with a deposit — place one, pay
// the deposit, convert it into a trade, or release it.
import type { PagePromise } from '../core/pagination';
import type { Hold, HoldCreateParams, HoldDepositParams, HoldListParams, HoldReleaseParams } from '../types';
import { type RequestOptions, Resource } from './resource';

export class Holds extends Resource {
  /** POST /holds: a `ConflictError` coded INSUFFICIENT_QUANTITY when fewer units are available. */
  create(body: HoldCreateParams, options?: RequestOptions): Promise<Hold> {
    return this.call('/api/v1/holds', 'post', { body }, options);
  }

  /** GET /holds. */
  list(query?: HoldListParams, options?: RequestOptions): PagePromise<Hold> {
    return this.listRoute('/api/v1/holds', { query }, options);
  }

  /** GET /holds/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<Hold> {
    return this.call('/api/v1/holds/{id}', 'get', { path: { id } }, options);
  }

  /** POST /holds/{id}/deposit: records the deposit as paid. */
  payDeposit(id: string, body?: HoldDepositParams, options?: RequestOptions): Promise<Hold> {
    return this.call('/api/v1/holds/{id}/deposit', 'post', { path: { id }, body }, options);
  }

  /** POST /holds/{id}/convert: a trade takes over its units (the paid deposit counts toward it). */
  convert(id: string, options?: RequestOptions): Promise<Hold> {
    return this.call('/api/v1/holds/{id}/convert', 'post', { path: { id } }, options);
  }

  /** POST /holds/{id}/release: its units are available again. */
  release(id: string, body?: HoldReleaseParams, options?: RequestOptions): Promise<Hold> {
    return this.call('/api/v1/holds/{id}/release', 'post', { path: { id }, body }, options);
  }
}
