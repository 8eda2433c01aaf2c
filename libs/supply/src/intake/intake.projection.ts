// Read model of intake sessions: one document per session (with its counts and push result), one
// per row (`${sessionId}:${row}`), so a 10,000-row session pages its rows instead of being one huge
// document, and the push's row → item ids in chunks of PUSHED_ITEMS_PER_DOC rows (a handful of
// writes per push, not one per row). Idempotent: the session document keeps the stream revision it
// reflects, and everything else is written in the same transaction.
import type { Collection, Doc, Projection, ReadStore, RecordedEvent, StreamDoc } from '@app/platform';

import {
  type IntakeRow,
  INGESTION_EVENT_TYPES,
  parseIngestionEvent,
  type RowChanges,
  type RowFields,
  type RowIssue,
  type RowStatus,
} from './intake.events';

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
}

export interface IngestionRowDoc extends Doc {
  sessionId: string;
  workspaceId: string;
  row: number;
  status: RowStatus;
  raw: IntakeRow['raw'];
  fields: RowFields;
  changes: RowChanges;
  confidence: number;
  issues: RowIssue[];
}

/** The items a push created for rows `chunk * PUSHED_ITEMS_PER_DOC + 1 …` of a session. */
export interface IngestionPushedItemsDoc extends Doc {
  sessionId: string;
  workspaceId: string;
  /** Row number → inventory item id, for the pushed rows of the chunk. */
  items: Record<string, string>;
}

export const PUSHED_ITEMS_PER_DOC = 1000;

export const INGESTION_SESSIONS = {
  name: 'ingestion_sessions',
  indexes: [{ name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] }],
} as const;

export const INGESTION_ROWS = {
  name: 'ingestion_rows',
  indexes: [
    { name: 'by_session_row', fields: [['sessionId', 1], ['row', 1], ['id', 1]] },
    { name: 'by_session_status_row', fields: [['sessionId', 1], ['status', 1], ['row', 1], ['id', 1]] },
  ],
} as const;

export const INGESTION_PUSHED_ITEMS = { name: 'ingestion_pushed_items', indexes: [] } as const;

export const ingestionRowId = (sessionId: string, row: number) => `${sessionId}:${row}`;
export const pushedItemsId = (sessionId: string, row: number) => `${sessionId}:${Math.floor((row - 1) / PUSHED_ITEMS_PER_DOC)}`;

export function toRowDoc(sessionId: string, workspaceId: string, row: IntakeRow): IngestionRowDoc {
  return {
    id: ingestionRowId(sessionId, row.row),
    sessionId,
    workspaceId,
    row: row.row,
    status: row.status,
    raw: row.raw,
    fields: row.fields,
    changes: row.changes,
    confidence: row.confidence,
    issues: row.issues,
  };
}

async function apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
  const sessions: Collection<IngestionSessionDoc> = store.collection<IngestionSessionDoc>(INGESTION_SESSIONS);
  const rows: Collection<IngestionRowDoc> = store.collection<IngestionRowDoc>(INGESTION_ROWS);
  const pushedItems: Collection<IngestionPushedItemsDoc> = store.collection<IngestionPushedItemsDoc>(INGESTION_PUSHED_ITEMS);
  const event = parseIngestionEvent(recorded);
  const session = await sessions.get(event.data.sessionId);
  if (session && session.revision >= recorded.revision) return;
  switch (event.type) {
    case 'ingestion.session_created': {
      const d = event.data;
      await sessions.put({
        id: d.sessionId,
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
      });
      return;
    }
    case 'ingestion.rows_added': {
      if (!session) return;
      const d = event.data;
      const counts = { ...session.counts };
      for (const row of d.rows) {
        await rows.put(toRowDoc(d.sessionId, session.workspaceId, row));
        counts.total += 1;
        counts[row.status] += 1;
      }
      await sessions.put({ ...session, revision: recorded.revision, counts, updatedAt: d.addedAt });
      return;
    }
    case 'ingestion.pushed': {
      if (!session) return;
      const d = event.data;
      const chunks = new Map<string, Record<string, string>>();
      for (const [i, row] of d.pushedRows.entries()) {
        const id = pushedItemsId(d.sessionId, row);
        const items = chunks.get(id) ?? {};
        items[String(row)] = d.inventoryItemIds[i];
        chunks.set(id, items);
      }
      for (const [id, items] of chunks) await pushedItems.put({ id, sessionId: d.sessionId, workspaceId: session.workspaceId, items });
      await sessions.put({
        ...session,
        revision: recorded.revision,
        status: 'pushed',
        counts: { ...session.counts, pushed: d.pushed },
        push: {
          pushed: d.pushed,
          skipped: d.skipped,
          matchedBuyerRequests: d.matchedBuyerRequests,
          skippedRows: d.skippedRows,
          rejections: d.rejections,
          pushedAt: d.pushedAt,
        },
        updatedAt: d.pushedAt,
      });
      return;
    }
    default: {
      const never: never = event;
      throw new Error(`Unhandled ingestion event ${JSON.stringify(never)}`);
    }
  }
}

export const ingestionSessionProjection: Projection = {
  name: 'ingestion_sessions',
  version: 1,
  collections: [INGESTION_SESSIONS, INGESTION_ROWS, INGESTION_PUSHED_ITEMS],
  eventTypes: INGESTION_EVENT_TYPES,
  apply,
};
