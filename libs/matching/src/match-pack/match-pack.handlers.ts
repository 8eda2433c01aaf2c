// Match runs (command) and match packs (queries). A run judges the request against inventory,
// records the new matches on the request and stores the pack, in one batch append.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { MAX_MATCHES_PER_KIND } from '@app/demand';
import {
  CLOCK,
  type Clock,
  DomainError,
  EVENT_STORE,
  type EventStore,
  type Filter,
  ID_GENERATOR,
  type IdGenerator,
  type Page,
  READ_STORE,
  type ReadStore,
  WrongExpectedRevisionError,
} from '@app/platform';

import { MatchCandidates } from '../engine/match-candidates';
import { loadRequest, recordMatchesWrite, withMatchIds } from '../engine/request-stream';
import { type MatchCompleted, matchPackStream } from './match-pack.events';
import { MATCH_PACKS, type MatchPackDoc } from './match-pack.projection';

export class RunMatchCommand extends Command<{ matchPackId: string; position: number }> {
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
  ) {}

  async execute({ workspaceId, actor, buyerRequestId, correlationId }: RunMatchCommand) {
    const matchPackId = this.ids.next('mp');
    for (let attempt = 1; ; attempt += 1) {
      const loaded = await loadRequest(this.events, buyerRequestId);
      const { state } = loaded;
      if (state.status === 'none' || loaded.workspaceId !== workspaceId) {
        throw new DomainError('NOT_FOUND', `No buyer request ${buyerRequestId}`, { id: buyerRequestId });
      }
      if (state.status === 'archived') {
        throw new DomainError('INVALID_TRANSITION', 'An archived buyer request never matches again', { id: buyerRequestId });
      }
      const found = withMatchIds(state, await this.candidates.runCandidates(workspaceId, state.criteria, MAX_MATCHES_PER_KIND), this.ids);
      const now = this.clock.now();
      const metadata = { workspaceId, actor, correlationId, schemaVersion: 1 };
      const pack: MatchCompleted = {
        matchPackId,
        buyerRequestId,
        matches: found.map(({ matchId, inventoryItemId, kind, score, factors, reasons }) => ({
          matchId,
          inventoryItemId,
          kind,
          score,
          factors,
          reasons,
        })),
        fullCount: found.filter((m) => m.kind === 'full').length,
        nearMissCount: found.filter((m) => m.kind === 'near_miss').length,
        createdAt: now.toISOString(),
      };
      const record = recordMatchesWrite(loaded, found, now, { actor, correlationId });
      try {
        const results = await this.events.appendMany([
          ...(record ? [record] : []),
          { streamId: matchPackStream(matchPackId), expectedRevision: 'no_stream', events: [{ type: 'match.completed', data: pack, metadata }] },
        ]);
        return { matchPackId, position: results[results.length - 1].position };
      } catch (error) {
        // Reverse matching recorded something meanwhile: judge again on the new state.
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= 4) throw error;
      }
    }
  }
}

export class GetMatchPackQuery extends Query<MatchPackDoc | null> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetMatchPackQuery)
export class GetMatchPackHandler implements IQueryHandler<GetMatchPackQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, id }: GetMatchPackQuery): Promise<MatchPackDoc | null> {
    const doc = await this.reads.collection<MatchPackDoc>(MATCH_PACKS).get(id);
    return doc && doc.workspaceId === workspaceId ? doc : null;
  }
}

export class ListMatchPacksQuery extends Query<Page<MatchPackDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
    readonly buyerRequestId?: string,
  ) {
    super();
  }
}

@QueryHandler(ListMatchPacksQuery)
export class ListMatchPacksHandler implements IQueryHandler<ListMatchPacksQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, limit, cursor, buyerRequestId }: ListMatchPacksQuery): Promise<Page<MatchPackDoc>> {
    const filter: Filter = buyerRequestId ? { workspaceId, buyerRequestId } : { workspaceId };
    return this.reads.collection<MatchPackDoc>(MATCH_PACKS).find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

export const MATCH_PACK_HANDLERS = [RunMatchHandler, GetMatchPackHandler, ListMatchPacksHandler];
