// secureTrades: trades (the spec's "secure trades") — open one, read it with its timeline, move it
// through its statuses: initiated → paid → shipped → delivered → completed → settled, or cancelled
// and disputed. A move the status does not allow throws `InvalidTransitionError` (`from`, `to`, `allowed`).
import type { PagePromise } from '../core/pagination';
import type { Trade, TradeCreateParams, TradeListParams, TradeTransitionParams } from '../types';
import { type RequestOptions, Resource } from './resource';

export class SecureTrades extends Resource {
  /**
   * POST /trades: from a `matchId`, an `inventoryItemId` (and optionally `buyerRequestId`), or an
   * accepted `offerId` (answers the trade its acceptance opened).
   */
  create(body: TradeCreateParams, options?: RequestOptions): Promise<Trade> {
    return this.call('/api/v1/trades', 'post', { body }, options);
  }

  /** GET /trades, newest first: `for await (const trade of api.secureTrades.list({ status: 'paid' }))`. */
  list(query?: TradeListParams, options?: RequestOptions): PagePromise<Trade> {
    return this.listRoute('/api/v1/trades', { query }, options);
  }

  /** GET /trades/{id}: with its allowed transitions and its timeline. */
  retrieve(id: string, options?: RequestOptions): Promise<Trade> {
    return this.call('/api/v1/trades/{id}', 'get', { path: { id } }, options);
  }

  /** POST /trades/{id}/transitions: `{ to: 'shipped', carrier, trackingNumber }`, `{ to: 'disputed', reason }`, … */
  transition(id: string, body: TradeTransitionParams, options?: RequestOptions): Promise<Trade> {
    return this.call('/api/v1/trades/{id}/transitions', 'post', { path: { id }, body }, options);
  }
}
