// ingestion: batch supply through intake sessions — open a session, add rows (JSON objects or CSV
// text, normalized as they arrive), read the rows, push the session to live inventory.
import type { PagePromise } from '../core/pagination';
import type {
  AddedIngestionItems,
  IngestionItemRows,
  IngestionPushResult,
  IngestionRow,
  IngestionRowListParams,
  IngestionSession,
  IngestionSessionCreateParams,
  IngestionSessionListParams,
} from '../types';
import { type RequestOptions, Resource } from './resource';

export class Ingestion extends Resource {
  /** POST /ingestion/sessions. */
  createSession(body?: IngestionSessionCreateParams, options?: RequestOptions): Promise<IngestionSession> {
    return this.call('/api/v1/ingestion/sessions', 'post', { body }, options);
  }

  /** GET /ingestion/sessions, newest first. */
  listSessions(query?: IngestionSessionListParams, options?: RequestOptions): PagePromise<IngestionSession> {
    return this.listRoute('/api/v1/ingestion/sessions', { query }, options);
  }

  /** GET /ingestion/sessions/{id}: with its row counts. */
  retrieveSession(id: string, options?: RequestOptions): Promise<IngestionSession> {
    return this.call('/api/v1/ingestion/sessions/{id}', 'get', { path: { id } }, options);
  }

  /**
   * POST /ingestion/sessions/{id}/items: rows as an array of objects (sent as JSON), or CSV text
   * with a header row (a string: sent as `text/csv`). Answers the rows just added, normalized,
   * each with its issues, and the session's counts.
   */
  addItems(id: string, rows: IngestionItemRows | string, options?: RequestOptions): Promise<AddedIngestionItems> {
    if (typeof rows === 'string') {
      return this.call('/api/v1/ingestion/sessions/{id}/items', 'post', { path: { id }, rawBody: { contentType: 'text/csv; charset=utf-8', content: rows } }, options);
    }
    return this.call('/api/v1/ingestion/sessions/{id}/items', 'post', { path: { id }, body: rows }, options);
  }

  /** POST /ingestion/sessions/{id}/push: the valid and warning rows become inventory (and are matched). */
  push(id: string, options?: RequestOptions): Promise<IngestionPushResult> {
    return this.call('/api/v1/ingestion/sessions/{id}/push', 'post', { path: { id } }, options);
  }

  /** GET /ingestion/sessions/{id}/rows, in row order (`status` filters). */
  listRows(id: string, query?: IngestionRowListParams, options?: RequestOptions): PagePromise<IngestionRow> {
    return this.listRoute('/api/v1/ingestion/sessions/{id}/rows', { path: { id }, query }, options);
  }
}
