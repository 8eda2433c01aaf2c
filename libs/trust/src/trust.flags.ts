// Flagging a seller (revoking their credential) and lifting the flag: by the service's operator
// (the CLI) for any seller, or by a seller's admin key for its own. A flag revokes every credential
// of the seller's that could still verify, and no credential is issued while it stands; lifting it
// issues a fresh one (the scoring process manager reacts to trust.seller_reinstated).
import { Inject, Injectable } from '@nestjs/common';

import { CLOCK, type Clock, EVENT_STORE, type EventStore } from '@app/platform';
import { handleCommand } from '@app/platform/domain';

import { sellerTrustAggregate } from './seller/seller-trust.aggregate';
import { type Flagger, sellerTrustStream } from './seller/seller-trust.events';

@Injectable()
export class TrustFlags {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Revokes the seller's credentials; returns the log position (for read-your-writes) and whether it changed anything. */
  async revoke(workspaceId: string, by: Flagger, reason: string, actor: string, correlationId?: string): Promise<{ position: number | null; changed: boolean }> {
    const result = await handleCommand(this.events, sellerTrustStream(workspaceId), sellerTrustAggregate, { type: 'RevokeCredential', by, reason, now: this.clock.now() }, { workspaceId, actor, correlationId });
    return { position: result.streamPosition, changed: result.events.length > 0 };
  }

  async reinstate(workspaceId: string, by: Flagger, actor: string, correlationId?: string): Promise<{ position: number | null; changed: boolean }> {
    const result = await handleCommand(this.events, sellerTrustStream(workspaceId), sellerTrustAggregate, { type: 'ReinstateSeller', by, now: this.clock.now() }, { workspaceId, actor, correlationId });
    return { position: result.streamPosition, changed: result.events.length > 0 };
  }
}
