// Reverse matching, a process manager on the log: a new, changed or repriced inventory item (or one
// whose units a release made available again) is matched against the open requests of its workspace, and a new or changed request against the
// inventory (which closes the race between a request's instant check and stock arriving at the
// same moment). Found pairs are recorded on the requests, in batch appends; the buyer request
// decider drops pairs it already knows, so a replayed batch records nothing twice.
import { Inject, Injectable, Logger } from '@nestjs/common';

import { type MatchCandidate, MAX_MATCHES_PER_KIND } from '@app/contracts';
import {
  BUYER_REQUEST_READER,
  type BuyerRequestCriteria,
  type BuyerRequestReader,
  type BuyerRequestView,
  loadMatchableRequest,
} from '@app/demand';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  ID_GENERATOR,
  type IdGenerator,
  type ProcessManager,
  type RecordedEvent,
  streamEntityId,
  yieldToEventLoop,
} from '@app/platform';
import { handleCommands, WrongExpectedRevisionError } from '@app/platform/domain';
import { INVENTORY_READER, type InventoryReader } from '@app/supply';

import { MatchCandidates, requestViewOfDoc } from '../engine/match-candidates';
import { scoreMatch } from '../scoring/match-scoring';

export const REVERSE_MATCHING = 'reverse-matching';
const ACTOR = 'system:reverse-matching';
/** Requests appended per batch append. */
const WRITE_CHUNK = 250;
/** Items whose requests are read together (a few queries), between turns of the event loop. */
const ITEMS_PER_LOOKUP = 1000;
/**
 * Stock events handled per batch: the whole of a big push at once, so that a request matched by
 * many of its items gets one `buyer_request.matches_recorded` for all of them, not one per batch.
 */
const BATCH_SIZE = 10_000;
/** Beyond this many log positions between a request's instant check and itself, query instead. */
const WINDOW_LIMIT = 5000;
/**
 * The inventory events that can make an item newly available to a request: created, changed, and
 * released (units a trade or hold gave back; a reservation or sale only takes units away).
 */
const STOCK_EVENT_TYPES = ['inventory.created', 'inventory.updated', 'inventory.released'];

interface Found {
  workspaceId: string;
  candidates: MatchCandidate[];
  cause: RecordedEvent;
}

export function criteriaOfDoc(doc: BuyerRequestView): BuyerRequestCriteria {
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
  readonly eventTypes = [...STOCK_EVENT_TYPES, 'buyer_request.created', 'buyer_request.updated'];
  readonly batchSize = BATCH_SIZE;
  private readonly logger = new Logger(REVERSE_MATCHING);

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly candidates: MatchCandidates,
    @Inject(INVENTORY_READER) private readonly items: InventoryReader,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
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
    const items = (await this.items.getMany([...itemCause.keys()])).filter((item) => itemCause.has(item.id));
    // The requests are read for many items at once; the stores are synchronous, so let HTTP
    // requests through between the slices of a big batch.
    for (let start = 0; start < items.length; start += ITEMS_PER_LOOKUP) {
      if (start > 0) await yieldToEventLoop();
      const slice = items.slice(start, start + ITEMS_PER_LOOKUP);
      const met = await this.candidates.requestsMetByMany(slice);
      for (const [i, item] of slice.entries()) {
        const cause = itemCause.get(item.id) as RecordedEvent;
        for (const { request, match } of met[i]) add(request.id, request.workspaceId, match, cause);
      }
    }
    const requests = (await this.requests.getMany([...requestCause.keys()])).filter(
      (r) => r.status !== 'archived',
    );
    for (const { request, match, cause } of await this.stockSinceInstantCheck(requests, requestCause)) {
      add(request.id, request.workspaceId, match, cause);
    }

    const entries = [...byRequest.entries()];
    for (let i = 0; i < entries.length; i += WRITE_CHUNK) {
      await this.record(entries.slice(i, i + WRITE_CHUNK));
      await yieldToEventLoop();
    }
  }

  /**
   * A new or changed request was checked against inventory when it was written, up to the log
   * position it records (`matchedThrough`). Stock written between that check and the request
   * itself may have been missed by both sides: judge exactly those items, read from the log.
   * Requests written without a position, or behind a long window, get the full query instead.
   */
  private async stockSinceInstantCheck(
    requests: readonly BuyerRequestView[],
    causes: ReadonlyMap<string, RecordedEvent>,
  ): Promise<Array<{ request: BuyerRequestView; match: MatchCandidate; cause: RecordedEvent }>> {
    const out: Array<{ request: BuyerRequestView; match: MatchCandidate; cause: RecordedEvent }> = [];
    const windowed: Array<{ request: BuyerRequestView; cause: RecordedEvent; from: number }> = [];
    for (const request of requests) {
      const cause = causes.get(request.id);
      if (!cause) continue;
      const from = (cause.data as { matchedThrough?: unknown }).matchedThrough;
      if (typeof from === 'number' && cause.position - from <= WINDOW_LIMIT) {
        windowed.push({ request, cause, from });
        continue;
      }
      const full = await this.candidates.fullMatches(request.workspaceId, criteriaOfDoc(request), MAX_MATCHES_PER_KIND);
      for (const match of full) if (!request.matchedItemIds.includes(match.inventoryItemId)) out.push({ request, match, cause });
    }
    if (windowed.length === 0) return out;

    const from = Math.min(...windowed.map((w) => w.from));
    const to = Math.max(...windowed.map((w) => w.cause.position));
    const stock: RecordedEvent[] = [];
    for (let after = from; after < to; ) {
      const page = await this.events.readAll({ fromPosition: after, limit: 1000, filter: { types: STOCK_EVENT_TYPES } });
      stock.push(...page.filter((e) => e.position <= to));
      if (page.length < 1000) break;
      after = page[page.length - 1].position;
    }
    if (stock.length === 0) return out;
    const items = new Map((await this.items.getMany([...new Set(stock.map((e) => streamEntityId(e.streamId)))])).map((i) => [i.id, i]));
    for (const { request, cause, from: after } of windowed) {
      const view = requestViewOfDoc(request);
      const seen = new Set<string>();
      for (const e of stock) {
        if (e.position <= after || e.position > cause.position || e.metadata.workspaceId !== request.workspaceId) continue;
        const item = items.get(streamEntityId(e.streamId));
        if (!item || seen.has(item.id) || item.status !== 'available' || request.matchedItemIds.includes(item.id)) continue;
        seen.add(item.id);
        const match = scoreMatch(view, item);
        if (match?.kind === 'full') out.push({ request, match, cause });
      }
    }
    return out;
  }

  /**
   * Records the chunk's matches in one transaction of the write path. Should the requests keep
   * changing under it (a version conflict twice), each is recorded in its own transaction, so one
   * busy request never holds the others back.
   */
  private async record(chunk: ReadonlyArray<[string, Found]>): Promise<void> {
    try {
      await this.recordAll(chunk, 2);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      this.logger.debug?.(`requests changed while their matches were recorded; recording them one by one`);
      for (const entry of chunk) await this.recordAll([entry], 5);
    }
  }

  private async recordAll(chunk: ReadonlyArray<[string, Found]>, maxAttempts: number): Promise<void> {
    await handleCommands(
      this.events,
      { actor: ACTOR },
      async (tx) => {
        const now = this.clock.now();
        for (const [requestId, found] of chunk) {
          const request = await loadMatchableRequest(tx, found.workspaceId, requestId);
          if (!request) continue;
          const matches = request.withMatchIds(found.candidates, () => this.ids.next('mt'));
          request.recordMatches(tx, matches, now, { correlationId: found.cause.metadata.correlationId, causationId: found.cause.id });
        }
      },
      { maxAttempts },
    );
  }
}
