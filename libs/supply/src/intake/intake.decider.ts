// Intake sessions: created open, rows added (numbered on across calls), pushed once. Pushing again
// is a no-op that answers the first push's result.
import { type Decider, DomainError } from '@app/platform/domain';

import type { IngestionEvent, IngestionPushed, IntakeRow, NormalizedRow } from './intake.events';

/** Rows per `ingestion.rows_added` event: bounds an event's size (~0.5 MB) whatever a call sends. */
export const ROWS_PER_EVENT = 1000;
export const MAX_ROWS_PER_CALL = 10_000;
/** A session's rows are read whole on every command: the cap keeps that bounded. */
export const MAX_SESSION_ROWS = 50_000;

export interface CreateSession {
  type: 'CreateSession';
  sessionId: string;
  workspaceId: string;
  name: string | null;
  source: string | null;
  defaultCurrency: string;
  now: Date;
}

export interface AddRows {
  type: 'AddRows';
  sessionId: string;
  workspaceId: string;
  rows: readonly NormalizedRow[];
  now: Date;
}

/** What a push did to inventory; the decider checks it accounts for every row of the session. */
export type PushOutcome = Pick<IngestionPushed, 'pushedRows' | 'inventoryItemIds' | 'skippedRows' | 'rejections' | 'lastPosition' | 'matchedBuyerRequests'>;

export interface Push {
  type: 'Push';
  sessionId: string;
  workspaceId: string;
  outcome: PushOutcome;
  now: Date;
}

export type IntakeCommand = CreateSession | AddRows | Push;

/** Rows as added: the add time is part of the identity of the items a row becomes. */
export interface RowBatch {
  addedAt: string;
  rows: readonly IntakeRow[];
}

interface SessionFacts {
  sessionId: string;
  workspaceId: string;
  defaultCurrency: string;
  batches: readonly RowBatch[];
  rowCount: number;
}

export type IntakeState =
  | { status: 'none' }
  | ({ status: 'open' } & SessionFacts)
  | ({ status: 'pushed'; result: IngestionPushed } & SessionFacts);

export type ExistingSession = Exclude<IntakeState, { status: 'none' }>;

/** The session as the command's workspace may see it: another workspace's is "not found". */
export function visibleSession(state: IntakeState, command: { sessionId: string; workspaceId: string }): ExistingSession {
  if (state.status === 'none' || state.workspaceId !== command.workspaceId) {
    throw new DomainError('NOT_FOUND', `No ingestion session with id ${command.sessionId}`);
  }
  return state;
}

function addRows(command: AddRows, state: IntakeState): IngestionEvent[] {
  const session = visibleSession(state, command);
  if (session.status === 'pushed') {
    throw new DomainError('INVALID_TRANSITION', `Ingestion session ${command.sessionId} was pushed; add items to a new session`);
  }
  if (command.rows.length === 0) throw new DomainError('VALIDATION_FAILED', 'Add at least one row');
  if (command.rows.length > MAX_ROWS_PER_CALL) {
    throw new DomainError('VALIDATION_FAILED', `At most ${MAX_ROWS_PER_CALL} rows per call`);
  }
  if (session.rowCount + command.rows.length > MAX_SESSION_ROWS) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `A session holds at most ${MAX_SESSION_ROWS} rows (it has ${session.rowCount}); push it and start another`,
    );
  }
  const addedAt = command.now.toISOString();
  const events: IngestionEvent[] = [];
  for (let start = 0; start < command.rows.length; start += ROWS_PER_EVENT) {
    const rows = command.rows.slice(start, start + ROWS_PER_EVENT).map((row, i) => ({ ...row, row: session.rowCount + start + i + 1 }));
    events.push({ type: 'ingestion.rows_added', data: { sessionId: command.sessionId, rows, addedAt } });
  }
  return events;
}

function push(command: Push, state: IntakeState): IngestionEvent[] {
  const session = visibleSession(state, command);
  if (session.status === 'pushed') return [];
  const { outcome } = command;
  if (outcome.pushedRows.length !== outcome.inventoryItemIds.length) {
    throw new DomainError('VALIDATION_FAILED', 'Each pushed row needs exactly one inventory item');
  }
  // The push must account for exactly the session's rows, and never push a row with errors; rows
  // added while it ran make it stale (the handler pushes again).
  const accounted = new Set([...outcome.pushedRows, ...outcome.skippedRows]);
  const covers = accounted.size === session.rowCount && outcome.pushedRows.length + outcome.skippedRows.length === session.rowCount;
  if (!covers || [...accounted].some((row) => row < 1 || row > session.rowCount)) {
    throw new DomainError('CONFLICT', `Ingestion session ${command.sessionId} changed while it was pushed; push again`);
  }
  const pushed = new Set(outcome.pushedRows);
  for (const batch of session.batches) {
    for (const row of batch.rows) {
      if (row.status === 'error' && pushed.has(row.row)) {
        throw new DomainError('VALIDATION_FAILED', `Row ${row.row} has errors and cannot be pushed`);
      }
    }
  }
  return [
    {
      type: 'ingestion.pushed',
      data: {
        sessionId: command.sessionId,
        pushed: outcome.pushedRows.length,
        skipped: outcome.skippedRows.length,
        ...outcome,
        pushedAt: command.now.toISOString(),
      },
    },
  ];
}

export const intakeDecider: Decider<IntakeCommand, IngestionEvent, IntakeState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateSession': {
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Ingestion session ${command.sessionId} already exists`);
        const { type: _type, now, ...fields } = command;
        return [{ type: 'ingestion.session_created', data: { ...fields, createdAt: now.toISOString() } }];
      }
      case 'AddRows':
        return addRows(command, state);
      case 'Push':
        return push(command, state);
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${String(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ingestion.session_created': {
        const { sessionId, workspaceId, defaultCurrency } = event.data;
        return { status: 'open', sessionId, workspaceId, defaultCurrency, batches: [], rowCount: 0 };
      }
      case 'ingestion.rows_added': {
        if (state.status === 'none') return state;
        const batch: RowBatch = { addedAt: event.data.addedAt, rows: event.data.rows };
        return { ...state, batches: [...state.batches, batch], rowCount: state.rowCount + event.data.rows.length };
      }
      case 'ingestion.pushed':
        return state.status === 'none' ? state : { ...state, status: 'pushed', result: event.data };
      default:
        return state;
    }
  },
};
