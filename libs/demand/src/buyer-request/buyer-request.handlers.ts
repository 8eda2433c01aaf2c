// Command and query handlers for buyer requests.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { normalizeListing } from '@app/catalog';
import {
  CLOCK,
  type Clock,
  DomainError,
  EVENT_STORE,
  type EventStore,
  type Filter,
  fold,
  handleCommand,
  ID_GENERATOR,
  type IdGenerator,
  type Page,
  READ_STORE,
  type ReadStore,
  instantRange,
} from '@app/platform';

import { buyerRequestDecider, type FoundMatch, MAX_MATCHES_PER_KIND } from './buyer-request.decider';
import { type BuyerRequestCriteria, buyerRequestStream, parseBuyerRequestEvent } from './buyer-request.events';
import { BUYER_REQUESTS, type BuyerRequestDoc, type BuyerRequestStatus, MATCHES, type MatchDoc } from './buyer-request.projection';
import { INSTANT_MATCHING, type InstantMatching } from './instant-matching.port';

export const buyerRequestAggregate = { decider: buyerRequestDecider, parseEvent: parseBuyerRequestEvent };

/** What a client says about a request; the rest (ids, time, normalized identity) is the server's. */
export interface BuyerRequestInput {
  cardName: string;
  setName: string;
  condition: string;
  maxPriceMinor: number;
  currency: string;
  source: string | null;
}

export interface CommandOutcome {
  id: string;
  position: number;
}

/** Normalizes what the client typed into the stored criteria (display forms + match identity). */
export function toCriteria(input: BuyerRequestInput): BuyerRequestCriteria {
  const listing = normalizeListing(input);
  return {
    cardName: listing.cardName.value.name,
    setName: listing.setName.value.name,
    condition: listing.condition.value.label,
    maxPriceMinor: input.maxPriceMinor,
    currency: input.currency,
    source: input.source,
    match: listing.match,
  };
}

async function instantMatches(
  matching: InstantMatching,
  ids: IdGenerator,
  workspaceId: string,
  criteria: BuyerRequestCriteria,
): Promise<{ matches: FoundMatch[]; matchedThrough: number }> {
  // The position first: the query below sees at least everything up to it.
  const matchedThrough = await matching.inventoryPosition();
  const found = await matching.fullMatches(workspaceId, criteria, MAX_MATCHES_PER_KIND);
  return { matches: found.map((m) => ({ ...m, matchId: ids.next('mt') })), matchedThrough };
}

export class CreateBuyerRequestCommand extends Command<CommandOutcome> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly request: BuyerRequestInput,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateBuyerRequestCommand)
export class CreateBuyerRequestHandler implements ICommandHandler<CreateBuyerRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(INSTANT_MATCHING) private readonly matching: InstantMatching,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: CreateBuyerRequestCommand): Promise<CommandOutcome> {
    const id = this.ids.next('br');
    const criteria = toCriteria(request);
    const { matches, matchedThrough } = await instantMatches(this.matching, this.ids, workspaceId, criteria);
    const input = { cardName: request.cardName, setName: request.setName, condition: request.condition };
    const result = await handleCommand(
      this.events,
      buyerRequestStream(id),
      buyerRequestAggregate,
      { type: 'CreateBuyerRequest', buyerRequestId: id, criteria, input, matches, matchedThrough, now: this.clock.now() },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    return { id, position: result.position ?? 0 };
  }
}

/** Loads a request of this workspace (another workspace's is answered like a missing one). */
async function loadActive(events: EventStore, workspaceId: string, id: string) {
  const recorded = await events.readStream(buyerRequestStream(id));
  if (recorded.length === 0 || recorded[0].metadata.workspaceId !== workspaceId) {
    throw new DomainError('NOT_FOUND', `No buyer request ${id}`, { id });
  }
  return fold(buyerRequestDecider, recorded.map(parseBuyerRequestEvent));
}

export class UpdateBuyerRequestCommand extends Command<CommandOutcome> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly changes: Partial<BuyerRequestInput>,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(UpdateBuyerRequestCommand)
export class UpdateBuyerRequestHandler implements ICommandHandler<UpdateBuyerRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(INSTANT_MATCHING) private readonly matching: InstantMatching,
  ) {}

  async execute({ workspaceId, actor, id, changes, correlationId }: UpdateBuyerRequestCommand): Promise<CommandOutcome> {
    const state = await loadActive(this.events, workspaceId, id);
    if (state.status === 'none') throw new DomainError('NOT_FOUND', `No buyer request ${id}`, { id });
    if (state.status === 'archived') {
      throw new DomainError('INVALID_TRANSITION', 'An archived buyer request cannot be changed', { id });
    }
    const current = state.criteria;
    // Unchanged display fields are passed through as stored: normalizing them again is a no-op.
    const criteria = toCriteria({
      cardName: changes.cardName ?? current.cardName,
      setName: changes.setName ?? current.setName,
      condition: changes.condition ?? current.condition,
      maxPriceMinor: changes.maxPriceMinor ?? current.maxPriceMinor,
      currency: changes.currency ?? current.currency,
      source: changes.source === undefined ? current.source : changes.source,
    });
    const { matches, matchedThrough } = await instantMatches(this.matching, this.ids, workspaceId, criteria);
    const input = Object.fromEntries(
      (['cardName', 'setName', 'condition'] as const).flatMap((f) => (changes[f] === undefined ? [] : [[f, changes[f]]])),
    );
    const result = await handleCommand(
      this.events,
      buyerRequestStream(id),
      buyerRequestAggregate,
      { type: 'UpdateBuyerRequest', criteria, input, matches, matchedThrough, now: this.clock.now() },
      { workspaceId, actor, correlationId },
    );
    return { id, position: result.position ?? 0 };
  }
}

export class ArchiveBuyerRequestCommand extends Command<CommandOutcome> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly reason: string | null,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(ArchiveBuyerRequestCommand)
export class ArchiveBuyerRequestHandler implements ICommandHandler<ArchiveBuyerRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, id, reason, correlationId }: ArchiveBuyerRequestCommand): Promise<CommandOutcome> {
    await loadActive(this.events, workspaceId, id);
    const result = await handleCommand(
      this.events,
      buyerRequestStream(id),
      buyerRequestAggregate,
      { type: 'ArchiveBuyerRequest', reason, now: this.clock.now() },
      { workspaceId, actor, correlationId },
    );
    return { id, position: result.position ?? 0 };
  }
}

export class GetBuyerRequestQuery extends Query<BuyerRequestDoc | null> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetBuyerRequestQuery)
export class GetBuyerRequestHandler implements IQueryHandler<GetBuyerRequestQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, id }: GetBuyerRequestQuery): Promise<BuyerRequestDoc | null> {
    const doc = await this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS).get(id);
    // Another workspace's request is answered exactly like a missing one.
    return doc && doc.workspaceId === workspaceId ? doc : null;
  }
}

export interface BuyerRequestFilters {
  status?: BuyerRequestStatus;
  /** Normalized card identity (`cardKey`). */
  cardKey?: string;
  /** Normalized set identity (`setKey`). */
  setKey?: string;
  createdFrom?: string;
  createdTo?: string;
}

export class ListBuyerRequestsQuery extends Query<Page<BuyerRequestDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
    readonly filters: BuyerRequestFilters = {},
  ) {
    super();
  }
}

@QueryHandler(ListBuyerRequestsQuery)
export class ListBuyerRequestsHandler implements IQueryHandler<ListBuyerRequestsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, limit, cursor, filters }: ListBuyerRequestsQuery): Promise<Page<BuyerRequestDoc>> {
    const filter: Record<string, Filter[string]> = { workspaceId };
    if (filters.status) filter.status = filters.status;
    if (filters.cardKey) filter.cardKey = filters.cardKey;
    if (filters.setKey) filter.setKey = filters.setKey;
    const createdAt = instantRange(filters.createdFrom, filters.createdTo);
    if (createdAt) filter.createdAt = createdAt;
    return this.reads
      .collection<BuyerRequestDoc>(BUYER_REQUESTS)
      .find(filter, { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

export class ListBuyerRequestMatchesQuery extends Query<Page<MatchDoc>> {
  constructor(
    readonly buyerRequestId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListBuyerRequestMatchesQuery)
export class ListBuyerRequestMatchesHandler implements IQueryHandler<ListBuyerRequestMatchesQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  /** The caller has checked that the request belongs to its workspace. */
  execute({ buyerRequestId, limit, cursor }: ListBuyerRequestMatchesQuery): Promise<Page<MatchDoc>> {
    return this.reads
      .collection<MatchDoc>(MATCHES)
      .find({ buyerRequestId }, { sort: [['score', -1]], limit, after: cursor });
  }
}

export const BUYER_REQUEST_HANDLERS = [
  ListBuyerRequestMatchesHandler,
  CreateBuyerRequestHandler,
  UpdateBuyerRequestHandler,
  ArchiveBuyerRequestHandler,
  GetBuyerRequestHandler,
  ListBuyerRequestsHandler,
];
