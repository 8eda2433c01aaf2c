// The public event catalogue: every event type a webhook may subscribe to, what it means, the
// fields of its `data` (snake_case, as in the spec's envelope) and how a stored event of that type
// becomes that `data`. Each context declares its own public events (a `*.public.ts` per aggregate);
// the composition roots put them together here, so the webhooks context knows no other context.
// Stored events of other types are internal and never leave the service.
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
}

/** A stored event as the outside world sees it: the spec's envelope. */
export interface PublicEvent {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

export const PUBLIC_EVENT_CATALOGUE = Symbol('PUBLIC_EVENT_CATALOGUE');

export class PublicEventCatalogue {
  private readonly byType = new Map<string, PublicEventType>();

  constructor(readonly entries: readonly PublicEventType[]) {
    for (const entry of entries) {
      if (this.byType.has(entry.type)) throw new Error(`Public event type ${entry.type} is declared twice`);
      this.byType.set(entry.type, entry);
    }
  }

  /** Every public type, in catalogue order. */
  types(): string[] {
    return this.entries.map((e) => e.type);
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  /** The public `data` of a stored event; null for internal types and types nobody emits yet. */
  data(event: RecordedEvent): Record<string, unknown> | null {
    return this.byType.get(event.type)?.toData?.(event) ?? null;
  }

  /** The envelope delivered and listed for a stored event; null when it is not public. */
  envelope(event: RecordedEvent): PublicEvent | null {
    const data = this.data(event);
    if (!data) return null;
    return { id: publicEventId(event.id), type: event.type, created_at: event.createdAt, workspace_id: event.metadata.workspaceId, data };
  }
}
