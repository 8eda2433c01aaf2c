// Command handlers for intake sessions. Adding rows normalizes them once (with the session's
// default currency) and retries only the append on a version conflict. Pushing appends the items
// in batches through `appendMany` (never one command per row), asks matching what they matched,
// then records the push on the session.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import {
  CLOCK,
  type Clock,
  type CommandMetadata,
  DomainError,
  EVENT_STORE,
  type EventStore,
  fold,
  handleCommand,
  ID_GENERATOR,
  type IdGenerator,
  type NewEvent,
  type StreamWrite,
  WrongExpectedRevisionError,
} from '@app/platform';

import { inventoryStream } from '../inventory/inventory.events';
import { INTAKE_MATCHING, type IntakeMatching } from './intake-matching.port';
import { type CreateSession, type ExistingSession, intakeDecider, type IntakeState, visibleSession } from './intake.decider';
import {
  type IngestionEvent,
  type IngestionPushed,
  ingestionStream,
  type IntakeRow,
  type NormalizedRow,
  parseIngestionEvent,
  type RawRow,
} from './intake.events';
import { type PlannedItem, planPush } from './intake.push';
import { normalizeRow } from './intake.rows';

/** Item streams per `appendMany`: one SQLite transaction each, short enough not to stall readers. */
export const PUSH_BATCH_SIZE = 500;
const MAX_ATTEMPTS = 4;

const intakeAggregate = { decider: intakeDecider, parseEvent: parseIngestionEvent };

interface Loaded {
  state: IntakeState;
  /** Revision of the stream's last event, -1 when it does not exist. */
  revision: number;
  /** Position of the stream's last event, 0 when it does not exist. */
  position: number;
}

async function loadSession(events: EventStore, sessionId: string): Promise<Loaded> {
  const recorded = await events.readStream(ingestionStream(sessionId));
  const last = recorded[recorded.length - 1];
  return {
    state: fold(intakeDecider, recorded.map(parseIngestionEvent)),
    revision: last?.revision ?? -1,
    position: last?.position ?? 0,
  };
}

function toNewEvents(events: readonly IngestionEvent[], metadata: CommandMetadata): NewEvent[] {
  return events.map((e) => ({ type: e.type, data: e.data, metadata: { ...metadata, schemaVersion: 1 } }));
}

function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt * Math.random()));
}

export class CreateIngestionSessionCommand extends Command<{ id: string; position: number; createdAt: string }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly session: Pick<CreateSession, 'name' | 'source' | 'defaultCurrency'>,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateIngestionSessionCommand)
export class CreateIngestionSessionHandler implements ICommandHandler<CreateIngestionSessionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ workspaceId, actor, session, correlationId }: CreateIngestionSessionCommand) {
    const id = this.ids.next('ing');
    const now = this.clock.now();
    const result = await handleCommand(
      this.events,
      ingestionStream(id),
      intakeAggregate,
      { type: 'CreateSession', sessionId: id, workspaceId, ...session, now },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    return { id, position: result.position ?? 0, createdAt: now.toISOString() };
  }
}

export interface AddedRows {
  rows: IntakeRow[];
  /** The session after the add. */
  session: ExistingSession;
  position: number;
}

export class AddIngestionRowsCommand extends Command<AddedRows> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly rows: readonly RawRow[],
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(AddIngestionRowsCommand)
export class AddIngestionRowsHandler implements ICommandHandler<AddIngestionRowsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, sessionId, rows, correlationId }: AddIngestionRowsCommand): Promise<AddedRows> {
    const now = this.clock.now();
    let normalized: NormalizedRow[] | undefined;
    for (let attempt = 1; ; attempt += 1) {
      const { state, revision } = await loadSession(this.events, sessionId);
      const session = visibleSession(state, { sessionId, workspaceId });
      // The default currency never changes, so rows normalized once stay right across retries.
      normalized ??= rows.map((raw) => normalizeRow(raw, { defaultCurrency: session.defaultCurrency }));
      const decided = intakeDecider.decide({ type: 'AddRows', sessionId, workspaceId, rows: normalized, now }, state);
      try {
        const result = await this.events.append(ingestionStream(sessionId), toNewEvents(decided, { workspaceId, actor, correlationId }), {
          expectedRevision: revision,
        });
        const after = decided.reduce(intakeDecider.evolve, state);
        return {
          rows: decided.flatMap((e) => (e.type === 'ingestion.rows_added' ? e.data.rows : [])),
          session: visibleSession(after, { sessionId, workspaceId }),
          position: result.position,
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
        await backoff(attempt);
      }
    }
  }
}

export interface PushResult {
  result: IngestionPushed;
  /** True when this call pushed; false when the session had been pushed before (same result). */
  fresh: boolean;
  position: number;
}

export class PushIngestionSessionCommand extends Command<PushResult> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(PushIngestionSessionCommand)
export class PushIngestionSessionHandler implements ICommandHandler<PushIngestionSessionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(INTAKE_MATCHING) private readonly matching: IntakeMatching,
  ) {}

  async execute({ workspaceId, actor, sessionId, correlationId }: PushIngestionSessionCommand): Promise<PushResult> {
    const metadata: CommandMetadata = { workspaceId, actor, correlationId };
    for (let attempt = 1; ; attempt += 1) {
      const { state, revision, position } = await loadSession(this.events, sessionId);
      const session = visibleSession(state, { sessionId, workspaceId });
      if (session.status === 'pushed') return { result: session.result, fresh: false, position };
      const now = this.clock.now();
      const plan = planPush(session, now);
      const lastPosition = await this.appendItems(plan.items, { ...metadata, causationId: sessionId });
      const inventoryItemIds = plan.items.map((item) => item.inventoryItemId);
      const matchedBuyerRequests =
        inventoryItemIds.length === 0 ? 0 : await this.matching.matchedBuyerRequests(workspaceId, inventoryItemIds, lastPosition);
      try {
        // A stale plan (rows added meanwhile) is refused by the decider as CONFLICT, and a push
        // that raced ours by the append's revision check: either way, look again.
        const decided = intakeDecider.decide(
          {
            type: 'Push',
            sessionId,
            workspaceId,
            outcome: {
              pushedRows: plan.items.map((item) => item.row),
              inventoryItemIds,
              skippedRows: plan.skippedRows,
              rejections: plan.rejections,
              lastPosition,
              matchedBuyerRequests,
            },
            now,
          },
          state,
        );
        const appended = await this.events.append(ingestionStream(sessionId), toNewEvents(decided, metadata), { expectedRevision: revision });
        const pushed = decided.find((e): e is Extract<IngestionEvent, { type: 'ingestion.pushed' }> => e.type === 'ingestion.pushed');
        if (!pushed) throw new Error('the push decided no ingestion.pushed event');
        return { result: pushed.data, fresh: true, position: appended.position };
      } catch (error) {
        const stale = error instanceof WrongExpectedRevisionError || (error instanceof DomainError && error.code === 'CONFLICT');
        if (!stale || attempt >= MAX_ATTEMPTS) throw error;
        await backoff(attempt);
      }
    }
  }

  /** Appends every item's stream, PUSH_BATCH_SIZE streams per `appendMany`; the last position (0 for none). */
  private async appendItems(items: readonly PlannedItem[], metadata: CommandMetadata): Promise<number> {
    let last = 0;
    for (let start = 0; start < items.length; start += PUSH_BATCH_SIZE) {
      const writes: StreamWrite[] = items.slice(start, start + PUSH_BATCH_SIZE).map((item) => ({
        streamId: inventoryStream(item.inventoryItemId),
        events: item.events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: { ...metadata, schemaVersion: 1 } })),
        // A replayed batch (same event ids) is recognised by the store and not appended again.
        expectedRevision: 'no_stream',
      }));
      const results = await this.events.appendMany(writes);
      for (const r of results) last = Math.max(last, r.position);
    }
    return last;
  }
}

export const INGESTION_COMMAND_HANDLERS = [CreateIngestionSessionHandler, AddIngestionRowsHandler, PushIngestionSessionHandler];
