// liveSessions: live selling — a session goes scheduled → live → ended; its lots open and close,
// buyers place reserves on an open lot. The lots are methods of this group, named for them
// (`addLot`, `listLots`, …), each taking the session id first.
import type { PagePromise } from '../core/pagination';
import type {
  LiveSession,
  LiveSessionCreateParams,
  LiveSessionListParams,
  Lot,
  LotCreateParams,
  LotListParams,
  Reserve,
  ReserveCreateParams,
  ReserveListParams,
} from '../types';
import { type RequestOptions, Resource } from './resource';

export class LiveSessions extends Resource {
  /** POST /live-sessions: created `scheduled`. */
  create(body: LiveSessionCreateParams, options?: RequestOptions): Promise<LiveSession> {
    return this.call('/api/v1/live-sessions', 'post', { body }, options);
  }

  /** GET /live-sessions. */
  list(query?: LiveSessionListParams, options?: RequestOptions): PagePromise<LiveSession> {
    return this.listRoute('/api/v1/live-sessions', { query }, options);
  }

  /** GET /live-sessions/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<LiveSession> {
    return this.call('/api/v1/live-sessions/{id}', 'get', { path: { id } }, options);
  }

  /** POST /live-sessions/{id}/start: scheduled → live. */
  start(id: string, options?: RequestOptions): Promise<LiveSession> {
    return this.call('/api/v1/live-sessions/{id}/start', 'post', { path: { id } }, options);
  }

  /** POST /live-sessions/{id}/end: live → ended. */
  end(id: string, options?: RequestOptions): Promise<LiveSession> {
    return this.call('/api/v1/live-sessions/{id}/end', 'post', { path: { id } }, options);
  }

  /** POST /live-sessions/{id}/lots: an inventory item offered in the session (`pending` until opened). */
  addLot(id: string, body: LotCreateParams, options?: RequestOptions): Promise<Lot> {
    return this.call('/api/v1/live-sessions/{id}/lots', 'post', { path: { id }, body }, options);
  }

  /** GET /live-sessions/{id}/lots. */
  listLots(id: string, query?: LotListParams, options?: RequestOptions): PagePromise<Lot> {
    return this.listRoute('/api/v1/live-sessions/{id}/lots', { path: { id }, query }, options);
  }

  /** GET /live-sessions/{id}/lots/{lotId}. */
  retrieveLot(id: string, lotId: string, options?: RequestOptions): Promise<Lot> {
    return this.call('/api/v1/live-sessions/{id}/lots/{lotId}', 'get', { path: { id, lotId } }, options);
  }

  /** POST /live-sessions/{id}/lots/{lotId}/open: reserves are taken. */
  openLot(id: string, lotId: string, options?: RequestOptions): Promise<Lot> {
    return this.call('/api/v1/live-sessions/{id}/lots/{lotId}/open', 'post', { path: { id, lotId } }, options);
  }

  /** POST /live-sessions/{id}/lots/{lotId}/close: its winners are final; each gets a hold (or a trade) shortly after. */
  closeLot(id: string, lotId: string, options?: RequestOptions): Promise<Lot> {
    return this.call('/api/v1/live-sessions/{id}/lots/{lotId}/close', 'post', { path: { id, lotId } }, options);
  }

  /** POST /live-sessions/{id}/lots/{lotId}/reserves: a `ConflictError` coded RESERVE_TOO_LOW under the lowest acceptable amount. */
  placeReserve(id: string, lotId: string, body: ReserveCreateParams, options?: RequestOptions): Promise<Reserve> {
    return this.call('/api/v1/live-sessions/{id}/lots/{lotId}/reserves', 'post', { path: { id, lotId }, body }, options);
  }

  /** GET /live-sessions/{id}/lots/{lotId}/reserves. */
  listReserves(id: string, lotId: string, query?: ReserveListParams, options?: RequestOptions): PagePromise<Reserve> {
    return this.listRoute('/api/v1/live-sessions/{id}/lots/{lotId}/reserves', { path: { id, lotId }, query }, options);
  }
}
