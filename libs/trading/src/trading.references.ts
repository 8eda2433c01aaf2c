// The buyer requests and matches a trading write names in its body, checked the one way: through
// demand's query port (its own inline read model, current with the log), and this workspace's only —
// an unknown id and another workspace's get the same 404 naming the field.
import type { BuyerRequestReader, MatchView } from '@app/demand';
import { DomainError } from '@app/platform/domain';

/** Refuses a `buyerRequestId` that is not a buyer request of `workspaceId`. */
export async function requireBuyerRequest(requests: BuyerRequestReader, workspaceId: string, buyerRequestId: string): Promise<void> {
  const [found] = await requests.getMany([buyerRequestId]);
  if (!found || found.workspaceId !== workspaceId) throw DomainError.unknownReference('buyerRequestId', 'buyer request', buyerRequestId);
}

/** The match a `matchId` names, recorded for a buyer request of `workspaceId`; else NOT_FOUND. */
export async function requireMatch(requests: BuyerRequestReader, workspaceId: string, matchId: string): Promise<MatchView> {
  const match = await requests.getMatch(workspaceId, matchId);
  if (!match) throw DomainError.unknownReference('matchId', 'match', matchId);
  return match;
}
