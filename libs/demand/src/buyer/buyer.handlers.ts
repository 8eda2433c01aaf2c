// Erasing a widget buyer's personal data (crypto-shredding): the erasure is recorded on the buyer's
// stream through the write path, then the buyer's data key is destroyed in the vault. In that
// order: a crash between the two leaves the record and a live key, and the retry (which records
// nothing new: the decider knows the key) destroys it. The log is never rewritten.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, PersonalDataVault } from '@app/platform';
import { DomainError, handleCommand, type RecordedEvent } from '@app/platform/domain';

import { buyerDecider } from './buyer.decider';
import { type BuyerEvent, buyerPersonalDataErased, buyerStream } from './buyer.events';

export const buyerAggregate = {
  decider: buyerDecider,
  parseEvent(event: RecordedEvent): BuyerEvent {
    if (event.type !== 'buyer.personal_data_erased') throw new Error(`Not a buyer event: ${event.type}`);
    return { type: event.type, data: buyerPersonalDataErased.parse(event.data) };
  },
};

export interface ErasedPersonalData {
  buyerId: string;
  erasedAt: string;
  /** Where the erasure's record landed (null: it was recorded before). */
  position: number | null;
}

export class EraseBuyerPersonalDataCommand extends Command<ErasedPersonalData> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly buyerId: string,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(EraseBuyerPersonalDataCommand)
export class EraseBuyerPersonalDataHandler implements ICommandHandler<EraseBuyerPersonalDataCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ workspaceId, actor, buyerId, correlationId }: EraseBuyerPersonalDataCommand): Promise<ErasedPersonalData> {
    const current = await this.vault.status(workspaceId, buyerId);
    if (current.status === 'unknown') throw new DomainError('NOT_FOUND', `No buyer with id ${buyerId}`, { id: buyerId });
    if (current.status === 'erased' || current.keyId === null) {
      // Erased already: a repeat answers the erasure as it is and records nothing.
      return { buyerId, erasedAt: current.erasedAt ?? this.clock.now().toISOString(), position: null };
    }
    const keyId = current.keyId;
    const now = this.clock.now();
    const recorded = await handleCommand(
      this.events,
      buyerStream(buyerId),
      buyerAggregate,
      { type: 'EraseBuyerPersonalData', buyerId, keyId, now },
      { workspaceId, actor, correlationId },
    );
    const after = await this.vault.destroy(workspaceId, buyerId, keyId, now);
    const erasedAt = after?.erasedAt ?? now.toISOString();
    return { buyerId, erasedAt, position: recorded.position ?? null };
  }
}

export const BUYER_COMMAND_HANDLERS = [EraseBuyerPersonalDataHandler];
