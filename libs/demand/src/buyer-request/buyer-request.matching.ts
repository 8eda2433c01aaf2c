// The command demand accepts from the match engine: record matches on a buyer request. It runs
// inside the caller's write-path transaction, so a match run can record the matches and store its
// pack in one append, and reverse matching can record on many requests at once; the request's own
// decider keeps each (request, item) pair once, so a replayed or raced recording adds nothing twice.
import type { FoundMatch, MatchCandidate } from '@app/contracts';
import type { CommandMetadata, StreamHandle, Transaction } from '@app/platform/domain';

import type { BuyerRequestCommand, BuyerRequestState } from './buyer-request.decider';
import { type BuyerRequestCriteria, type BuyerRequestEvent, buyerRequestStream } from './buyer-request.events';
import { buyerRequestAggregate } from './buyer-request.aggregate';

type RequestStream = StreamHandle<BuyerRequestCommand, BuyerRequestEvent, BuyerRequestState>;
type ExistingState = Exclude<BuyerRequestState, { status: 'none' }>;

/** A buyer request loaded for matching, within one transaction. */
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
