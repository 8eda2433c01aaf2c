// Reverse matching, a process manager on the log: a new, changed or repriced inventory item is
// matched against the open requests of its workspace, and a new or changed request against the
// inventory (which closes the race between a request's instant check and stock arriving at the
// same moment). Found pairs are recorded on the requests, in batch appends; the buyer request
// decider drops pairs it already knows, so a replayed batch records nothing twice.
import { Inject, Injectable, Logger } from '@nestjs/common';

import {
  BUYER_REQUESTS,
  type BuyerRequestCriteria,
  type BuyerRequestDoc,
  MAX_MATCHES_PER_KIND,
  type MatchCandidate,
} from '@app/demand';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  ID_GENERATOR,
  type IdGenerator,
  type ProcessManager,
  READ_STORE,
  type ReadStore,
  type RecordedEvent,
  type StreamWrite,
  streamEntityId,
  WrongExpectedRevisionError,
} from '@app/platform';
import { INVENTORY_ITEMS, type InventoryItemDoc } from '@app/supply';

import { MatchCandidates } from '../engine/match-candidates';
import { loadRequest, recordMatchesWrite, withMatchIds } from '../engine/request-stream';

export const REVERSE_MATCHING = 'reverse-matching';
const ACTOR = 'system:reverse-matching';
/** Requests appended per batch append. */
const WRITE_CHUNK = 250;

interface Found {
  workspaceId: string;
  candidates: MatchCandidate[];
  cause: RecordedEvent;
}

export function criteriaOfDoc(doc: BuyerRequestDoc): BuyerRequestCriteria {
  const { cardName, setName, condition, maxPriceMinor, currency, source, cardKey, setKey, matchKey, conditionClass, conditionScore, gradingCompany } = doc;
  return {
    cardName,
    setName,
    condition,
    maxPriceMinor,
    currency,
    source,
    match: { cardKey, setKey, matchKey, conditionClass, conditionScore, gradingCompany },
  };
}

@Injectable()
export class ReverseMatching implements ProcessManager {
  readonly name = REVERSE_MATCHING;
  readonly eventTypes = ['inventory.created', 'inventory.updated', 'buyer_request.created', 'buyer_request.updated'];
  private readonly logger = new Logger(REVERSE_MATCHING);

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly candidates: MatchCandidates,
  ) {}

  async handle(batch: readonly RecordedEvent[]): Promise<void> {
    const byRequest = new Map<string, Found>();
    const add = (requestId: string, workspaceId: string, candidate: MatchCandidate, cause: RecordedEvent) => {
      const found = byRequest.get(requestId) ?? { workspaceId, candidates: [], cause };
      found.candidates.push(candidate);
      byRequest.set(requestId, found);
    };

    // The read models include this whole batch, so the latest state of each entity is what counts.
    const itemCause = new Map<string, RecordedEvent>();
    const requestCause = new Map<string, RecordedEvent>();
    for (const event of batch) {
      const id = streamEntityId(event.streamId);
      (event.type.startsWith('inventory.') ? itemCause : requestCause).set(id, event);
    }
    const items = await this.reads.collection<InventoryItemDoc>(INVENTORY_ITEMS).getMany([...itemCause.keys()]);
    for (const item of items) {
      const cause = itemCause.get(item.id);
      if (!cause) continue;
      for (const { request, match } of await this.candidates.requestsMetBy(item)) add(request.id, request.workspaceId, match, cause);
    }
    const requests = await this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS).getMany([...requestCause.keys()]);
    for (const request of requests) {
      const cause = requestCause.get(request.id);
      if (!cause || request.status === 'archived') continue;
      const full = await this.candidates.fullMatches(request.workspaceId, criteriaOfDoc(request), MAX_MATCHES_PER_KIND);
      for (const match of full) if (!request.matchedItemIds.includes(match.inventoryItemId)) add(request.id, request.workspaceId, match, cause);
    }

    const entries = [...byRequest.entries()];
    for (let i = 0; i < entries.length; i += WRITE_CHUNK) await this.record(entries.slice(i, i + WRITE_CHUNK));
  }

  /** One batch append for the chunk; on a concurrent change, request by request with retries. */
  private async record(chunk: ReadonlyArray<[string, Found]>): Promise<void> {
    const writes = await this.writesFor(chunk);
    if (writes.length === 0) return;
    try {
      await this.events.appendMany(writes);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      for (const entry of chunk) await this.recordOne(entry);
    }
  }

  private async recordOne(entry: [string, Found]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const [write] = await this.writesFor([entry]);
      if (!write) return;
      try {
        await this.events.append(write.streamId, write.events, { expectedRevision: write.expectedRevision });
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= 5) throw error;
        this.logger.debug?.(`request ${entry[0]} changed meanwhile; judging again`);
      }
    }
  }

  private async writesFor(chunk: ReadonlyArray<[string, Found]>): Promise<StreamWrite[]> {
    const now = this.clock.now();
    const writes: StreamWrite[] = [];
    for (const [requestId, found] of chunk) {
      const loaded = await loadRequest(this.events, requestId);
      if (loaded.workspaceId !== found.workspaceId) continue;
      const write = recordMatchesWrite(loaded, withMatchIds(loaded.state, found.candidates, this.ids), now, {
        actor: ACTOR,
        correlationId: found.cause.metadata.correlationId,
        causationId: found.cause.id,
      });
      if (write) writes.push(write);
    }
    return writes;
  }
}
