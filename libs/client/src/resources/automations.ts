// automations: rules that act on events (accept or counter offers, place holds, reprice, …) —
// create, list, read, change, delete (archive), dry-run on a stored event, and their runs.
import type { PagePromise } from '../core/pagination';
import type {
  Automation,
  AutomationCreateParams,
  AutomationListParams,
  AutomationRun,
  AutomationRunListParams,
  AutomationTest,
  AutomationTestParams,
  AutomationUpdateParams,
} from '../types';
import { type RequestOptions, Resource } from './resource';

export class Automations extends Resource {
  /** POST /automations: fires on the events after it. */
  create(body: AutomationCreateParams, options?: RequestOptions): Promise<Automation> {
    return this.call('/api/v1/automations', 'post', { body }, options);
  }

  /** GET /automations, newest first (archived ones too). */
  list(query?: AutomationListParams, options?: RequestOptions): PagePromise<Automation> {
    return this.listRoute('/api/v1/automations', { query }, options);
  }

  /** GET /automations/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<Automation> {
    return this.call('/api/v1/automations/{id}', 'get', { path: { id } }, options);
  }

  /** PATCH /automations/{id}: an archived rule is `InvalidTransitionError`. */
  update(id: string, body: AutomationUpdateParams, options?: RequestOptions): Promise<Automation> {
    return this.call('/api/v1/automations/{id}', 'patch', { path: { id }, body }, options);
  }

  /** DELETE /automations/{id}: archives the rule (it and its runs stay readable); answers it. */
  delete(id: string, options?: RequestOptions): Promise<Automation> {
    return this.call('/api/v1/automations/{id}', 'delete', { path: { id } }, options);
  }

  /** POST /automations/{id}/test `{ eventId }`: what the rule would do on that event, without doing it. */
  test(id: string, body: AutomationTestParams, options?: RequestOptions): Promise<AutomationTest> {
    return this.call('/api/v1/automations/{id}/test', 'post', { path: { id }, body }, options);
  }

  /** GET /automations/{id}/runs, newest first. */
  listRuns(id: string, query?: AutomationRunListParams, options?: RequestOptions): PagePromise<AutomationRun> {
    return this.listRoute('/api/v1/automations/{id}/runs', { path: { id }, query }, options);
  }
}
