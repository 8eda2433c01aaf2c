import { deciderSpec } from '@app/testing/support/decider-spec';

import { type AddRows, intakeDecider, MAX_ROWS_PER_CALL, MAX_SESSION_ROWS, type Push, ROWS_PER_EVENT } from './intake.decider';
import type { IngestionEvent, IntakeRow, NormalizedRow } from './intake.events';

const spec = deciderSpec(intakeDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-01T10:05:00.000Z');

const created: IngestionEvent = {
  type: 'ingestion.session_created',
  data: {
    sessionId: 'ing_1',
    workspaceId: 'ws_1',
    name: 'show',
    source: null,
    defaultCurrency: 'USD',
    createdAt: now.toISOString(),
  },
};

function normalized(status: NormalizedRow['status'], cardName = 'Charizard'): NormalizedRow {
  return {
    raw: { name: cardName },
    status,
    fields: {
      cardName,
      setName: 'Base',
      condition: 'Near Mint',
      priceMinor: status === 'error' ? null : 1000,
      currency: 'USD',
      quantity: 1,
      sku: null,
      cardNumber: null,
      notes: null,
    },
    input: { cardName, setName: 'Base', condition: 'NM' },
    match: null,
    changes: {},
    confidence: 1,
    issues: status === 'error' ? [{ field: 'price', severity: 'error', code: 'MISSING_PRICE', message: 'A price is required' }] : [],
  };
}

const numbered = (row: NormalizedRow, n: number): IntakeRow => ({ ...row, row: n });

const add = (rows: NormalizedRow[], workspaceId = 'ws_1'): AddRows => ({ type: 'AddRows', sessionId: 'ing_1', workspaceId, rows, now });

const rowsAdded = (rows: IntakeRow[], at = now): IngestionEvent => ({
  type: 'ingestion.rows_added',
  data: { sessionId: 'ing_1', rows, addedAt: at.toISOString() },
});

const threeRows = rowsAdded([numbered(normalized('valid'), 1), numbered(normalized('error'), 2), numbered(normalized('warning'), 3)]);

const push = (outcome: Partial<Push['outcome']> = {}, workspaceId = 'ws_1'): Push => ({
  type: 'Push',
  sessionId: 'ing_1',
  workspaceId,
  outcome: {
    pushedRows: [1, 3],
    inventoryItemIds: ['inv_a', 'inv_c'],
    skippedRows: [2],
    rejections: [],
    lastPosition: 42,
    matchedBuyerRequests: 1,
    ...outcome,
  },
  now: later,
});

const pushed: IngestionEvent = {
  type: 'ingestion.pushed',
  data: {
    sessionId: 'ing_1',
    pushed: 2,
    skipped: 1,
    pushedRows: [1, 3],
    inventoryItemIds: ['inv_a', 'inv_c'],
    skippedRows: [2],
    rejections: [],
    lastPosition: 42,
    matchedBuyerRequests: 1,
    pushedAt: later.toISOString(),
  },
};

describe('intake session decider', () => {
  describe('CreateSession', () => {
    const create = {
      type: 'CreateSession' as const,
      sessionId: 'ing_1',
      workspaceId: 'ws_1',
      name: 'show',
      source: null,
      defaultCurrency: 'USD',
      now,
    };

    it('creates an open session', () => {
      spec.given([]).when(create).then([created]);
    });

    it('refuses to create the same session twice', () => {
      spec.given([created]).when(create).thenThrows('CONFLICT', 'already exists');
    });
  });

  describe('AddRows', () => {
    it('numbers rows from 1', () => {
      spec
        .given([created])
        .when(add([normalized('valid'), normalized('error')]))
        .then([rowsAdded([numbered(normalized('valid'), 1), numbered(normalized('error'), 2)])]);
    });

    it('numbers on from the rows already in the session', () => {
      spec
        .given([created, threeRows])
        .when(add([normalized('warning')]))
        .then([rowsAdded([numbered(normalized('warning'), 4)])]);
    });

    it(`splits a big call into events of at most ${ROWS_PER_EVENT} rows, numbered in order`, () => {
      const rows = Array.from({ length: ROWS_PER_EVENT * 2 + 1 }, () => normalized('valid'));
      const events = intakeDecider.decide(add(rows), intakeDecider.evolve(intakeDecider.initialState, created));
      expect(events.map((e) => (e.type === 'ingestion.rows_added' ? e.data.rows.length : 0))).toEqual([ROWS_PER_EVENT, ROWS_PER_EVENT, 1]);
      const numbers = events.flatMap((e) => (e.type === 'ingestion.rows_added' ? e.data.rows.map((r) => r.row) : []));
      expect(numbers).toEqual(rows.map((_, i) => i + 1));
    });

    it('refuses rows once the session was pushed', () => {
      spec.given([created, threeRows, pushed]).when(add([normalized('valid')])).thenThrows('INVALID_TRANSITION', 'was pushed');
    });

    it('answers NOT_FOUND for a missing session and for another workspace', () => {
      spec.given([]).when(add([normalized('valid')])).thenThrows('NOT_FOUND');
      spec.given([created]).when(add([normalized('valid')], 'ws_2')).thenThrows('NOT_FOUND');
    });

    it('refuses an empty call, an oversized call and a session beyond its cap', () => {
      spec.given([created]).when(add([])).thenThrows('VALIDATION_FAILED', 'at least one row');
      const tooMany = Array.from({ length: MAX_ROWS_PER_CALL + 1 }, () => normalized('valid'));
      spec.given([created]).when(add(tooMany)).thenThrows('VALIDATION_FAILED', `${MAX_ROWS_PER_CALL} rows per call`);
      const full = rowsAdded(Array.from({ length: MAX_SESSION_ROWS }, (_, i) => numbered(normalized('valid'), i + 1)));
      spec.given([created, full]).when(add([normalized('valid')])).thenThrows('VALIDATION_FAILED', 'at most');
    });
  });

  describe('Push', () => {
    it('records the push: pushed rows with their items, skipped rows, matches', () => {
      spec.given([created, threeRows]).when(push()).then([pushed]);
    });

    it('is a no-op on a pushed session (the first result stands)', () => {
      spec.given([created, threeRows, pushed]).when(push({ matchedBuyerRequests: 7 })).then([]);
    });

    it('pushes an empty session as nothing', () => {
      spec
        .given([created])
        .when(push({ pushedRows: [], inventoryItemIds: [], skippedRows: [], lastPosition: 0, matchedBuyerRequests: 0 }))
        .then([
          {
            type: 'ingestion.pushed',
            data: {
              sessionId: 'ing_1',
              pushed: 0,
              skipped: 0,
              pushedRows: [],
              inventoryItemIds: [],
              skippedRows: [],
              rejections: [],
              lastPosition: 0,
              matchedBuyerRequests: 0,
              pushedAt: later.toISOString(),
            },
          },
        ]);
    });

    it('never pushes a row with errors', () => {
      spec
        .given([created, threeRows])
        .when(push({ pushedRows: [1, 2, 3], inventoryItemIds: ['inv_a', 'inv_b', 'inv_c'], skippedRows: [] }))
        .thenThrows('VALIDATION_FAILED', 'Row 2 has errors');
    });

    it('refuses a stale push that does not account for every row (rows added meanwhile)', () => {
      const more = rowsAdded([numbered(normalized('valid'), 4)], later);
      spec.given([created, threeRows, more]).when(push()).thenThrows('CONFLICT', 'push again');
      spec.given([created, threeRows]).when(push({ skippedRows: [2, 2] })).thenThrows('CONFLICT');
      spec.given([created, threeRows]).when(push({ pushedRows: [1, 4], skippedRows: [2] })).thenThrows('CONFLICT');
    });

    it('needs one item per pushed row', () => {
      spec.given([created, threeRows]).when(push({ inventoryItemIds: ['inv_a'] })).thenThrows('VALIDATION_FAILED', 'exactly one');
    });

    it('answers NOT_FOUND for another workspace, even once pushed', () => {
      spec.given([created, threeRows]).when(push({}, 'ws_2')).thenThrows('NOT_FOUND');
      spec.given([created, threeRows, pushed]).when(push({}, 'ws_2')).thenThrows('NOT_FOUND');
    });
  });
});
