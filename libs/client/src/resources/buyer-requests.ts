// buyerRequests: buyer demand — capture, read, change, archive, and the matches found for it.
import type { PagePromise } from '../core/pagination';
import type {
  BuyerRequest,
  BuyerRequestArchiveParams,
  BuyerRequestCreateParams,
  BuyerRequestListParams,
  BuyerRequestUpdateParams,
  CreatedBuyerRequest,
  Match,
  MatchListParams,
} from '../types';
import { type RequestOptions, Resource } from './resource';

export class BuyerRequests extends Resource {
  /** POST /buyer-requests: matched against inventory at once; answers the id and the match count. */
  create(body: BuyerRequestCreateParams, options?: RequestOptions): Promise<CreatedBuyerRequest> {
    return this.call('/api/v1/buyer-requests', 'post', { body }, options);
  }

  /** GET /buyer-requests, newest first. */
  list(query?: BuyerRequestListParams, options?: RequestOptions): PagePromise<BuyerRequest> {
    return this.listRoute('/api/v1/buyer-requests', { query }, options);
  }

  /** GET /buyer-requests/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<BuyerRequest> {
    return this.call('/api/v1/buyer-requests/{id}', 'get', { path: { id } }, options);
  }

  /** PATCH /buyer-requests/{id}: new criteria are matched at once. */
  update(id: string, body: BuyerRequestUpdateParams, options?: RequestOptions): Promise<BuyerRequest> {
    return this.call('/api/v1/buyer-requests/{id}', 'patch', { path: { id }, body }, options);
  }

  /** POST /buyer-requests/{id}/archive: it never matches again (archiving twice changes nothing). */
  archive(id: string, body?: BuyerRequestArchiveParams, options?: RequestOptions): Promise<BuyerRequest> {
    return this.call('/api/v1/buyer-requests/{id}/archive', 'post', { path: { id }, body }, options);
  }

  /** GET /buyer-requests/{id}/matches, best first. */
  listMatches(id: string, query?: MatchListParams, options?: RequestOptions): PagePromise<Match> {
    return this.listRoute('/api/v1/buyer-requests/{id}/matches', { path: { id }, query }, options);
  }
}
