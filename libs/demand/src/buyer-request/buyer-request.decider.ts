// Buyer requests: demand signals and the matches found for them. The request remembers which
// inventory items it was matched with, so every way of finding matches (at creation, on update,
// by reverse matching, by a match run) records each pair once, however often it is replayed.
// The buyer a request names reaches the decider only sealed (the handlers seal it): the decider
// records it, and a change of buyer alone is an update that never touches matching.
import { type FoundMatch, type MatchKind, MAX_MATCHES_PER_KIND } from '@app/contracts';
import { type Decider, DomainError } from '@app/platform/domain';

import type { BuyerRequestCriteria, BuyerRequestEvent, NewlyFullMatch, RecordedNewMatch, TypedInput } from './buyer-request.events';

export interface CreateBuyerRequest {
  type: 'CreateBuyerRequest';
  buyerRequestId: string;
  criteria: BuyerRequestCriteria;
  input: TypedInput;
  matches: readonly FoundMatch[];
  /** The log position the instant check saw inventory up to. */
  matchedThrough: number;
  /** The buyer, sealed; null or absent: none. */
  buyerSealed?: string | null;
  /** The widget's buyer (`buyer_…`) and their contact sealed with their own key; null or absent: none. */
  buyerId?: string | null;
  contactSealed?: string | null;
  now: Date;
}

export interface UpdateBuyerRequest {
  type: 'UpdateBuyerRequest';
  /** The whole criteria after the change. */
  criteria: BuyerRequestCriteria;
  input: Partial<TypedInput>;
  /** Full matches for the new criteria (recorded when new, and only when the criteria change). */
  matches: readonly FoundMatch[];
  matchedThrough: number;
  /**
   * The buyer to keep, sealed (null: none); absent leaves it as it is. Sealing is randomized, so
   * the handler gives one only when the buyer differs from the one the request names.
   */
  buyerSealed?: string | null;
  now: Date;
}

export interface ArchiveBuyerRequest {
  type: 'ArchiveBuyerRequest';
  reason: string | null;
  now: Date;
}

export interface RecordMatches {
  type: 'RecordMatches';
  matches: readonly FoundMatch[];
  now: Date;
}

export type BuyerRequestCommand = CreateBuyerRequest | UpdateBuyerRequest | ArchiveBuyerRequest | RecordMatches;

export interface RecordedMatch {
  matchId: string;
  kind: MatchKind;
}

export type BuyerRequestState =
  | { status: 'none' }
  | {
      status: 'active' | 'archived';
      buyerRequestId: string;
      criteria: BuyerRequestCriteria;
      /** The buyer, sealed; null when the request names none. */
      buyerSealed: string | null;
      /** By inventory item id. */
      matches: ReadonlyMap<string, RecordedMatch>;
      fullCount: number;
      /** Why it was archived (null: no reason given, or not archived): a repeat must not say otherwise. */
      archivedReason: string | null;
    };

const CRITERIA_FIELDS = ['cardName', 'setName', 'condition', 'maxPriceMinor', 'currency', 'source', 'match'] as const;

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The criteria fields that differ between two versions of a request's criteria. */
export function changedCriteriaFields(before: BuyerRequestCriteria, after: BuyerRequestCriteria): string[] {
  return CRITERIA_FIELDS.filter((f) => !sameValue(before[f], after[f]));
}

/**
 * The event recording the matches that are new to this request, within the per-kind caps: one
 * `buyer_request.matches_recorded` for all of them (none when nothing is new).
 */
function matchEvents(
  buyerRequestId: string,
  known: ReadonlyMap<string, RecordedMatch>,
  fullCount: number,
  found: readonly FoundMatch[],
  now: Date,
): BuyerRequestEvent[] {
  const created: RecordedNewMatch[] = [];
  const newlyFull: NewlyFullMatch[] = [];
  let full = fullCount;
  let near = [...known.values()].filter((m) => m.kind === 'near_miss').length;
  const seen = new Set<string>();
  for (const m of [...found].sort((a, b) => b.score - a.score)) {
    if (seen.has(m.inventoryItemId)) continue;
    seen.add(m.inventoryItemId);
    const existing = known.get(m.inventoryItemId);
    if (existing && (existing.kind === 'full' || m.kind === 'near_miss')) continue;
    if (m.kind === 'full') {
      if (full >= MAX_MATCHES_PER_KIND) continue;
      full += 1;
      newlyFull.push({ matchId: existing?.matchId ?? m.matchId, inventoryItemId: m.inventoryItemId, score: m.score });
      if (existing) continue; // a near miss that became a full match keeps its id
    } else {
      if (near >= MAX_MATCHES_PER_KIND) continue;
      near += 1;
    }
    const { matchId, inventoryItemId, kind, score, factors, reasons } = m;
    created.push({ matchId, inventoryItemId, kind, score, factors, reasons });
  }
  if (created.length === 0 && newlyFull.length === 0) return [];
  return [
    {
      type: 'buyer_request.matches_recorded',
      data: { buyerRequestId, created, full: newlyFull, matchCount: full, recordedAt: now.toISOString() },
    },
  ];
}

export const buyerRequestDecider: Decider<BuyerRequestCommand, BuyerRequestEvent, BuyerRequestState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    if (command.type === 'CreateBuyerRequest') {
      if (state.status !== 'none') {
        throw new DomainError('CONFLICT', `Buyer request ${command.buyerRequestId} already exists`);
      }
      const { buyerRequestId, criteria, input, matchedThrough, now } = command;
      const buyerSealed = command.buyerSealed ?? null;
      const buyerId = command.buyerId ?? null;
      const contactSealed = command.contactSealed ?? null;
      if ((buyerId === null) !== (contactSealed === null)) {
        throw new DomainError('VALIDATION_FAILED', 'A contact belongs to a buyer: give both the buyer id and the sealed contact, or neither');
      }
      return [
        {
          type: 'buyer_request.created',
          data: { buyerRequestId, ...criteria, input, matchedThrough, buyerSealed, buyerId, contactSealed, createdAt: now.toISOString() },
        },
        ...matchEvents(buyerRequestId, new Map(), 0, command.matches, now),
      ];
    }
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'Buyer request not found');
    switch (command.type) {
      case 'UpdateBuyerRequest': {
        if (state.status === 'archived') {
          throw new DomainError('INVALID_TRANSITION', 'An archived buyer request cannot be changed');
        }
        const criteriaFields = changedCriteriaFields(state.criteria, command.criteria);
        const buyerChanged = command.buyerSealed !== undefined && command.buyerSealed !== state.buyerSealed;
        const changedFields = buyerChanged ? [...criteriaFields, 'buyer'] : criteriaFields;
        if (changedFields.length === 0) return [];
        return [
          {
            type: 'buyer_request.updated',
            data: {
              buyerRequestId: state.buyerRequestId,
              ...command.criteria,
              changedFields,
              input: command.input,
              matchedThrough: command.matchedThrough,
              buyerSealed: buyerChanged ? (command.buyerSealed ?? null) : state.buyerSealed,
              updatedAt: command.now.toISOString(),
            },
          },
          // Who the buyer is never changes what matches: only new criteria record matches.
          ...(criteriaFields.length === 0
            ? []
            : matchEvents(state.buyerRequestId, state.matches, state.fullCount, command.matches, command.now)),
        ];
      }
      case 'ArchiveBuyerRequest':
        // Archiving twice changes nothing: the request stays archived — unless the repeat gives
        // another reason than the one recorded, which is not the same archive.
        if (state.status === 'archived') {
          assertSameArchive(state.buyerRequestId, state.archivedReason, command.reason);
          return [];
        }
        return [
          {
            type: 'buyer_request.archived',
            data: { buyerRequestId: state.buyerRequestId, reason: command.reason, archivedAt: command.now.toISOString() },
          },
        ];
      case 'RecordMatches':
        // Archived requests never match again; late matches are dropped, not errors (replays).
        if (state.status === 'archived') return [];
        return matchEvents(state.buyerRequestId, state.matches, state.fullCount, command.matches, command.now);
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${String(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'buyer_request.created': {
        const { buyerRequestId, input: _input, matchedThrough: _m, buyerSealed, buyerId: _b, contactSealed: _c, createdAt: _at, ...criteria } =
          event.data;
        return { status: 'active', buyerRequestId, criteria, buyerSealed, matches: new Map(), fullCount: 0, archivedReason: null };
      }
      case 'buyer_request.updated': {
        if (state.status === 'none') return state;
        const { buyerRequestId: _id, changedFields: _c, input: _i, matchedThrough: _m, buyerSealed, updatedAt: _u, ...criteria } =
          event.data;
        return { ...state, criteria, buyerSealed };
      }
      case 'buyer_request.archived':
        return state.status === 'none' ? state : { ...state, status: 'archived', archivedReason: event.data.reason };
      case 'buyer_request.matches_recorded': {
        if (state.status === 'none') return state;
        const { created, full, matchCount } = event.data;
        const matches = new Map(state.matches);
        for (const m of full) matches.set(m.inventoryItemId, { matchId: m.matchId, kind: 'full' });
        // A pair is recorded once: a new match already known (an old log's full match.created,
        // after its buyer_request.matched) keeps what is known.
        for (const m of created) if (!matches.has(m.inventoryItemId)) matches.set(m.inventoryItemId, { matchId: m.matchId, kind: m.kind });
        return { ...state, matches, fullCount: matchCount ?? state.fullCount };
      }
      default: {
        const never: never = event;
        return never;
      }
    }
  },
};

/** A repeated archive naming a reason other than the recorded one: 409, naming it. */
function assertSameArchive(buyerRequestId: string, recorded: string | null, given: string | null): void {
  if (given === null || given === recorded) return;
  throw new DomainError(
    'CONFLICT',
    `Buyer request ${buyerRequestId} is archived already, with reason ${JSON.stringify(recorded)}; this archive names ${JSON.stringify(given)}`,
    { status: 'archived', field: 'reason', recorded, given },
  );
}
