// The public event catalogue: every event type a webhook may subscribe to, what it means, the
// fields of its `data` (snake_case, as in the spec's envelope) and how stored events become that
// `data`. Each context declares its own public events (a `*.public.ts` per aggregate); the
// composition roots put them together here, so the webhooks context knows no other context.
// Stored events of other types are internal and never leave the service.
//
// Most stored events are one public event each, of their own type (`toData`), whose public id is
// the stored event's (`evt_` + its uuid). Some stored events stand for several public events — a
// buyer request's matches recorded in one write are one stored event, and each match is still its
// own `match.created` — declared by the public types as `fanOut` from that stored type. The public
// events of such a stored event come in catalogue order (the types' declaration order, then each
// type's own order), and the i-th one's id is derived from the stored event's id and i
// (`fannedOutEventId`): stable, distinct, the same on every read of the log, so a redelivery or a
// replay of it is the same event and every exactly-once keyed on a public id (deliveries,
// automation runs) holds per public event.
import { createHash } from 'node:crypto';

import { publicEventId, type RecordedEvent } from '../event-store/event-store.port';

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'string|null' | 'number|null';

export interface EventField {
  type: FieldType;
  description: string;
}

export const eventField = (type: FieldType, description: string): EventField => ({ type, description });

export interface PublicEventType {
  type: string;
  description: string;
  data: Readonly<Record<string, EventField>>;
  /**
   * The public `data` of a stored event of this type, exactly the declared fields. Absent while no
   * context emits the type yet (it is catalogued, so webhooks may already subscribe to it).
   */
  toData?(event: RecordedEvent): Record<string, unknown>;
  /**
   * Stored (internal) types whose events stand for any number of public events of this type: by
   * stored type, the `data` of each, in order (none: an empty list).
   */
  fanOut?: Readonly<Record<string, (event: RecordedEvent) => ReadonlyArray<Record<string, unknown>>>>;
}

/** A stored event as the outside world sees it: the spec's envelope. */
export interface PublicEvent {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

/** One public event a stored event stands for. */
export interface PublicEventOf {
  /**
   * Its key, uuid-shaped: the stored event's id when the stored event is this one public event,
   * derived from it and `index` for a fan-out (`fannedOutEventId`). The public id is `publicEventId(eventId)`.
   */
  eventId: string;
  /** Its place among the public events of its stored event (0 for a one-to-one type). */
  index: number;
  type: string;
  data: Record<string, unknown>;
}

/**
 * The key of the `index`-th public event of the fanned-out stored event `storedEventId`: a uuid of
 * version 8 (custom) — so never a stored event's own id (those are v4 or v7) — whose first 16 bits
 * are `index` and the rest a SHA-256 of both; its public id has the usual form (`evt_` + 32 hex
 * digits). The index first: the public events of one stored event share its position and time,
 * and lists ordered by (time, position, id) keep them in their order, as when each was stored alone.
 */
export function fannedOutEventId(storedEventId: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > 0xffff) throw new Error(`A stored event fans out to at most 65,536 public events (index ${index})`);
  const hex = (index.toString(16).padStart(4, '0') + createHash('sha256').update(`${storedEventId}#${index}`).digest('hex').slice(0, 28)).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const PUBLIC_EVENT_CATALOGUE = Symbol('PUBLIC_EVENT_CATALOGUE');

type FanOut = ReadonlyArray<{ type: string; toData: (event: RecordedEvent) => ReadonlyArray<Record<string, unknown>> }>;

export class PublicEventCatalogue {
  private readonly byType = new Map<string, PublicEventType>();
  /** By stored type: the public types its events fan out to, in catalogue order. */
  private readonly fanOuts = new Map<string, FanOut>();

  constructor(readonly entries: readonly PublicEventType[]) {
    for (const entry of entries) {
      if (this.byType.has(entry.type)) throw new Error(`Public event type ${entry.type} is declared twice`);
      this.byType.set(entry.type, entry);
    }
    for (const entry of entries) {
      for (const [storedType, toData] of Object.entries(entry.fanOut ?? {})) {
        if (this.byType.has(storedType)) throw new Error(`Stored type ${storedType} is a public type: it cannot also fan out`);
        this.fanOuts.set(storedType, [...(this.fanOuts.get(storedType) ?? []), { type: entry.type, toData }]);
      }
    }
  }

  /** Every public type, in catalogue order. */
  types(): string[] {
    return this.entries.map((e) => e.type);
  }

  /** Every stored type whose events are (or may one day be) public: what a reader of the public events subscribes to. */
  storedTypes(): string[] {
    return [...this.types(), ...this.fanOuts.keys()];
  }

  /** The stored types some context maps to public events today. */
  deliveredStoredTypes(): string[] {
    return [...this.entries.filter((e) => e.toData).map((e) => e.type), ...this.fanOuts.keys()];
  }

  /** The public types events of `storedType` may stand for (none: internal). */
  publicTypesOf(storedType: string): string[] {
    const fanOut = this.fanOuts.get(storedType);
    if (fanOut) return fanOut.map((f) => f.type);
    return this.byType.get(storedType)?.toData ? [storedType] : [];
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  /** The public events a stored event stands for, in order; none for internal types and types nobody emits yet. */
  publicEvents(event: RecordedEvent): PublicEventOf[] {
    const fanOut = this.fanOuts.get(event.type);
    if (!fanOut) {
      const data = this.byType.get(event.type)?.toData?.(event);
      return data ? [{ eventId: event.id, index: 0, type: event.type, data }] : [];
    }
    const out: PublicEventOf[] = [];
    for (const { type, toData } of fanOut) {
      for (const data of toData(event)) out.push({ eventId: fannedOutEventId(event.id, out.length), index: out.length, type, data });
    }
    return out;
  }

  /** The envelopes delivered and listed for a stored event, in order; none when it is not public. */
  envelopes(event: RecordedEvent): PublicEvent[] {
    return this.publicEvents(event).map((p) => envelopeOf(event, p));
  }
}

/** The envelope of the public event `p` of the stored `event`. */
export function envelopeOf(event: RecordedEvent, p: PublicEventOf): PublicEvent {
  return { id: publicEventId(p.eventId), type: p.type, created_at: event.createdAt, workspace_id: event.metadata.workspaceId, data: p.data };
}
