// What a buyer request needs from the match engine when it is created or changed: the inventory
// items that fully meet it right now. Provided by the matching context (MatchingModule, global),
// so that demand does not depend on it.
import type { MatchCandidate } from '@app/contracts';

import type { BuyerRequestCriteria } from './buyer-request.events';

export const INSTANT_MATCHING = Symbol('INSTANT_MATCHING');

export interface InstantMatching {
  /**
   * A log position the inventory read model has certainly applied. Taken before `fullMatches`,
   * it tells reverse matching which later stock the instant check may not have seen.
   */
  inventoryPosition(): Promise<number>;
  /** Full matches only, best first, at most `limit`. */
  fullMatches(workspaceId: string, criteria: BuyerRequestCriteria, limit: number): Promise<MatchCandidate[]>;
}
