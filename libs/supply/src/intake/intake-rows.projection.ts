// Read model of intake rows: one document per row (`${sessionId}:${row}`), so a 10,000-row session
// pages its rows instead of being one huge document, and the push's row → item ids in chunks of
// PUSHED_ITEMS_PER_DOC rows (a handful of writes per push, not one per row). Many documents per
// session, so not a one-document-per-stream projection the write can bring up: it follows the log
// asynchronously, and the rows route waits for it (by name) up to the session document it answers
// with. What an event makes is a pure function of it (`rowDocumentsOf`); the documents a row or a
// push makes never change, so applying an event again writes the same documents.
import { type Doc, type RecordedEvent, view, type ViewProjection, viewProjection } from '@app/platform';

import { INGESTION_EVENT_TYPES, type IntakeRow, parseIngestionEvent, type RowChanges, type RowFields, type RowIssue, type RowStatus } from './intake.events';

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

/** The documents an event makes: its rows, or the push's row → item chunks. */
export interface RowDocuments {
  rows: IngestionRowDoc[];
  pushedItems: IngestionPushedItemsDoc[];
}

/** Pure: what one intake event writes to the rows model (nothing for a session's creation). */
export function rowDocumentsOf(recorded: RecordedEvent): RowDocuments {
  const event = parseIngestionEvent(recorded);
  const workspaceId = recorded.metadata.workspaceId;
  switch (event.type) {
    case 'ingestion.session_created':
      return { rows: [], pushedItems: [] };
    case 'ingestion.rows_added':
      return { rows: event.data.rows.map((row) => toRowDoc(event.data.sessionId, workspaceId, row)), pushedItems: [] };
    case 'ingestion.pushed': {
      const d = event.data;
      const chunks = new Map<string, Record<string, string>>();
      for (const [i, row] of d.pushedRows.entries()) {
        const id = pushedItemsId(d.sessionId, row);
        const items = chunks.get(id) ?? {};
        items[String(row)] = d.inventoryItemIds[i];
        chunks.set(id, items);
      }
      return { rows: [], pushedItems: [...chunks].map(([id, items]) => ({ id, sessionId: d.sessionId, workspaceId, items })) };
    }
    default: {
      const never: never = event;
      throw new Error(`Unhandled ingestion event ${JSON.stringify(never)}`);
    }
  }
}

export const ingestionRowsProjection: ViewProjection = viewProjection({
  name: 'ingestion_rows',
  version: 1,
  collections: [INGESTION_ROWS, INGESTION_PUSHED_ITEMS],
  eventTypes: INGESTION_EVENT_TYPES.filter((type) => type !== 'ingestion.session_created'),
  *evolve(event) {
    const { rows, pushedItems } = rowDocumentsOf(event);
    for (const doc of rows) yield* view.put<IngestionRowDoc>(INGESTION_ROWS, doc);
    for (const doc of pushedItems) yield* view.put<IngestionPushedItemsDoc>(INGESTION_PUSHED_ITEMS, doc);
  },
});
