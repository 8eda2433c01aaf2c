// Loading a buyer request's stream and turning found candidates into its RecordMatches events:
// the one path by which match runs and reverse matching record matches (the decider keeps each
// pair once, so replays and races add nothing twice).
import {
  buyerRequestDecider,
  type BuyerRequestEvent,
  type BuyerRequestState,
  buyerRequestStream,
  type FoundMatch,
  type MatchCandidate,
  parseBuyerRequestEvent,
} from '@app/demand';
import { type EventMetadata, type EventStore, fold, type IdGenerator, type NewEvent, type StreamWrite } from '@app/platform';

export interface LoadedRequest {
  buyerRequestId: string;
  workspaceId: string | null;
  state: BuyerRequestState;
  /** -1 when the stream does not exist. */
  revision: number;
}

export async function loadRequest(events: EventStore, buyerRequestId: string): Promise<LoadedRequest> {
  const recorded = await events.readStream(buyerRequestStream(buyerRequestId));
  return {
    buyerRequestId,
    workspaceId: recorded[0]?.metadata.workspaceId ?? null,
    state: fold(buyerRequestDecider, recorded.map(parseBuyerRequestEvent)),
    revision: recorded.length > 0 ? recorded[recorded.length - 1].revision : -1,
  };
}

/** Known pairs keep their match id; new pairs get a fresh one. */
export function withMatchIds(state: BuyerRequestState, candidates: readonly MatchCandidate[], ids: IdGenerator): FoundMatch[] {
  const known = state.status === 'none' ? new Map<string, { matchId: string }>() : state.matches;
  return candidates.map((c) => ({ ...c, matchId: known.get(c.inventoryItemId)?.matchId ?? ids.next('mt') }));
}

export type WriteMetadata = Pick<EventMetadata, 'actor' | 'correlationId' | 'causationId'>;

/** The write recording `matches` on the request, or null when they add nothing. */
export function recordMatchesWrite(
  loaded: LoadedRequest,
  matches: readonly FoundMatch[],
  now: Date,
  metadata: WriteMetadata,
): StreamWrite | null {
  if (loaded.state.status === 'none' || loaded.workspaceId === null) return null;
  const events: BuyerRequestEvent[] = buyerRequestDecider.decide({ type: 'RecordMatches', matches, now }, loaded.state);
  if (events.length === 0) return null;
  const workspaceId = loaded.workspaceId;
  return {
    streamId: buyerRequestStream(loaded.buyerRequestId),
    expectedRevision: loaded.revision,
    events: events.map((e): NewEvent => ({ type: e.type, data: e.data, metadata: { workspaceId, ...metadata, schemaVersion: 1 } })),
  };
}
