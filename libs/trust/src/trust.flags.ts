// Flagging a seller (revoking their credential) and lifting the flag: by the service's operator
// (the CLI) for any seller, or by a seller's admin key for its own. A flag revokes every credential
// of the seller's that could still verify, and no credential is issued while it stands; lifting it
// issues a fresh one (the scoring process manager reacts to trust.seller_reinstated).
import { Inject, Injectable } from '@nestjs/common';

import { CLOCK, type Clock, EVENT_STORE, type EventStore } from '@app/platform';
import { type CommandResult, handleCommand } from '@app/platform/domain';

import { sellerTrustAggregate } from './seller/seller-trust.aggregate';
import type { SellerTrustState } from './seller/seller-trust.decider';
import { type Flagger, sellerTrustStream } from './seller/seller-trust.events';

/** A seller's flag as its trust record holds it after a command (folded from the log). */
export interface FlagOutcome {
  /** The seller's current credential (revoked while flagged); null before the first. */
  credentialId: string | null;
  flag: { by: Flagger; reason: string; at: string } | null;
  /** Global position of the record's last event, appended or not: what trust's read models must reach to show it. */
  position: number | null;
  changed: boolean;
}

@Injectable()
export class TrustFlags {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Revokes the seller's credentials; revoking again (the same reason) changes nothing. */
  async revoke(workspaceId: string, by: Flagger, reason: string, actor: string, correlationId?: string): Promise<FlagOutcome> {
    return outcomeOf(
      await handleCommand(this.events, sellerTrustStream(workspaceId), sellerTrustAggregate, { type: 'RevokeCredential', by, reason, now: this.clock.now() }, { workspaceId, actor, correlationId }),
    );
  }

  async reinstate(workspaceId: string, by: Flagger, actor: string, correlationId?: string): Promise<FlagOutcome> {
    return outcomeOf(
      await handleCommand(this.events, sellerTrustStream(workspaceId), sellerTrustAggregate, { type: 'ReinstateSeller', by, now: this.clock.now() }, { workspaceId, actor, correlationId }),
    );
  }
}

function outcomeOf(result: CommandResult<unknown, SellerTrustState>): FlagOutcome {
  const { current, flag } = result.state;
  return {
    credentialId: current?.credentialId ?? null,
    flag: flag && { by: flag.by, reason: flag.reason, at: flag.at },
    position: result.streamPosition,
    changed: result.events.length > 0,
  };
}
