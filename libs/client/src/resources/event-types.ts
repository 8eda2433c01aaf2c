// eventTypes: the event catalogue — every type a webhook can subscribe to, what it means and the
// fields of its `data`.
import type { PagePromise } from '../core/pagination';
import type { EventType } from '../types';
import { type RequestOptions, Resource } from './resource';

export class EventTypes extends Resource {
  /** GET /event-types: the whole catalogue in one answer, as a single page (it awaits and iterates like every list). */
  list(options?: RequestOptions): PagePromise<EventType> {
    return this.singlePage('/api/v1/event-types', {}, options);
  }
}
