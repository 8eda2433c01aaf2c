// Commands of a seller's trust record: flagging a seller (revoking their credentials) and lifting
// the flag — by the service's operator (the CLI) for any seller, or by a seller's admin key for its
// own. A flag revokes every credential of the seller's that could still verify, and no credential
// is issued while it stands; lifting it issues a fresh one (the scoring process manager reacts to
// trust.seller_reinstated). Credentials themselves are issued by CredentialIssuer, which the
// process manager and the renewal timers drive.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore } from '@app/platform';
import { type CommandResult, handleCommand } from '@app/platform/domain';

import { sellerTrustAggregate } from './seller-trust.aggregate';
import type { SellerTrustState } from './seller-trust.decider';
import { type Flagger, sellerTrustStream } from './seller-trust.events';

/** A seller's flag as its trust record holds it after a command (folded from the log). */
export interface FlagOutcome {
  /** The seller's current credential (revoked while flagged); null before the first. */
  credentialId: string | null;
  flag: { by: Flagger; reason: string; at: string } | null;
  /** Global position of the record's last event, appended or not: what trust's read models must reach to show it. */
  position: number | null;
  changed: boolean;
}

/** Revokes the seller's credentials; revoking again (the same reason) changes nothing. */
export class RevokeSellerTrustCommand extends Command<FlagOutcome> {
  constructor(
    readonly workspaceId: string,
    readonly by: Flagger,
    readonly reason: string,
    readonly actor: string,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(RevokeSellerTrustCommand)
export class RevokeSellerTrustHandler implements ICommandHandler<RevokeSellerTrustCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, by, reason, actor, correlationId }: RevokeSellerTrustCommand): Promise<FlagOutcome> {
    const command = { type: 'RevokeCredential' as const, by, reason, now: this.clock.now() };
    return outcomeOf(await handleCommand(this.events, sellerTrustStream(workspaceId), sellerTrustAggregate, command, { workspaceId, actor, correlationId }));
  }
}

/** Lifts the seller's flag (only the operator lifts the operator's). */
export class ReinstateSellerTrustCommand extends Command<FlagOutcome> {
  constructor(
    readonly workspaceId: string,
    readonly by: Flagger,
    readonly actor: string,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(ReinstateSellerTrustCommand)
export class ReinstateSellerTrustHandler implements ICommandHandler<ReinstateSellerTrustCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, by, actor, correlationId }: ReinstateSellerTrustCommand): Promise<FlagOutcome> {
    const command = { type: 'ReinstateSeller' as const, by, now: this.clock.now() };
    return outcomeOf(await handleCommand(this.events, sellerTrustStream(workspaceId), sellerTrustAggregate, command, { workspaceId, actor, correlationId }));
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

export const SELLER_TRUST_COMMAND_HANDLERS = [RevokeSellerTrustHandler, ReinstateSellerTrustHandler];
