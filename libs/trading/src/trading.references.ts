// The buyer requests and matches a trading write names in its body, checked on the log: the buyer
// request's own stream, loaded in the write's transaction through demand's contract, says whether
// the request is this workspace's and which match it recorded. An unknown id and another
// workspace's get the same 404 naming the field.
import { Inject, Injectable } from '@nestjs/common';

import { BUYER_REQUEST_READER, type BuyerRequestReader, loadMatchableRequest, MATCH_INDEX_PROJECTION, type RecordedMatchOnRequest } from '@app/demand';
import { APP_CONFIG, type AppConfig, ProjectionRunner } from '@app/platform';
import { DomainError, type Transaction } from '@app/platform/domain';

@Injectable()
export class DemandReferences {
  constructor(
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    private readonly projections: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Refuses a `buyerRequestId` that is not a buyer request of `workspaceId` (its stream, loaded in `tx`). */
  async buyerRequest(tx: Transaction, workspaceId: string, buyerRequestId: string): Promise<void> {
    if (!(await loadMatchableRequest(tx, workspaceId, buyerRequestId))) throw DomainError.unknownReference('buyerRequestId', 'buyer request', buyerRequestId);
  }

  /**
   * The match `matchId` names, as its buyer request's stream (loaded in `tx`) records it; else
   * NOT_FOUND. Only a match id's request comes from demand's match index (a bare id names no
   * stream; which request recorded a match never changes); what the match is comes from the log.
   */
  async match(tx: Transaction, workspaceId: string, matchId: string): Promise<RecordedMatchOnRequest> {
    const indexed = await this.indexed(workspaceId, matchId);
    const request = indexed && (await loadMatchableRequest(tx, workspaceId, indexed.buyerRequestId));
    const match = request?.recordedMatch(matchId);
    if (!match) throw DomainError.unknownReference('matchId', 'match', matchId);
    return match;
  }

  /**
   * The index's entry for the match. The index follows the log behind the writes that record
   * matches (a match run answers before it is applied): an id it does not know yet is looked up
   * again once that one projection has reached the head of the log.
   */
  private async indexed(workspaceId: string, matchId: string) {
    const found = await this.requests.getMatch(workspaceId, matchId);
    if (found) return found;
    await this.projections.waitForHead([MATCH_INDEX_PROJECTION], this.config.READ_YOUR_WRITES_TIMEOUT_MS);
    return this.requests.getMatch(workspaceId, matchId);
  }
}
