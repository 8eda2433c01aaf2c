// Command handlers for live sessions: create one, start it, end it. Ending closes every lot still
// open or pending in the same decision (on SQLite one transaction: no reserve lands on a lot of an
// ended show), lots first and the session last (the order EventStoreDB appends them in); the
// settlement process manager then turns each closed lot's winners into holds or trades. Each
// answers the session as its own write left it (its read model is inline), or for a repeat that
// decided nothing the session as the log holds it.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, type InlineDocuments, InlineProjections } from '@app/platform';
import { handleCommand, handleCommands, loadStream } from '@app/platform/domain';

import { lotAggregate } from '../lot/lot.aggregate';
import { lotStream } from '../lot/lot.events';
import { liveSessionAggregate } from './live-session.aggregate';
import type { LiveSessionCommand } from './live-session.decider';
import { type LiveSessionCreated, liveSessionStream } from './live-session.events';
import { type LiveSessionDoc, liveSessionProjection } from './live-session.projection';

export type LiveSessionTerms = Omit<LiveSessionCreated, 'sessionId' | 'createdAt'>;

/** The session as the write left it, or as the log holds it when the write decided nothing. */
async function sessionAfter(inline: InlineProjections, sessionId: string, documents: InlineDocuments | null): Promise<LiveSessionDoc> {
  const doc = await inline.document(liveSessionProjection, liveSessionStream(sessionId), documents);
  // A session the write path just decided on has a document; none is a bug, not a missing session.
  if (!doc) throw new Error(`Live session ${sessionId} was decided on, yet its read model has no document`);
  return doc;
}

export class CreateLiveSessionCommand extends Command<LiveSessionDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly terms: LiveSessionTerms,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateLiveSessionCommand)
export class CreateLiveSessionHandler implements ICommandHandler<CreateLiveSessionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, terms, correlationId }: CreateLiveSessionCommand): Promise<LiveSessionDoc> {
    const sessionId = this.ids.next('ls');
    const result = await handleCommand(
      this.events,
      liveSessionStream(sessionId),
      liveSessionAggregate,
      { type: 'CreateLiveSession', session: { sessionId, ...terms }, now: this.clock.now() },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    return sessionAfter(this.inline, sessionId, result.documents);
  }
}

export class MoveLiveSessionCommand extends Command<LiveSessionDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly sessionId: string,
    readonly move: 'start' | 'end',
    readonly correlationId?: string,
    /** `If-Match`: the session's revision the move was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(MoveLiveSessionCommand)
export class MoveLiveSessionHandler implements ICommandHandler<MoveLiveSessionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inline: InlineProjections,
  ) {}

  /** The session after the move; a repeat that moved nothing answers it as the log holds it. */
  async execute({ workspaceId, actor, sessionId, move, correlationId, ifMatch }: MoveLiveSessionCommand): Promise<LiveSessionDoc> {
    const now = this.clock.now();
    const metadata = { workspaceId, actor, correlationId };
    if (move === 'start') {
      const result = await handleCommand(this.events, liveSessionStream(sessionId), liveSessionAggregate, { type: 'StartLiveSession', sessionId, now }, metadata, { ifMatch });
      return sessionAfter(this.inline, sessionId, result.documents);
    }
    const result = await handleCommands(this.events, metadata, async (tx) => {
      // The lots the session names (read first, so they are loaded, and appended, before it).
      const known = await loadStream(this.events, liveSessionStream(sessionId), liveSessionAggregate, { workspaceId, ifMatch });
      const closing = new Set(known.state.status === 'exists' && known.state.session.status === 'live' ? known.state.session.lotIds : []);
      const close = async (lotId: string) => {
        const lot = await tx.load(lotStream(lotId), lotAggregate);
        if (lot.state.status === 'exists') tx.decide(lot, { type: 'CloseLot', lotId, now });
      };
      for (const lotId of closing) await close(lotId);
      const session = await tx.load(liveSessionStream(sessionId), liveSessionAggregate, { ifMatch });
      const command: LiveSessionCommand = { type: 'EndLiveSession', sessionId, now };
      const ended = tx.decide(session, command).length > 0;
      // A lot added between the two reads is closed too (the process manager on live_session.ended would, later).
      if (ended && session.state.status === 'exists') for (const lotId of session.state.session.lotIds) if (!closing.has(lotId)) await close(lotId);
    });
    return sessionAfter(this.inline, sessionId, result.documents);
  }
}

export const LIVE_SESSION_COMMAND_HANDLERS = [CreateLiveSessionHandler, MoveLiveSessionHandler];
