import { type FoundMatch, MAX_MATCHES_PER_KIND } from '@app/contracts';
import { fold } from '@app/platform/domain';
import { deciderSpec } from '@app/testing/support/decider-spec';

import { buyerRequestDecider, type CreateBuyerRequest, type RecordMatches, type UpdateBuyerRequest } from './buyer-request.decider';
import type { BuyerRequestCriteria, BuyerRequestEvent } from './buyer-request.events';
import { parseBuyerRequestEvent } from './buyer-request.parse';

const spec = deciderSpec(buyerRequestDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-02T10:00:00.000Z');
const criteria: BuyerRequestCriteria = {
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  maxPriceMinor: 45000,
  currency: 'USD',
  source: 'show',
  match: {
    cardKey: 'charizard',
    setKey: 'base1',
    matchKey: 'base1|charizard',
    conditionClass: 'raw',
    conditionScore: 5,
    gradingCompany: null,
  },
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

const create = (matches: FoundMatch[] = []): CreateBuyerRequest => ({
  type: 'CreateBuyerRequest',
  buyerRequestId: 'br_1',
  criteria,
  input,
  matches,
  matchedThrough: 41,
  now,
});
const created: BuyerRequestEvent = {
  type: 'buyer_request.created',
  data: { buyerRequestId: 'br_1', ...criteria, input, matchedThrough: 41, buyerSealed: null, buyerId: null, contactSealed: null, createdAt: now.toISOString() },
};
/** The one event a write records its matches with: the new ones (`created`) and the newly full ones. */
const recorded = (created: FoundMatch[], full: FoundMatch[], matchCount: number, at = now): BuyerRequestEvent => ({
  type: 'buyer_request.matches_recorded',
  data: {
    buyerRequestId: 'br_1',
    created: created.map(({ matchId, inventoryItemId, kind, score, factors, reasons }) => ({ matchId, inventoryItemId, kind, score, factors, reasons })),
    full: full.map((m) => ({ matchId: m.matchId, inventoryItemId: m.inventoryItemId, score: m.score })),
    matchCount,
    recordedAt: at.toISOString(),
  },
});
/** Full matches, new: listed both as created and as newly full. */
const matched = (ms: FoundMatch[], matchCount: number, at = now): BuyerRequestEvent => recorded(ms, ms, matchCount, at);

// Logs written before matches_recorded: one buyer_request.matched (the newly full matches), then
// one match.created per new match, as stored then, read back through the parser (the upcast).
const stored = (type: string, data: unknown) => parseBuyerRequestEvent({ id: 'x', type, data, metadata: { workspaceId: 'ws_1', schemaVersion: 1 }, streamId: 'buyer_request-br_1', revision: 0, position: 0, createdAt: now.toISOString() });
const oldMatchCreated = (m: FoundMatch, at = now): BuyerRequestEvent => stored('match.created', { ...m, buyerRequestId: 'br_1', createdAt: at.toISOString() });
const oldMatched = (ms: FoundMatch[], matchCount: number, at = now): BuyerRequestEvent =>
  stored('buyer_request.matched', {
    buyerRequestId: 'br_1',
    matches: ms.map((m) => ({ matchId: m.matchId, inventoryItemId: m.inventoryItemId, score: m.score })),
    matchCount,
    matchedAt: at.toISOString(),
  });
const record = (matches: FoundMatch[]): RecordMatches => ({ type: 'RecordMatches', matches, now: later });
const archived: BuyerRequestEvent = {
  type: 'buyer_request.archived',
  data: { buyerRequestId: 'br_1', reason: null, archivedAt: now.toISOString() },
};

describe('buyer request decider', () => {
  describe('create', () => {
    it('creates a request without matches when inventory has none', () => {
      spec.given([]).when(create()).then([created]);
    });

    it('records instant matches in one event: every match, best first, and the count', () => {
      const a = found('inv_a');
      const b = found('inv_b', 'full', 0.97);
      const near = found('inv_n', 'near_miss', 0.6);
      spec.given([]).when(create([a, near, b])).then([created, recorded([b, a, near], [b, a], 2)]);
    });

    it('refuses to create the same request twice', () => {
      spec.given([created]).when(create()).thenThrows('CONFLICT', 'already exists');
    });
  });

  describe('record matches', () => {
    it('records only pairs it does not know (idempotent on replay)', () => {
      const a = found('inv_a');
      const b = found('inv_b');
      const later_ = { ...b, matchId: 'mt_other' };
      spec
        .given([created, matched([a], 1)])
        .when(record([{ ...a, matchId: 'mt_new' }, later_]))
        .then([matched([later_], 2, later)]);
      spec.given([created, matched([a], 1)]).when(record([{ ...a, matchId: 'mt_new' }])).then([]);
    });

    it('a near miss adds a match but not to the count; when it becomes full it keeps its id', () => {
      const near = found('inv_n', 'near_miss', 0.6);
      spec.given([created]).when(record([near])).then([recorded([near], [], 0, later)]);
      const nowFull = { ...found('inv_n', 'full', 0.93), matchId: 'mt_ignored' };
      spec
        .given([created, recorded([near], [], 0)])
        .when(record([nowFull]))
        .then([recorded([], [{ ...nowFull, matchId: near.matchId }], 1, later)]);
    });

    it('a full match never turns back into a near miss', () => {
      const a = found('inv_a');
      spec.given([created, matched([a], 1)]).when(record([found('inv_a', 'near_miss', 0.5)])).then([]);
    });

    describe('on a log written one event per match (read back as matches_recorded)', () => {
      const a = found('inv_a');
      const near = found('inv_n', 'near_miss', 0.6);
      const oldLog = [created, oldMatched([a], 1), oldMatchCreated(a), oldMatchCreated(near)];
      const newLog = [created, recorded([a, near], [a], 1)];

      it('folds to the same state as the one event', () => {
        expect(fold(buyerRequestDecider, oldLog)).toEqual(fold(buyerRequestDecider, newLog));
        const nowFull = { ...found('inv_n', 'full', 0.9), matchId: 'mt_other' };
        expect(fold(buyerRequestDecider, [...oldLog, oldMatched([{ ...nowFull, matchId: near.matchId }], 2, later)])).toEqual(
          fold(buyerRequestDecider, [...newLog, recorded([], [{ ...nowFull, matchId: near.matchId }], 2, later)]),
        );
      });

      it('never records a pair twice: known pairs add nothing, a near miss becoming full keeps its id', () => {
        spec.given(oldLog).when(record([{ ...a, matchId: 'mt_new' }, { ...near, matchId: 'mt_new2' }])).then([]);
        const nowFull = { ...found('inv_n', 'full', 0.9), matchId: 'mt_other' };
        const b = found('inv_b', 'full', 0.8);
        spec
          .given(oldLog)
          .when(record([nowFull, b]))
          .then([recorded([b], [{ ...nowFull, matchId: near.matchId }, b], 3, later)]);
      });
    });

    it('keeps at most the cap of full matches, best scores first', () => {
      const many = Array.from({ length: MAX_MATCHES_PER_KIND + 5 }, (_, i) => found(`inv_${String(i).padStart(3, '0')}`, 'full', i / 1000));
      const events = buyerRequestDecider.decide(record(many), buyerRequestDecider.evolve(buyerRequestDecider.initialState, created));
      expect(events).toHaveLength(1);
      const first = events[0];
      expect(first.type).toBe('buyer_request.matches_recorded');
      if (first.type !== 'buyer_request.matches_recorded') return;
      expect(first.data.matchCount).toBe(MAX_MATCHES_PER_KIND);
      expect(first.data.full).toHaveLength(MAX_MATCHES_PER_KIND);
      expect(first.data.created).toHaveLength(MAX_MATCHES_PER_KIND);
      expect(first.data.full[0].inventoryItemId).toBe('inv_104');
      expect(first.data.full.some((m) => m.inventoryItemId === 'inv_000')).toBe(false);
    });

    it('an archived request never matches again (no events, no error: replays stay quiet)', () => {
      spec.given([created, archived]).when(record([found('inv_a')])).then([]);
    });

    it('refuses to record matches for a request that does not exist', () => {
      spec.given([]).when(record([found('inv_a')])).thenThrows('NOT_FOUND', 'not found');
    });
  });

  describe('update', () => {
    const cheaper: BuyerRequestCriteria = { ...criteria, maxPriceMinor: 30000 };

    it('records the whole new criteria with the changed fields, then new matches', () => {
      const a = found('inv_a');
      spec
        .given([created])
        .when({ type: 'UpdateBuyerRequest', criteria: cheaper, input: {}, matches: [a], matchedThrough: 7, now: later })
        .then([
          {
            type: 'buyer_request.updated',
            data: {
              buyerRequestId: 'br_1',
              ...cheaper,
              changedFields: ['maxPriceMinor'],
              input: {},
              matchedThrough: 7,
              buyerSealed: null,
              updatedAt: later.toISOString(),
            },
          },
          matched([a], 1, later),
        ]);
    });

    it('changes nothing when nothing differs', () => {
      spec.given([created]).when({ type: 'UpdateBuyerRequest', criteria, input: {}, matches: [], matchedThrough: 7, now: later }).then([]);
    });

    it('refuses to change an archived request', () => {
      spec
        .given([created, archived])
        .when({ type: 'UpdateBuyerRequest', criteria: cheaper, input: {}, matches: [], matchedThrough: 7, now: later })
        .thenThrows('INVALID_TRANSITION', 'archived');
    });
  });

  describe('buyer', () => {
    // Sealed values as the handlers give them: the decider never sees a buyer in clear.
    const sealedA = 'sb1.0000000a.iv.tag.buyer-a';
    const sealedB = 'sb1.0000000a.iv.tag.buyer-b';
    const createdWithA: BuyerRequestEvent = {
      type: 'buyer_request.created',
      data: { buyerRequestId: 'br_1', ...criteria, input, matchedThrough: 41, buyerSealed: sealedA, buyerId: null, contactSealed: null, createdAt: now.toISOString() },
    };
    const update = (changes: Partial<UpdateBuyerRequest>): UpdateBuyerRequest => ({
      type: 'UpdateBuyerRequest',
      criteria,
      input: {},
      matches: [],
      matchedThrough: 7,
      now: later,
      ...changes,
    });
    const updated = (changedFields: string[], buyerSealed: string | null, changed: BuyerRequestCriteria = criteria): BuyerRequestEvent => ({
      type: 'buyer_request.updated',
      data: { buyerRequestId: 'br_1', ...changed, changedFields, input: {}, matchedThrough: 7, buyerSealed, updatedAt: later.toISOString() },
    });

    it('records the sealed buyer a request is created with (none: null)', () => {
      spec.given([]).when({ ...create(), buyerSealed: sealedA }).then([createdWithA]);
      spec.given([]).when({ ...create(), buyerSealed: null }).then([created]);
    });

    it('a change of buyer alone is an update naming `buyer`, and records no matches', () => {
      spec
        .given([createdWithA])
        .when(update({ buyerSealed: sealedB, matches: [found('inv_a')] }))
        .then([updated(['buyer'], sealedB)]);
    });

    it('gives a request a buyer, and removes it with null', () => {
      spec.given([created]).when(update({ buyerSealed: sealedA })).then([updated(['buyer'], sealedA)]);
      spec.given([createdWithA]).when(update({ buyerSealed: null })).then([updated(['buyer'], null)]);
      spec.given([createdWithA, updated(['buyer'], null)]).when(update({ buyerSealed: sealedB })).then([updated(['buyer'], sealedB)]);
    });

    it('changes nothing when the buyer is left out, or stays as it is', () => {
      spec.given([createdWithA]).when(update({})).then([]);
      spec.given([createdWithA]).when(update({ buyerSealed: sealedA })).then([]);
      spec.given([created]).when(update({ buyerSealed: null })).then([]);
    });

    it('carries the buyer along when only the criteria change, and both when both do', () => {
      const cheaper: BuyerRequestCriteria = { ...criteria, maxPriceMinor: 30000 };
      const a = found('inv_a');
      spec
        .given([createdWithA])
        .when(update({ criteria: cheaper, matches: [a] }))
        .then([updated(['maxPriceMinor'], sealedA, cheaper), matched([a], 1, later)]);
      spec
        .given([createdWithA])
        .when(update({ criteria: cheaper, buyerSealed: null, matches: [a] }))
        .then([updated(['maxPriceMinor', 'buyer'], null, cheaper), matched([a], 1, later)]);
    });

    it('keeps the buyer out of the criteria the request is matched by', () => {
      const state = buyerRequestDecider.evolve(buyerRequestDecider.initialState, createdWithA);
      expect(state.status).toBe('active');
      if (state.status === 'none') return;
      expect(state.buyerSealed).toBe(sealedA);
      expect(state.criteria).toEqual(criteria);
      const after = buyerRequestDecider.evolve(state, updated(['buyer'], null));
      expect(after.status !== 'none' && after.buyerSealed).toBeNull();
    });

    it('refuses to change the buyer of an archived request', () => {
      spec.given([createdWithA, archived]).when(update({ buyerSealed: null })).thenThrows('INVALID_TRANSITION', 'archived');
    });
  });

  describe('archive', () => {
    it('archives once; archiving again changes nothing', () => {
      spec.given([created]).when({ type: 'ArchiveBuyerRequest', reason: null, now }).then([archived]);
      spec.given([created, archived]).when({ type: 'ArchiveBuyerRequest', reason: null, now }).then([]);
    });

    it('refuses a repeat naming another reason than the recorded one (409 naming the field); the same or none is the no-op', () => {
      const withReason: BuyerRequestEvent = { type: 'buyer_request.archived', data: { buyerRequestId: 'br_1', reason: 'sold', archivedAt: now.toISOString() } };
      spec.given([created, withReason]).when({ type: 'ArchiveBuyerRequest', reason: 'sold', now: later }).then([]);
      spec.given([created, withReason]).when({ type: 'ArchiveBuyerRequest', reason: null, now: later }).then([]);
      spec.given([created, withReason]).when({ type: 'ArchiveBuyerRequest', reason: 'spam', now: later }).thenThrows('CONFLICT', 'reason "sold"');
      spec.given([created, archived]).when({ type: 'ArchiveBuyerRequest', reason: 'spam', now: later }).thenThrows('CONFLICT', 'reason null');
      expect(() => buyerRequestDecider.decide({ type: 'ArchiveBuyerRequest', reason: 'spam', now: later }, fold(buyerRequestDecider, [created, withReason]))).toThrow(
        expect.objectContaining({ details: { status: 'archived', field: 'reason', recorded: 'sold', given: 'spam' } }),
      );
    });

    it('refuses to archive a request that does not exist', () => {
      spec.given([]).when({ type: 'ArchiveBuyerRequest', reason: null, now }).thenThrows('NOT_FOUND', 'not found');
    });
  });

  describe('open fields (only the card is required)', () => {
    // Any printing, any condition, no price limit: the match fields are the wildcard ones.
    const open: BuyerRequestCriteria = {
      ...criteria,
      setName: null,
      condition: null,
      maxPriceMinor: null,
      match: { cardKey: 'charizard', setKey: '*', matchKey: '*|charizard', conditionClass: '*', conditionScore: 0, gradingCompany: null },
    };
    const openInput = { cardName: 'charizard', setName: null, condition: null };
    const createdOpen: BuyerRequestEvent = {
      type: 'buyer_request.created',
      data: { buyerRequestId: 'br_1', ...open, input: openInput, matchedThrough: 41, buyerSealed: null, buyerId: null, contactSealed: null, createdAt: now.toISOString() },
    };
    const update = (next: BuyerRequestCriteria, typed: UpdateBuyerRequest['input'], matches: FoundMatch[] = []): UpdateBuyerRequest => ({
      type: 'UpdateBuyerRequest',
      criteria: next,
      input: typed,
      matches,
      matchedThrough: 50,
      now: later,
    });
    const updated = (next: BuyerRequestCriteria, changedFields: string[], typed: UpdateBuyerRequest['input']): BuyerRequestEvent => ({
      type: 'buyer_request.updated',
      data: { buyerRequestId: 'br_1', ...next, changedFields, input: typed, matchedThrough: 50, buyerSealed: null, updatedAt: later.toISOString() },
    });

    it('creates a request with only the card, and records its instant matches', () => {
      const a = found('inv_a');
      spec.given([]).when({ ...create([a]), criteria: open, input: openInput }).then([createdOpen, matched([a], 1)]);
    });

    it('a PATCH opens the set, the condition and the price (null), matching the new criteria', () => {
      const a = found('inv_a');
      spec
        .given([created])
        .when(update(open, { setName: null, condition: null }, [a]))
        .then([updated(open, ['setName', 'condition', 'maxPriceMinor', 'match'], { setName: null, condition: null }), matched([a], 1, later)]);
    });

    it('a PATCH closes them again', () => {
      spec.given([createdOpen]).when(update(criteria, { setName: 'Base', condition: 'NM' })).then([
        updated(criteria, ['setName', 'condition', 'maxPriceMinor', 'match'], { setName: 'Base', condition: 'NM' }),
      ]);
    });

    it('opening a field that is open already changes nothing', () => {
      spec.given([createdOpen]).when(update(open, { setName: null })).then([]);
    });

    it('an event written before open fields (every field given) reads as it always did', () => {
      const old = stored('buyer_request.created', {
        buyerRequestId: 'br_1',
        cardName: 'Charizard',
        setName: 'Base',
        condition: 'Near Mint',
        maxPriceMinor: 45000,
        currency: 'USD',
        source: 'show',
        createdAt: now.toISOString(),
      });
      expect(old).toEqual({
        type: 'buyer_request.created',
        data: expect.objectContaining({ setName: 'Base', condition: 'Near Mint', maxPriceMinor: 45000, match: criteria.match, input: { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' } }),
      });
      expect(fold(buyerRequestDecider, [old])).toEqual(fold(buyerRequestDecider, [created]));
    });
  });
});
