// The buyer request read models' evolve, given/when/then: given the events a request's stream holds
// (as the decider makes them), then the documents. Applying an event twice is applying it once.
import type { FoundMatch } from '@app/contracts';
import { type DocumentProjection, evolveDocument, type RecordedEvent, type StreamDoc } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { buyerRequestMatchesProjection, MATCHES, matchProjection } from './buyer-request-matches.projection';
import { buyerRequestDecider, type BuyerRequestCommand } from './buyer-request.decider';
import type { BuyerRequestCriteria, BuyerRequestEvent } from './buyer-request.events';
import { parseBuyerRequestEvent } from './buyer-request.parse';
import { buyerRequestProjection, NO_PRICE_LIMIT } from './buyer-request.projection';

const WS = 'ws_1';
const now = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-02T10:00:00.000Z');
const criteria: BuyerRequestCriteria = {
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  maxPriceMinor: 45000,
  currency: 'USD',
  source: 'show',
  match: { cardKey: 'charizard', setKey: 'base1', matchKey: 'base1|charizard', conditionClass: 'raw', conditionScore: 5, gradingCompany: null },
};
const input = { cardName: 'charizard', setName: 'Base Set', condition: 'NM' };
const found = (item: string, kind: FoundMatch['kind'] = 'full', score = 0.95): FoundMatch => ({
  matchId: `mt_${item}`,
  inventoryItemId: item,
  kind,
  score,
  factors: [{ name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 }],
  reasons: ['same card'],
});
const create = (matches: FoundMatch[] = []): BuyerRequestCommand => ({
  type: 'CreateBuyerRequest',
  buyerRequestId: 'br_1',
  criteria,
  input,
  matches,
  matchedThrough: 0,
  now,
});
const record = (matches: FoundMatch[]): BuyerRequestCommand => ({ type: 'RecordMatches', matches, now: later });

/** The stream's events as recorded, one command after another, decided on what came before. */
function history(...commands: BuyerRequestCommand[]): RecordedEvent[] {
  const events: BuyerRequestEvent[] = [];
  for (const command of commands) {
    const state = events.reduce(buyerRequestDecider.evolve, buyerRequestDecider.initialState);
    events.push(...buyerRequestDecider.decide(command, state));
  }
  return stream(events);
}

/** Events as the log holds them (their data as stored: JSON). */
function stream(events: ReadonlyArray<{ type: string; data: unknown }>): RecordedEvent[] {
  return events.map((e, revision) => ({
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    type: e.type,
    data: JSON.parse(JSON.stringify(e.data)) as unknown,
    metadata: { workspaceId: WS, schemaVersion: 1 },
    streamId: 'buyer_request-br_1',
    revision,
    position: 100 + revision,
    createdAt: now.toISOString(),
  }));
}

/** What a log written before matches_recorded holds for the same history: one event per match. */
function oldLog(): RecordedEvent[] {
  const [a, b, near] = [found('inv_a'), found('inv_b', 'full', 0.97), found('inv_n', 'near_miss', 0.6)];
  const created = buyerRequestDecider.decide(create(), buyerRequestDecider.initialState)[0];
  const matchCreated = (m: FoundMatch, at: Date) => ({ type: 'match.created', data: { ...m, buyerRequestId: 'br_1', createdAt: at.toISOString() } });
  const matched = (ms: Array<Pick<FoundMatch, 'matchId' | 'inventoryItemId' | 'score'>>, matchCount: number, at: Date) => ({
    type: 'buyer_request.matched',
    data: { buyerRequestId: 'br_1', matches: ms.map((m) => ({ matchId: m.matchId, inventoryItemId: m.inventoryItemId, score: m.score })), matchCount, matchedAt: at.toISOString() },
  });
  return stream([
    created,
    matched([b, a], 2, now),
    matchCreated(b, now),
    matchCreated(a, now),
    matchCreated(near, now),
    // The near miss meets every criterion later: it becomes full, keeping its id.
    matched([{ ...near, score: 0.9 }], 3, later),
    // Reverse matching finds a near miss alone.
    matchCreated(found('inv_m', 'near_miss', 0.5), later),
  ]);
}

/** The same history written by today's decider: one event per write. */
function newLog(): RecordedEvent[] {
  const [a, b, near] = [found('inv_a'), found('inv_b', 'full', 0.97), found('inv_n', 'near_miss', 0.6)];
  return history(create([a, near, b]), record([{ ...found('inv_n', 'full', 0.9), matchId: 'mt_other' }]), record([found('inv_m', 'near_miss', 0.5)]));
}

/** Documents without their revision (a log of fewer events has other revisions). */
const withoutRevision = <D extends StreamDoc>(docs: Record<string, D | null>) =>
  Object.fromEntries(Object.entries(docs).map(([id, d]) => [id, d && { ...d, revision: undefined }]));

/** The document a projection makes of events, as the runner or the write applies them. */
function project<D extends StreamDoc>(projection: DocumentProjection<D>, events: readonly RecordedEvent[], start: D | null = null): Record<string, D | null> {
  const docs: Record<string, D | null> = {};
  for (const event of events.filter((e) => projection.eventTypes.includes(e.type))) {
    const id = projection.documentId(event);
    docs[id] = evolveDocument(projection.evolve, docs[id] ?? start, event, id);
  }
  return docs;
}

describe('buyer request read models (evolve)', () => {
  describe('buyer_requests', () => {
    it('given a request with only the card, then its open fields are null and its index fields the wildcard ones', () => {
      const open: BuyerRequestCriteria = {
        ...criteria,
        setName: null,
        condition: null,
        maxPriceMinor: null,
        match: { cardKey: 'charizard', setKey: '*', matchKey: '*|charizard', conditionClass: '*', conditionScore: 0, gradingCompany: null },
      };
      const events = history({ ...(create() as Extract<BuyerRequestCommand, { type: 'CreateBuyerRequest' }>), criteria: open, input: { cardName: 'charizard', setName: null, condition: null } });
      const { br_1: doc } = project(buyerRequestProjection, events);
      expect(doc).toMatchObject({ setName: null, condition: null, maxPriceMinor: null, priceCeilingMinor: NO_PRICE_LIMIT, setKey: '*', matchKey: '*|charizard', conditionClass: '*', conditionScore: 0 });
      expect(project(buyerRequestProjection, history(create())).br_1).toMatchObject({ maxPriceMinor: 45000, priceCeilingMinor: 45000, matchKey: 'base1|charizard' });
      // Documents of the shape before open fields are rebuilt.
      expect(buyerRequestProjection.version).toBe(4);
    });

    it('given a request created with matches, then one document: matched, with its count and items', () => {
      const { br_1: doc } = project(buyerRequestProjection, history(create([found('inv_a'), found('inv_b', 'full', 0.97)])));
      expect(doc).toMatchObject({
        id: 'br_1',
        revision: 1,
        workspaceId: WS,
        status: 'matched',
        matchCount: 2,
        matchedItemIds: ['inv_b', 'inv_a'],
        matchKey: 'base1|charizard',
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        archivedAt: null,
      });
    });

    it('given a change and an archive, then the new criteria, archived; archived stays archived when matches come', () => {
      const events = history(
        create(),
        { type: 'UpdateBuyerRequest', criteria: { ...criteria, maxPriceMinor: 50000 }, input: {}, matches: [], matchedThrough: 0, now: later },
        { type: 'ArchiveBuyerRequest', reason: 'sold', now: later },
      );
      expect(project(buyerRequestProjection, events).br_1).toMatchObject({ maxPriceMinor: 50000, status: 'archived', archivedAt: later.toISOString(), revision: 2 });
    });

    it('applying an event twice is applying it once', () => {
      const events = history(create([found('inv_a')]));
      const once = project(buyerRequestProjection, events).br_1;
      expect(project(buyerRequestProjection, events, once).br_1).toBe(once);
    });
  });

  describe('buyer_request_matches', () => {
    it('given no match, then no document', () => {
      expect(project(buyerRequestMatchesProjection, history(create()))).toEqual({});
    });

    it('given instant matches, then one document for the request with each match, as recorded', () => {
      const { br_1: doc } = project(buyerRequestMatchesProjection, history(create([found('inv_a', 'full', 0.91)])));
      expect(doc).toEqual({
        id: 'br_1',
        // The request (0), then its matches in one event (1).
        revision: 1,
        workspaceId: WS,
        matches: [
          {
            id: 'mt_inv_a',
            inventoryItemId: 'inv_a',
            kind: 'full',
            score: 0.91,
            factors: found('inv_a').factors,
            reasons: ['same card'],
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          },
        ],
      });
    });

    it('given a near miss that later meets every criterion, then the same match, full, with its new score', () => {
      const events = history(create(), record([found('inv_a', 'near_miss', 0.6)]), record([{ ...found('inv_a', 'full', 0.9), matchId: 'mt_other' }]));
      expect(project(buyerRequestMatchesProjection, events).br_1?.matches).toEqual([
        expect.objectContaining({ id: 'mt_inv_a', kind: 'full', score: 0.9, createdAt: later.toISOString(), updatedAt: later.toISOString() }),
      ]);
    });

    it('applying an event twice is applying it once', () => {
      const events = history(create([found('inv_a')]), record([found('inv_b', 'near_miss', 0.5)]));
      const once = project(buyerRequestMatchesProjection, events).br_1;
      expect(once?.matches).toHaveLength(2);
      expect(project(buyerRequestMatchesProjection, events, once).br_1).toBe(once);
      // An event the document has not seen, applied again after it: nothing twice.
      const replayed = buyerRequestMatchesProjection.evolve(once, events[events.length - 1]);
      expect(replayed?.matches).toHaveLength(2);
    });
  });

  describe('matches (which request a match belongs to)', () => {
    it('given matches recorded, then one document per match naming its request', () => {
      viewSpec(matchProjection)
        .given()
        .when(...history(create([found('inv_a'), found('inv_c', 'full', 0.9)]), record([found('inv_b', 'near_miss', 0.5)])))
        .then({
          [MATCHES.name]: [
            { id: 'mt_inv_a', revision: 1, workspaceId: WS, buyerRequestId: 'br_1' },
            { id: 'mt_inv_b', revision: 2, workspaceId: WS, buyerRequestId: 'br_1' },
            { id: 'mt_inv_c', revision: 1, workspaceId: WS, buyerRequestId: 'br_1' },
          ],
        });
    });

    it('applying an event twice is applying it once; a near miss becoming full is no new match', () => {
      const events = history(create([found('inv_a')]), record([found('inv_b', 'near_miss', 0.5)]), record([{ ...found('inv_b'), matchId: 'mt_x' }]));
      const once = viewSpec(matchProjection).given().when(...events).documents();
      expect(viewSpec(matchProjection).given(once).when(...events).documents()).toEqual(once);
      expect(once[MATCHES.name].map((d) => d.id)).toEqual(['mt_inv_a', 'mt_inv_b']);
    });
  });

  describe('a log written one event per match (before matches_recorded) and one written today', () => {
    it('are the same history', () => {
      // The new log's events, by type.
      expect(newLog().map((e) => e.type)).toEqual(['buyer_request.created', 'buyer_request.matches_recorded', 'buyer_request.matches_recorded', 'buyer_request.matches_recorded']);
      expect(oldLog()).toHaveLength(7);
    });

    it('make the same buyer_requests document', () => {
      const before = project(buyerRequestProjection, oldLog());
      expect(before.br_1).toMatchObject({ status: 'matched', matchCount: 3, matchedItemIds: ['inv_b', 'inv_a', 'inv_n'], updatedAt: later.toISOString() });
      expect(withoutRevision(project(buyerRequestProjection, newLog()))).toEqual(withoutRevision(before));
    });

    it('make the same buyer_request_matches document', () => {
      const before = project(buyerRequestMatchesProjection, oldLog());
      expect(before.br_1?.matches.map((m) => [m.id, m.kind, m.score])).toEqual([
        ['mt_inv_b', 'full', 0.97],
        ['mt_inv_a', 'full', 0.95],
        ['mt_inv_n', 'full', 0.9],
        ['mt_inv_m', 'near_miss', 0.5],
      ]);
      expect(withoutRevision(project(buyerRequestMatchesProjection, newLog()))).toEqual(withoutRevision(before));
    });

    it('make the same match index', () => {
      const strip = (docs: Record<string, Array<object>>) => docs[MATCHES.name].map((d) => ({ ...d, revision: undefined }));
      const before = viewSpec(matchProjection).given().when(...oldLog()).documents();
      expect(before[MATCHES.name]).toHaveLength(4);
      expect(strip(viewSpec(matchProjection).given().when(...newLog()).documents())).toEqual(strip(before));
    });

    it('fold to the same request state (the decider reads them back as one shape)', () => {
      const fold = (events: RecordedEvent[]) => events.map(parseBuyerRequestEvent).reduce(buyerRequestDecider.evolve, buyerRequestDecider.initialState);
      expect(fold(oldLog())).toEqual(fold(newLog()));
    });
  });
});
