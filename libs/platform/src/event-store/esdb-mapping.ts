// Conversions between the EventStore port's types and EventStoreDB's: expected revisions,
// positions, server-side filters, and recorded events read back.
import {
  ANY,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  eventTypeFilter,
  excludeSystemEvents,
  type Filter,
  type JSONType,
  type MetadataType,
  NO_STREAM,
  type Position,
  type ResolvedEvent,
  STREAM_EXISTS,
  streamNameFilter,
} from '@eventstore/db-client';

import { type EventFilter, type EventMetadata, type ExpectedRevision, matchesFilter, type RecordedEvent } from './event-store.port';

export function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  if (expected === 'any') return ANY;
  return BigInt(expected);
}

/** Exclusive lower bound; 0 means "from the beginning", which on ESDB includes position 0. */
export function startAfter(fromPosition: number | undefined): number {
  return fromPosition !== undefined && fromPosition > 0 ? fromPosition : -1;
}

export function toEsdbPosition(position: number): Position {
  return { commit: BigInt(position), prepare: BigInt(position) };
}

/** ESDB reports "no position" as the maximal uint64; we treat anything unsafe as unknown. */
export function safePosition(position: bigint | undefined): number | undefined {
  return position === undefined || position > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(position);
}

export function positionOf(resolved: ResolvedEvent | AllStreamResolvedEvent): number | undefined {
  return safePosition(resolved.event?.position?.commit ?? resolved.commitPosition);
}

/** Types and stream prefixes cannot be combined server-side: the client re-checks both anyway. */
export function serverFilter(filter: EventFilter | undefined): Filter {
  if (filter?.streamPrefixes?.length) return streamNameFilter({ prefixes: [...filter.streamPrefixes] });
  if (filter?.types?.length) {
    const alternatives = filter.types.map((type) => type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return eventTypeFilter({ regex: `^(?:${alternatives.join('|')})$` });
  }
  return excludeSystemEvents();
}

/** Our event, or undefined for system events (`$…`) and events outside the filter. */
export function toUserEvent(resolved: ResolvedEvent | AllStreamResolvedEvent, filter?: EventFilter): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) return undefined;
  if (!matchesFilter(event, filter)) return undefined;
  return {
    id: event.id,
    type: event.type,
    data: event.isJson ? event.data : Buffer.from(event.data).toString('utf8'),
    metadata: toMetadata(event.metadata),
    streamId: event.streamId,
    revision: Number(event.revision),
    position: positionOf(resolved) ?? -1,
    createdAt: event.created.toISOString(),
  };
}

export function toJson(data: unknown): JSONType {
  if (typeof data === 'string' || Array.isArray(data) || isRecord(data)) return data;
  throw new TypeError('Event data must be a JSON object, array or string');
}

export function toMetadata(metadata: MetadataType | undefined): EventMetadata {
  // Written by `append` from an EventMetadata, so a JSON object here is one.
  if (isRecord(metadata)) return metadata as EventMetadata;
  return { workspaceId: '', schemaVersion: 0 };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
