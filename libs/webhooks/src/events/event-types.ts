// Event type names given by a client (webhook subscriptions, filters, replays) must be in the
// public catalogue the app was composed with. Checked below the HTTP layer, where the catalogue is
// injected, with the answer request validation gives: 400 VALIDATION_FAILED naming the field.
import type { PublicEventCatalogue } from '@app/platform';
import { DomainError } from '@app/platform/domain';

export const UNKNOWN_EVENT_TYPE = 'Unknown event type: see GET /api/v1/event-types';

/**
 * Throws VALIDATION_FAILED for the first type the catalogue lacks. `field` names where the types
 * came from (`events`, `types`, `eventType`); a list's entries are named `field.<index>`.
 */
export function assertPublicEventTypes(
  catalogue: PublicEventCatalogue,
  part: 'body' | 'query',
  field: string,
  types: string | readonly string[] | undefined,
): void {
  if (types === undefined) return;
  const list = typeof types === 'string' ? [{ path: field, type: types }] : types.map((type, i) => ({ path: `${field}.${i}`, type }));
  const issues = list.filter((t) => !catalogue.has(t.type)).map((t) => ({ path: t.path, message: UNKNOWN_EVENT_TYPE }));
  if (issues.length > 0) throw DomainError.validation(`Invalid ${part} field "${issues[0].path}": ${UNKNOWN_EVENT_TYPE}`, issues);
}
