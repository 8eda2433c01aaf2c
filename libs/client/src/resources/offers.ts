// offers: negotiation on an item — make an offer, accept, counter or reject it.
import type { PagePromise } from '../core/pagination';
import type { Offer, OfferAcceptParams, OfferCounterParams, OfferCreateParams, OfferListParams, OfferRejectParams } from '../types';
import { type RequestOptions, Resource } from './resource';

export class Offers extends Resource {
  /** POST /offers. */
  create(body: OfferCreateParams, options?: RequestOptions): Promise<Offer> {
    return this.call('/api/v1/offers', 'post', { body }, options);
  }

  /** GET /offers (by item, buyer request, thread or status). */
  list(query?: OfferListParams, options?: RequestOptions): PagePromise<Offer> {
    return this.listRoute('/api/v1/offers', { query }, options);
  }

  /** GET /offers/{id}: with its thread. */
  retrieve(id: string, options?: RequestOptions): Promise<Offer> {
    return this.call('/api/v1/offers/{id}', 'get', { path: { id } }, options);
  }

  /** POST /offers/{id}/accept: opens the trade (its id is on the offer). */
  accept(id: string, body?: OfferAcceptParams, options?: RequestOptions): Promise<Offer> {
    return this.call('/api/v1/offers/{id}/accept', 'post', { path: { id }, body }, options);
  }

  /** POST /offers/{id}/counter: this offer closes as `countered`; the counter-offer (`counterOfferId`) opens in its thread. */
  counter(id: string, body: OfferCounterParams, options?: RequestOptions): Promise<Offer> {
    return this.call('/api/v1/offers/{id}/counter', 'post', { path: { id }, body }, options);
  }

  /** POST /offers/{id}/reject. */
  reject(id: string, body?: OfferRejectParams, options?: RequestOptions): Promise<Offer> {
    return this.call('/api/v1/offers/{id}/reject', 'post', { path: { id }, body }, options);
  }
}
