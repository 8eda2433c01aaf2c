// Read model of intake sessions: one document per session, with its row counts and push result —
// what the session's GET and list read, brought up to date by the write itself. The rows and the
// push's row → item ids are many documents per session: intake-rows.projection.ts.
import { documentProjection, streamEntityId, type StreamDoc } from '@app/platform';

import { INGESTION_EVENT_TYPES, parseIngestionEvent } from './intake.events';

export interface IngestionCounts {
  total: number;
  valid: number;
  warning: number;
  error: number;
  pushed: number;
}

export interface IngestionPushSummary {
  pushed: number;
  skipped: number;
  matchedBuyerRequests: number;
  skippedRows: number[];
  rejections: Array<{ row: number; message: string }>;
  pushedAt: string;
}

export interface IngestionSessionDoc extends StreamDoc {
  workspaceId: string;
  name: string | null;
  source: string | null;
  defaultCurrency: string;
  status: 'open' | 'pushed';
  counts: IngestionCounts;
  push: IngestionPushSummary | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The log position of the session's last event: the rows model (which follows the log on its
   * own) shows every row this document counts once it has applied the log up to here. Absent on
   * documents projected before: nothing to wait for.
   */
  position?: number;
}

export const INGESTION_SESSIONS = {
  name: 'ingestion_sessions',
  indexes: [{ name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] }],
} as const;

export const ingestionSessionProjection = documentProjection<IngestionSessionDoc>({
  name: 'ingestion_sessions',
  version: 1,
  // The session routes' own read model: the write that changes a session brings it up to date.
  inline: true,
  collection: INGESTION_SESSIONS,
  eventTypes: INGESTION_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseIngestionEvent(recorded);
    switch (event.type) {
      case 'ingestion.session_created': {
        const d = event.data;
        return {
          id: streamEntityId(recorded.streamId),
          revision: recorded.revision,
          workspaceId: d.workspaceId,
          name: d.name,
          source: d.source,
          defaultCurrency: d.defaultCurrency,
          status: 'open',
          counts: { total: 0, valid: 0, warning: 0, error: 0, pushed: 0 },
          push: null,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          position: recorded.position,
        };
      }
      case 'ingestion.rows_added': {
        if (!doc) return null;
        const counts = { ...doc.counts };
        for (const row of event.data.rows) {
          counts.total += 1;
          counts[row.status] += 1;
        }
        return { ...doc, counts, updatedAt: event.data.addedAt, position: recorded.position };
      }
      case 'ingestion.pushed': {
        if (!doc) return null;
        const d = event.data;
        return {
          ...doc,
          status: 'pushed',
          counts: { ...doc.counts, pushed: d.pushed },
          push: {
            pushed: d.pushed,
            skipped: d.skipped,
            matchedBuyerRequests: d.matchedBuyerRequests,
            skippedRows: d.skippedRows,
            rejections: d.rejections,
            pushedAt: d.pushedAt,
          },
          updatedAt: d.pushedAt,
          position: recorded.position,
        };
      }
      default: {
        const never: never = event;
        throw new Error(`Unhandled ingestion event ${JSON.stringify(never)}`);
      }
    }
  },
});
