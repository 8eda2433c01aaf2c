// The intake read models, given/when/then: given a session's events (as the decider makes them),
// then the session's document (evolve) and the row documents (rowDocumentsOf, and the view that
// writes them: given documents, when events, then documents). Applying an event twice is applying
// it once.
import { evolveDocument, type RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { INGESTION_PUSHED_ITEMS, INGESTION_ROWS, ingestionRowsProjection, PUSHED_ITEMS_PER_DOC, rowDocumentsOf } from './intake-rows.projection';
import { intakeDecider, type IntakeCommand } from './intake.decider';
import type { IngestionEvent, NormalizedRow } from './intake.events';
import { type IngestionSessionDoc, ingestionSessionProjection } from './intake.projection';

const now = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-01T10:05:00.000Z');

function normalized(status: NormalizedRow['status']): NormalizedRow {
  return {
    raw: { name: 'Charizard' },
    status,
    fields: {
      cardName: 'Charizard',
      setName: 'Base',
      condition: 'Near Mint',
      priceMinor: status === 'error' ? null : 1000,
      currency: 'USD',
      quantity: 1,
      sku: null,
      cardNumber: null,
      notes: null,
    },
    input: { cardName: 'Charizard', setName: 'Base', condition: 'NM' },
    match: null,
    changes: {},
    confidence: 1,
    issues: status === 'error' ? [{ field: 'price', severity: 'error', code: 'MISSING_PRICE', message: 'A price is required' }] : [],
  };
}

const createSession: IntakeCommand = { type: 'CreateSession', sessionId: 'ing_1', workspaceId: 'ws_1', name: 'show', source: null, defaultCurrency: 'USD', now };
const addRows = (...statuses: Array<NormalizedRow['status']>): IntakeCommand => ({
  type: 'AddRows',
  sessionId: 'ing_1',
  workspaceId: 'ws_1',
  rows: statuses.map(normalized),
  now,
});
const pushRows: IntakeCommand = {
  type: 'Push',
  sessionId: 'ing_1',
  workspaceId: 'ws_1',
  outcome: { pushedRows: [1, 3], inventoryItemIds: ['inv_a', 'inv_c'], skippedRows: [2], rejections: [], lastPosition: 42, matchedBuyerRequests: 1 },
  now: later,
};

/** The session's events as recorded, one command after another, decided on what came before. */
function history(...commands: IntakeCommand[]): RecordedEvent[] {
  const events: IngestionEvent[] = [];
  for (const command of commands) events.push(...intakeDecider.decide(command, events.reduce(intakeDecider.evolve, intakeDecider.initialState)));
  return events.map((e, revision) => ({
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    type: e.type,
    data: e.data,
    metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
    streamId: 'ingestion-ing_1',
    revision,
    position: 10 + revision,
    createdAt: now.toISOString(),
  }));
}

const session = (events: readonly RecordedEvent[], start: IngestionSessionDoc | null = null): IngestionSessionDoc | null =>
  events.reduce((doc, event) => evolveDocument(ingestionSessionProjection.evolve, doc, event, 'ing_1'), start);

describe('intake read models', () => {
  describe('ingestion_sessions (evolve)', () => {
    it('given a new session, then an open session without rows, at the position of its event', () => {
      expect(session(history(createSession))).toEqual({
        id: 'ing_1',
        revision: 0,
        workspaceId: 'ws_1',
        name: 'show',
        source: null,
        defaultCurrency: 'USD',
        status: 'open',
        counts: { total: 0, valid: 0, warning: 0, error: 0, pushed: 0 },
        push: null,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        position: 10,
      });
    });

    it('given rows added and a push, then the counts by status and the push result', () => {
      expect(session(history(createSession, addRows('valid', 'error', 'warning'), pushRows))).toMatchObject({
        revision: 2,
        status: 'pushed',
        counts: { total: 3, valid: 1, warning: 1, error: 1, pushed: 2 },
        push: { pushed: 2, skipped: 1, matchedBuyerRequests: 1, skippedRows: [2], rejections: [], pushedAt: later.toISOString() },
        updatedAt: later.toISOString(),
        position: 12,
      });
    });

    it('applying an event twice is applying it once', () => {
      const events = history(createSession, addRows('valid', 'valid'));
      const once = session(events);
      expect(session(events, once)).toBe(once);
      expect(once?.counts.total).toBe(2);
    });
  });

  describe('ingestion_rows (rowDocumentsOf)', () => {
    it('given rows added, then one document per row; given the push, then its row → item chunk', () => {
      const [created, added, pushed] = history(createSession, addRows('valid', 'error', 'warning'), pushRows);
      expect(rowDocumentsOf(created)).toEqual({ rows: [], pushedItems: [] });
      const { rows } = rowDocumentsOf(added);
      expect(rows.map((r) => [r.id, r.sessionId, r.workspaceId, r.row, r.status])).toEqual([
        ['ing_1:1', 'ing_1', 'ws_1', 1, 'valid'],
        ['ing_1:2', 'ing_1', 'ws_1', 2, 'error'],
        ['ing_1:3', 'ing_1', 'ws_1', 3, 'warning'],
      ]);
      expect(rowDocumentsOf(pushed)).toEqual({
        rows: [],
        pushedItems: [{ id: 'ing_1:0', sessionId: 'ing_1', workspaceId: 'ws_1', items: { '1': 'inv_a', '3': 'inv_c' } }],
      });
    });

    it('the same event always makes the same documents (applied twice = once)', () => {
      const [, added] = history(createSession, addRows('valid'));
      expect(rowDocumentsOf(added)).toEqual(rowDocumentsOf(added));
    });
  });

  describe('ingestion_rows (the view)', () => {
    it('given nothing, when rows are added and pushed, then one document per row and the push’s chunk', () => {
      const documents = viewSpec(ingestionRowsProjection)
        .given()
        .when(...history(createSession, addRows('valid', 'error', 'warning'), pushRows))
        .documents();
      expect(documents[INGESTION_ROWS.name].map((d) => d.id)).toEqual(['ing_1:1', 'ing_1:2', 'ing_1:3']);
      expect(documents[INGESTION_ROWS.name][1]).toMatchObject({ sessionId: 'ing_1', workspaceId: 'ws_1', row: 2, status: 'error', confidence: 1 });
      expect(documents[INGESTION_PUSHED_ITEMS.name]).toEqual([{ id: 'ing_1:0', sessionId: 'ing_1', workspaceId: 'ws_1', items: { '1': 'inv_a', '3': 'inv_c' } }]);
    });

    it('a session’s creation writes nothing (not one of its event types)', () => {
      expect(ingestionRowsProjection.eventTypes).not.toContain('ingestion.session_created');
      viewSpec(ingestionRowsProjection)
        .given()
        .when(...history(createSession))
        .then({ [INGESTION_ROWS.name]: [], [INGESTION_PUSHED_ITEMS.name]: [] });
    });

    it(`a push's rows go to chunks of ${PUSHED_ITEMS_PER_DOC} rows`, () => {
      const [, , pushed] = history(createSession, addRows('valid', 'error', 'warning'), pushRows);
      const far = { ...pushed, data: { ...(pushed.data as object), pushedRows: [1, PUSHED_ITEMS_PER_DOC, PUSHED_ITEMS_PER_DOC + 1], inventoryItemIds: ['inv_a', 'inv_b', 'inv_c'] } };
      viewSpec(ingestionRowsProjection)
        .given()
        .when(far)
        .then({
          [INGESTION_PUSHED_ITEMS.name]: [
            { id: 'ing_1:0', sessionId: 'ing_1', workspaceId: 'ws_1', items: { '1': 'inv_a', [String(PUSHED_ITEMS_PER_DOC)]: 'inv_b' } },
            { id: 'ing_1:1', sessionId: 'ing_1', workspaceId: 'ws_1', items: { [String(PUSHED_ITEMS_PER_DOC + 1)]: 'inv_c' } },
          ],
        });
    });

    it('applying the events again leaves the same documents', () => {
      const events = history(createSession, addRows('valid', 'error', 'warning'), pushRows);
      const once = viewSpec(ingestionRowsProjection).given().when(...events).documents();
      viewSpec(ingestionRowsProjection)
        .given(once)
        .when(...events)
        .then(once);
    });
  });
});
