// Match runs: judge a buyer request against inventory, record the new matches on the request
// (demand's command) and store the pack, in one transaction of the write path; a concurrent
// recording on the request (reverse matching) makes the run judge again on the new state. The run
// answers the pack its own write stored (the packs' read model is inline).
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { MAX_MATCHES_PER_KIND } from '@app/contracts';
import { loadMatchableRequest } from '@app/demand';
import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, InlineProjections } from '@app/platform';
import { DomainError, handleCommands } from '@app/platform/domain';

import { MatchCandidates } from '../engine/match-candidates';
import { matchPackDecider } from './match-pack.decider';
import { matchPackStream, parseMatchPackEvent } from './match-pack.events';
import { type MatchPackDoc, matchPackProjection } from './match-pack.projection';

export const matchPackAggregate = { decider: matchPackDecider, parseEvent: parseMatchPackEvent };

/** Answers the stored pack, as its read model holds it from the run's own write. */
export class RunMatchCommand extends Command<MatchPackDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly buyerRequestId: string,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(RunMatchCommand)
export class RunMatchHandler implements ICommandHandler<RunMatchCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly candidates: MatchCandidates,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, buyerRequestId, correlationId }: RunMatchCommand): Promise<MatchPackDoc> {
    const matchPackId = this.ids.next('mp');
    const { documents } = await handleCommands(this.events, { workspaceId, actor, correlationId }, async (tx) => {
      const request = await loadMatchableRequest(tx, workspaceId, buyerRequestId);
      if (!request) throw DomainError.unknownReference('buyerRequestId', 'buyer request', buyerRequestId);
      if (request.status === 'archived') {
        throw new DomainError('INVALID_TRANSITION', 'An archived buyer request never matches again', { id: buyerRequestId });
      }
      const candidates = await this.candidates.runCandidates(workspaceId, request.criteria, MAX_MATCHES_PER_KIND);
      const found = request.withMatchIds(candidates, () => this.ids.next('mt'));
      const now = this.clock.now();
      request.recordMatches(tx, found, now);
      const pack = {
        matchPackId,
        buyerRequestId,
        matches: found.map(({ matchId, inventoryItemId, kind, score, factors, reasons }) => ({ matchId, inventoryItemId, kind, score, factors, reasons })),
        fullCount: found.filter((m) => m.kind === 'full').length,
        nearMissCount: found.filter((m) => m.kind === 'near_miss').length,
        createdAt: now.toISOString(),
      };
      tx.decide(tx.create(matchPackStream(matchPackId), matchPackAggregate), { type: 'CompleteMatchRun', pack });
    });
    const pack = await this.inline.document(matchPackProjection, matchPackStream(matchPackId), documents);
    // A pack the run just stored has a document; none is a bug, not a missing pack.
    if (!pack) throw new Error(`Match pack ${matchPackId} was stored, yet its read model has no document`);
    return pack;
  }
}

export const MATCH_PACK_COMMAND_HANDLERS = [RunMatchHandler];
