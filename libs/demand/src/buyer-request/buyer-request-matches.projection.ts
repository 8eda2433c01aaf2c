// Read models of the matches recorded on buyer requests. A request's matches live in its stream, so
// their list is one document per request (at most MAX_MATCHES_PER_KIND of each kind), written by
// the write that records them: the request's matches route reads it at once. Finding a match by its
// id alone (a trade or an offer names only `matchId`) takes a second, smaller model: which request
// each match belongs to — a fact that never changes once recorded.
import type { MatchFactor, MatchKind } from '@app/contracts';
import { documentProjection, streamEntityId, type StreamDoc } from '@app/platform';

import { buyerRequestMatched, matchCreated } from './buyer-request.events';

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
  eventTypes: ['match.created', 'buyer_request.matched'],
  evolve(doc, event) {
    if (event.type === 'match.created') {
      const { matchId, buyerRequestId: _request, ...match } = matchCreated.parse(event.data);
      const current = doc ?? { id: streamEntityId(event.streamId), revision: event.revision, workspaceId: event.metadata.workspaceId, matches: [] };
      // A pair is recorded once (the decider's rule); a replayed event adds nothing.
      if (current.matches.some((m) => m.id === matchId)) return current;
      return { ...current, matches: [...current.matches, { id: matchId, ...match, updatedAt: match.createdAt }] };
    }
    if (event.type !== 'buyer_request.matched' || !doc) return doc;
    // New pairs arrive as match.created right after; only near misses that became full exist already.
    const d = buyerRequestMatched.parse(event.data);
    const upgraded = new Map(d.matches.map((m) => [m.matchId, m.score]));
    return {
      ...doc,
      matches: doc.matches.map((m) => {
        const score = upgraded.get(m.id);
        return score === undefined || m.kind === 'full' ? m : { ...m, kind: 'full', score, updatedAt: d.matchedAt };
      }),
    };
  },
});

/** Which request a match belongs to. */
export interface MatchRefDoc extends StreamDoc {
  workspaceId: string;
  buyerRequestId: string;
}

export const MATCHES = { name: 'matches', indexes: [] } as const;

/** One document per match id, naming its request: the kind and score are the request's document's. */
export const matchProjection = documentProjection<MatchRefDoc>({
  name: 'matches',
  // 3: only the match's request (its details moved to buyer_request_matches).
  version: 3,
  collection: MATCHES,
  eventTypes: ['match.created'],
  documentId: (event) => (event.data as { matchId: string }).matchId,
  evolve(doc, event) {
    if (doc) return doc;
    const d = matchCreated.parse(event.data);
    return { id: d.matchId, revision: event.revision, workspaceId: event.metadata.workspaceId, buyerRequestId: d.buyerRequestId };
  },
});
