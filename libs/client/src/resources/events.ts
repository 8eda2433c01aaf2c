// events: the workspace's public events, read from the log — the envelopes webhooks deliver, with
// the same `evt_` ids.
import type { PagePromise } from '../core/pagination';
import type { CommerceEvent, EventListParams } from '../types';
import { type RequestOptions, Resource } from './resource';

export class Events extends Resource {
  /** GET /events, newest first (`type`, `from`, `to` filter). */
  list(query?: EventListParams, options?: RequestOptions): PagePromise<CommerceEvent> {
    return this.listRoute('/api/v1/events', { query }, options);
  }
}
