// Command handlers for intake sessions, through the write path. Adding rows normalizes them once
// (with the session's default currency). Pushing creates the items in batches of new streams (one
// append per batch, never one command per row), asks matching what they matched, then records the
// push on the session; a push that finds the session changed meanwhile is planned again.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, InlineProjections } from '@app/platform';
import { type CommandMetadata, handleCommand, handleCommands } from '@app/platform/domain';

import { inventoryStream } from '../inventory/inventory.events';
import { inventoryAggregate } from '../inventory/inventory.aggregate';
import { INTAKE_MATCHING, type IntakeMatching } from './intake-matching.port';
import { type AddRows, type CreateSession, type ExistingSession, intakeDecider, type Push, visibleSession } from './intake.decider';
import { type IngestionEvent, type IngestionPushed, ingestionStream, type IntakeRow, type NormalizedRow, parseIngestionEvent, type RawRow } from './intake.events';
import { type PlannedItem, planPush } from './intake.push';
import { type IngestionSessionDoc, ingestionSessionProjection } from './intake.projection';
import { normalizeRow } from './intake.rows';

/** Item streams per append: one SQLite transaction each, short enough not to stall readers. */
export const PUSH_BATCH_SIZE = 500;

const intakeAggregate = { decider: intakeDecider, parseEvent: parseIngestionEvent };

/** The new session, as its read model now holds it (what its GET reads), from the write itself. */
export class CreateIngestionSessionCommand extends Command<IngestionSessionDoc> {
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
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, session, correlationId }: CreateIngestionSessionCommand): Promise<IngestionSessionDoc> {
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
    const doc = await this.inline.document(ingestionSessionProjection, ingestionStream(id), result.documents);
    if (!doc) throw new Error(`Ingestion session ${id} was created, yet its read model has no document`);
    return doc;
  }
}

export interface AddedRows {
  rows: IntakeRow[];
  /** The session after the add. */
  session: ExistingSession;
  position: number;
  /** The session's stream revision after the add (the answer's ETag). */
  revision: number;
}

export class AddIngestionRowsCommand extends Command<AddedRows> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly rows: readonly RawRow[],
    readonly correlationId?: string,
    /** `If-Match`: the session's revision the rows were added on. */
    readonly ifMatch?: number,
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

  async execute({ workspaceId, actor, sessionId, rows, correlationId, ifMatch }: AddIngestionRowsCommand): Promise<AddedRows> {
    const now = this.clock.now();
    let normalized: NormalizedRow[] | undefined;
    const result = await handleCommand(
      this.events,
      ingestionStream(sessionId),
      intakeAggregate,
      (state): AddRows => {
        const session = visibleSession(state, { sessionId, workspaceId });
        // The default currency never changes, so rows normalized once stay right across retries.
        normalized ??= rows.map((raw) => normalizeRow(raw, { defaultCurrency: session.defaultCurrency }));
        return { type: 'AddRows', sessionId, workspaceId, rows: normalized, now };
      },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    return {
      rows: result.events.flatMap((e) => (e.type === 'ingestion.rows_added' ? e.data.rows : [])),
      session: visibleSession(result.state, { sessionId, workspaceId }),
      position: result.position ?? 0,
      revision: result.revision,
    };
  }
}

export interface PushResult {
  result: IngestionPushed;
  /** True when this call pushed; false when the session had been pushed before (same result). */
  fresh: boolean;
  position: number;
  /** The session's stream revision after the push, or as it stands for a repeat (the answer's ETag). */
  revision: number;
}

export class PushIngestionSessionCommand extends Command<PushResult> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly correlationId?: string,
    /** `If-Match`: the session's revision the push was decided on (checked before any item is created). */
    readonly ifMatch?: number,
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

  async execute({ workspaceId, actor, sessionId, correlationId, ifMatch }: PushIngestionSessionCommand): Promise<PushResult> {
    const metadata: CommandMetadata = { workspaceId, actor, correlationId };
    // Planned from the state the push is decided on: rows added meanwhile make the append of the
    // push conflict, and the push is planned again with them (the items already created are
    // recognised by their event ids, not created twice).
    const result = await handleCommand(
      this.events,
      ingestionStream(sessionId),
      intakeAggregate,
      async (state): Promise<Push | null> => {
        const session = visibleSession(state, { sessionId, workspaceId });
        if (session.status === 'pushed') return null;
        const now = this.clock.now();
        const plan = planPush(session, now);
        const lastPosition = await this.createItems(plan.items, { ...metadata, causationId: sessionId });
        const inventoryItemIds = plan.items.map((item) => item.inventoryItemId);
        const matchedBuyerRequests =
          inventoryItemIds.length === 0 ? 0 : await this.matching.matchedBuyerRequests(workspaceId, inventoryItemIds, lastPosition);
        const outcome = { pushedRows: plan.items.map((item) => item.row), inventoryItemIds, skippedRows: plan.skippedRows, rejections: plan.rejections, lastPosition, matchedBuyerRequests };
        return { type: 'Push', sessionId, workspaceId, outcome, now };
      },
      metadata,
      // Checked again on a retry: a push that finds the session moved on is 412, and the items its
      // first attempt created wait for the next push, which recognises them by their planned ids.
      { ifMatch },
    );
    const pushed = result.events.find((e): e is Extract<IngestionEvent, { type: 'ingestion.pushed' }> => e.type === 'ingestion.pushed');
    if (pushed) return { result: pushed.data, fresh: true, position: result.position ?? 0, revision: result.revision };
    const session = visibleSession(result.state, { sessionId, workspaceId });
    if (session.status !== 'pushed') throw new Error('the push decided no ingestion.pushed event');
    return { result: session.result, fresh: false, position: result.streamPosition ?? 0, revision: result.revision };
  }

  /** Creates every item's stream, PUSH_BATCH_SIZE streams per append; the last position (0 for none). */
  private async createItems(items: readonly PlannedItem[], metadata: CommandMetadata): Promise<number> {
    let last = 0;
    for (let start = 0; start < items.length; start += PUSH_BATCH_SIZE) {
      const { streams } = await handleCommands(this.events, metadata, (tx) => {
        for (const item of items.slice(start, start + PUSH_BATCH_SIZE)) {
          // The planned ids: a replayed batch is recognised by the store and not appended again.
          tx.decide(tx.create(inventoryStream(item.inventoryItemId), inventoryAggregate), item.command, { eventIds: (i) => item.events[i].id });
        }
      });
      for (const s of streams) last = Math.max(last, s.position);
    }
    return last;
  }
}

export const INGESTION_COMMAND_HANDLERS = [CreateIngestionSessionHandler, AddIngestionRowsHandler, PushIngestionSessionHandler];
