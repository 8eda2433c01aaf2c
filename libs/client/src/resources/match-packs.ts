// matchPacks: a buyer request's matches packed with their near misses, and the runs that pack them.
import type { PagePromise } from '../core/pagination';
import type { MatchPack, MatchPackListParams, MatchRunParams } from '../types';
import { type RequestOptions, Resource } from './resource';

export class MatchPacks extends Resource {
  /** GET /match-packs (`buyerRequestId` filters). */
  list(query?: MatchPackListParams, options?: RequestOptions): PagePromise<MatchPack> {
    return this.listRoute('/api/v1/match-packs', { query }, options);
  }

  /** GET /match-packs/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<MatchPack> {
    return this.call('/api/v1/match-packs/{id}', 'get', { path: { id } }, options);
  }

  /** POST /match-runs: matches a buyer request against the inventory now; answers the pack. */
  run(body: MatchRunParams, options?: RequestOptions): Promise<MatchPack> {
    return this.call('/api/v1/match-runs', 'post', { body }, options);
  }
}
