// The command demand accepts from the match engine: record matches on a buyer request. It runs
// inside the caller's write-path transaction, so a match run can record the matches and store its
// pack in one append, and reverse matching can record on many requests at once; the request's own
// decider keeps each (request, item) pair once, so a replayed or raced recording adds nothing twice.
import type { FoundMatch, MatchCandidate, MatchKind } from '@app/contracts';
import type { CommandMetadata, StreamHandle, Transaction } from '@app/platform/domain';

import type { BuyerRequestCommand, BuyerRequestState } from './buyer-request.decider';
import { type BuyerRequestCriteria, type BuyerRequestEvent, buyerRequestStream } from './buyer-request.events';
import { buyerRequestAggregate } from './buyer-request.aggregate';

type RequestStream = StreamHandle<BuyerRequestCommand, BuyerRequestEvent, BuyerRequestState>;
type ExistingState = Exclude<BuyerRequestState, { status: 'none' }>;

/** A match as a buyer request's own stream records it. */
export interface RecordedMatchOnRequest {
  matchId: string;
  buyerRequestId: string;
  inventoryItemId: string;
  kind: MatchKind;
}

/**
 * The projection that keeps the match index `BuyerRequestReader.getMatch` reads (the `matches`
 * projection of buyer-request.projection.ts). It follows the log asynchronously: a caller that
 * must find a match recorded an instant ago (a trade on a match a run just answered) waits for it
 * by this name when the index does not know the id yet.
 */
export const MATCH_INDEX_PROJECTION = 'matches';

/** A buyer request loaded for matching (or for reading the matches it recorded), within one transaction. */
export class MatchableRequest {
  constructor(
    /** The request's stream in the transaction that loaded it: only demand decides on it. */
    private readonly stream: RequestStream,
    readonly workspaceId: string,
    private readonly current: ExistingState,
  ) {}

  get buyerRequestId(): string {
    return this.current.buyerRequestId;
  }

  /** `archived` requests never take matches again. */
  get status(): 'active' | 'archived' {
    return this.current.status;
  }

  get criteria(): BuyerRequestCriteria {
    return this.current.criteria;
  }

  /**
   * The match `matchId` as the request's stream records it (its item and kind), or null when the
   * request recorded none by that id: others (a trade, an offer on a match) decide on this, never
   * on the match index, which follows the log behind the write.
   */
  recordedMatch(matchId: string): RecordedMatchOnRequest | null {
    for (const [inventoryItemId, match] of this.current.matches) {
      if (match.matchId === matchId) return { matchId, buyerRequestId: this.buyerRequestId, inventoryItemId, kind: match.kind };
    }
    return null;
  }

  /** Match ids for the candidates: a pair the request knows keeps its id, a new pair gets `newId()`. */
  withMatchIds(candidates: readonly MatchCandidate[], newId: () => string): FoundMatch[] {
    return candidates.map((c) => ({ ...c, matchId: this.current.matches.get(c.inventoryItemId)?.matchId ?? newId() }));
  }

  /**
   * Records `matches` on the request, in `tx` (new pairs, and near misses that became full); an
   * archived request records nothing. Returns whether anything was recorded.
   */
  recordMatches(tx: Transaction, matches: readonly FoundMatch[], now: Date, metadata?: Partial<CommandMetadata>): boolean {
    const events = tx.decide(this.stream, { type: 'RecordMatches', matches, now }, { metadata: { ...metadata, workspaceId: this.workspaceId } });
    return events.length > 0;
  }
}

/** Loads a buyer request of `workspaceId` in `tx`: null when there is none (another workspace's is none). */
export async function loadMatchableRequest(tx: Transaction, workspaceId: string, buyerRequestId: string): Promise<MatchableRequest | null> {
  const stream = await tx.load(buyerRequestStream(buyerRequestId), buyerRequestAggregate, { workspaceId });
  return stream.state.status === 'none' ? null : new MatchableRequest(stream, workspaceId, stream.state);
}
