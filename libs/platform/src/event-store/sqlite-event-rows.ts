// The SQLite event log's table: its layout, a row as stored and as recorded, the expected-revision
// rule an append checks, and the SQL of a read of the log from a position (with its filter).
import type { SQLInputValue } from 'node:sqlite';

import { limitClause } from '../sqlite/statement-cache';
import { type AppendOptions, type EventFilter, type RecordedEvent, WrongExpectedRevisionError } from './event-store.port';

export interface EventRow {
  position: number;
  id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  created_at: string;
}

export const EVENTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position   INTEGER PRIMARY KEY, -- the rowid: events are never deleted, so it only grows
  id         TEXT NOT NULL UNIQUE,
  stream_id  TEXT NOT NULL,
  revision   INTEGER NOT NULL,
  type       TEXT NOT NULL,
  data       TEXT NOT NULL,
  metadata   TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (stream_id, revision)
);
CREATE INDEX IF NOT EXISTS events_by_type ON events (type, position);
`;

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
    streamId: row.stream_id,
    revision: row.revision,
    position: row.position,
    createdAt: row.created_at,
  };
}

export function assertExpected(
  streamId: string,
  expected: AppendOptions['expectedRevision'],
  actual: number | 'no_stream',
): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && actual === 'no_stream') ||
    (expected === 'stream_exists' && actual !== 'no_stream') ||
    (typeof expected === 'number' && expected === actual);
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, actual);
}

/**
 * The SQL of a read of the log after `fromPosition`, at most `limit` events of the filter; null
 * when the filter matches nothing (an empty list of types or prefixes).
 */
export function readAllQuery(fromPosition: number, limit: number, filter?: EventFilter): { sql: string; params: SQLInputValue[] } | null {
  const where = ['position > ?'];
  const params: SQLInputValue[] = [fromPosition];
  if (filter?.types) {
    if (filter.types.length === 0) return null;
    where.push(`type IN (${filter.types.map(() => '?').join(', ')})`);
    params.push(...filter.types);
  }
  if (filter?.streamPrefixes) {
    if (filter.streamPrefixes.length === 0) return null;
    where.push(`(${filter.streamPrefixes.map(() => 'substr(stream_id, 1, ?) = ?').join(' OR ')})`);
    for (const prefix of filter.streamPrefixes) params.push(prefix.length, prefix);
  }
  // The limit is a literal: a bound one would have SQLite plan the query again on every read.
  return { sql: `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY position ${limitClause(limit)}`, params };
}
