// Read models of the matches recorded on buyer requests. A request's matches live in its stream, so
// their list is one document per request (at most MAX_MATCHES_PER_KIND of each kind), written by
// the write that records them: the request's matches route reads it at once. Finding a match by its
// id alone (a trade or an offer names only `matchId`) takes a second, smaller model: which request
// each match belongs to — a fact that never changes once recorded.
import type { MatchFactor, MatchKind } from '@app/contracts';
import { documentProjection, streamEntityId, type StreamDoc, view, viewProjection } from '@app/platform';

import { MATCHES_RECORDED_TYPES } from './buyer-request.events';
import { parseMatchesRecorded } from './buyer-request.parse';

/** A match as its request's document keeps it. */
export interface MatchEntry {
  /** The match id (`mt_…`). */
  id: string;
  inventoryItemId: string;
  kind: MatchKind;
  score: number;
  factors: MatchFactor[];
  reasons: string[];
  createdAt: string;
  updatedAt: string;
}

/** A match as the routes and the reader answer it: its entry and its request. */
export interface MatchDoc extends MatchEntry {
  buyerRequestId: string;
}

/** The matches of one request, in the order they were recorded; none yet: no document. */
export interface BuyerRequestMatchesDoc extends StreamDoc {
  workspaceId: string;
  matches: MatchEntry[];
}

export const BUYER_REQUEST_MATCHES = { name: 'buyer_request_matches', indexes: [] } as const;

export const buyerRequestMatchesProjection = documentProjection<BuyerRequestMatchesDoc>({
  name: 'buyer_request_matches',
  version: 1,
  // The matches route's own read model: whoever records matches (the request's own writes, reverse
  // matching, a match run) brings it up to date with the write.
  inline: true,
  collection: BUYER_REQUEST_MATCHES,
  // One event per write (buyer_request.matches_recorded); an old log's matched and match.created read as it.
  eventTypes: MATCHES_RECORDED_TYPES,
  evolve(doc, event) {
    const d = parseMatchesRecorded(event);
    // Near misses that became full: the same match, full, with its new score (new full pairs are
    // in `created` too, added below).
    const upgraded = new Map(d.full.map((m) => [m.matchId, m.score]));
    let matches = doc?.matches ?? [];
    if (doc && upgraded.size > 0) {
      matches = matches.map((m) => {
        const score = upgraded.get(m.id);
        return score === undefined || m.kind === 'full' ? m : { ...m, kind: 'full' as const, score, updatedAt: d.recordedAt };
      });
    }
    // A pair is recorded once (the decider's rule); a replayed event adds nothing.
    const known = new Set(matches.map((m) => m.id));
    const added = d.created.filter((m) => !known.has(m.matchId));
    if (added.length > 0) {
      matches = [...matches, ...added.map(({ matchId, ...m }) => ({ id: matchId, ...m, createdAt: d.recordedAt, updatedAt: d.recordedAt }))];
    }
    if (!doc && added.length === 0) return null;
    const current = doc ?? { id: streamEntityId(event.streamId), revision: event.revision, workspaceId: event.metadata.workspaceId, matches: [] };
    return { ...current, matches };
  },
});

/** Which request a match belongs to. */
export interface MatchRefDoc extends StreamDoc {
  workspaceId: string;
  buyerRequestId: string;
}

export const MATCHES = { name: 'matches', indexes: [] } as const;

/** One document per match id, naming its request: the kind and score are the request's document's. */
export const matchProjection = viewProjection({
  name: 'matches',
  // 3: only the match's request (its details moved to buyer_request_matches). Still 3 now that it
  // is a view following buyer_request.matches_recorded (several matches an event): the documents
  // it makes of a log are the ones it made, so a read model already there needs no rebuild.
  version: 3,
  collections: [MATCHES],
  eventTypes: MATCHES_RECORDED_TYPES,
  *evolve(event) {
    const d = parseMatchesRecorded(event);
    if (d.created.length === 0) return;
    const ids = d.created.map((m) => m.matchId);
    const known = new Set((yield* view.getMany<MatchRefDoc>(MATCHES, ids)).map((m) => m.id));
    for (const matchId of ids) {
      // Which request a match belongs to never changes once recorded.
      if (known.has(matchId)) continue;
      yield* view.put<MatchRefDoc>(MATCHES, { id: matchId, revision: event.revision, workspaceId: event.metadata.workspaceId, buyerRequestId: d.buyerRequestId });
    }
  },
});
