// Command handlers for buyer requests: each one command on the request's stream, through the
// write path (the criteria are normalized and matched against inventory before the decision; the
// buyer is sealed, so the decision and the log only ever see it sealed).
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { normalizeWant } from '@app/catalog';
import { type FoundMatch, MAX_MATCHES_PER_KIND } from '@app/contracts';
import { BuyerSeal, CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, type InlineDocuments, InlineProjections } from '@app/platform';
import { DomainError, handleCommand } from '@app/platform/domain';

import { type BuyerContact, BuyerContacts } from '../buyer/buyer-contacts';
import type { BuyerIdentity } from './buyer-request-reader.port';
import { buyerRequestAggregate } from './buyer-request.aggregate';
import { buyerSealContext, contactSealContext } from './buyer-request.events';
import { type ArchiveBuyerRequest, changedCriteriaFields, type UpdateBuyerRequest } from './buyer-request.decider';
import { type BuyerRequestCriteria, buyerRequestStream } from './buyer-request.events';
import { type BuyerRequestDoc, buyerRequestProjection } from './buyer-request.projection';
import { INSTANT_MATCHING, type InstantMatching } from './instant-matching.port';

/** What a client says about a request; the rest (ids, time, normalized identity) is the server's. */
export interface BuyerRequestInput {
  cardName: string;
  /** Null: any printing of the card (in a change, absent leaves it and null opens it). */
  setName: string | null;
  /** Null: any condition. */
  condition: string | null;
  /** Null: no price limit. */
  maxPriceMinor: number | null;
  currency: string;
  source: string | null;
  /** Who the buyer is (null or absent: none). In a change, absent leaves it and null removes it. */
  buyer?: BuyerIdentity | null;
  /**
   * How to reach the buyer (the widget's want list): sealed with the buyer's own key under their
   * buyer id, so erasing their personal data makes it unreadable. Only on creation.
   */
  contact?: BuyerContact | null;
}

export interface CommandOutcome {
  id: string;
  position: number;
  /** The request's stream revision after the write (its version: the answer's ETag). */
  revision: number;
}

/** A request after a write: as its read model now holds it (what its GET reads), from the write itself. */
export interface WrittenBuyerRequest extends CommandOutcome {
  request: BuyerRequestDoc;
}

/**
 * The request's document the write left, or for a write that appended nothing (a repeat) the
 * request as the log holds it. A request the write path just decided on has one: none is a bug.
 */
async function requestAfter(inline: InlineProjections, id: string, documents: InlineDocuments | null): Promise<BuyerRequestDoc> {
  const doc = await inline.document(buyerRequestProjection, buyerRequestStream(id), documents);
  if (!doc) throw new Error(`Buyer request ${id} was decided on, yet its read model has no document`);
  return doc;
}

/**
 * Normalizes what the client typed into the stored criteria (display forms + match identity). An
 * open set or condition stays null, and its match fields are the wildcard ones (normalizeWant).
 */
export function toCriteria(input: BuyerRequestInput): BuyerRequestCriteria {
  const listing = normalizeWant(input);
  return {
    cardName: listing.cardName.value.name,
    setName: listing.setName ? listing.setName.value.name : null,
    condition: listing.condition ? listing.condition.value.label : null,
    maxPriceMinor: input.maxPriceMinor,
    currency: input.currency,
    source: input.source,
    match: listing.match,
  };
}

async function instantMatches(
  matching: InstantMatching,
  ids: IdGenerator,
  workspaceId: string,
  criteria: BuyerRequestCriteria,
): Promise<{ matches: FoundMatch[]; matchedThrough: number }> {
  // The position first: the query below sees at least everything up to it.
  const matchedThrough = await matching.inventoryPosition();
  const found = await matching.fullMatches(workspaceId, criteria, MAX_MATCHES_PER_KIND);
  return { matches: found.map((m) => ({ ...m, matchId: ids.next('mt') })), matchedThrough };
}

/** The new request, and the full matches it was created with (its instant check). */
export interface CreatedBuyerRequest extends CommandOutcome {
  matchCount: number;
  /** The buyer its contact names (`buyer_…`); null without a contact. */
  buyerId: string | null;
  /** The criteria as stored (normalized; open fields null): what the widget shows per line. */
  criteria: BuyerRequestCriteria;
}

export class CreateBuyerRequestCommand extends Command<CreatedBuyerRequest> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly request: BuyerRequestInput,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateBuyerRequestCommand)
export class CreateBuyerRequestHandler implements ICommandHandler<CreateBuyerRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(INSTANT_MATCHING) private readonly matching: InstantMatching,
    private readonly buyers: BuyerSeal,
    private readonly contacts: BuyerContacts,
  ) {}

  async execute({ workspaceId, actor, request, correlationId }: CreateBuyerRequestCommand): Promise<CreatedBuyerRequest> {
    const id = this.ids.next('br');
    const criteria = toCriteria(request);
    const { matches, matchedThrough } = await instantMatches(this.matching, this.ids, workspaceId, criteria);
    const input = { cardName: request.cardName, setName: request.setName, condition: request.condition };
    const buyerSealed = this.buyers.seal(buyerSealContext(id), request.buyer ?? null);
    const sealedContact = request.contact ? await this.contacts.seal(workspaceId, request.contact, contactSealContext(id)) : null;
    const result = await handleCommand(
      this.events,
      buyerRequestStream(id),
      buyerRequestAggregate,
      {
        type: 'CreateBuyerRequest',
        buyerRequestId: id,
        criteria,
        input,
        matches,
        matchedThrough,
        buyerSealed,
        buyerId: sealedContact?.buyerId ?? null,
        contactSealed: sealedContact?.contactSealed ?? null,
        now: this.clock.now(),
      },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    const matchCount = result.state.status === 'none' ? 0 : result.state.fullCount;
    return { id, position: result.position ?? 0, revision: result.revision, matchCount, buyerId: sealedContact?.buyerId ?? null, criteria };
  }
}

export class UpdateBuyerRequestCommand extends Command<WrittenBuyerRequest> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly changes: Partial<BuyerRequestInput>,
    readonly correlationId?: string,
    /** `If-Match`: the request's revision the change was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(UpdateBuyerRequestCommand)
export class UpdateBuyerRequestHandler implements ICommandHandler<UpdateBuyerRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(INSTANT_MATCHING) private readonly matching: InstantMatching,
    private readonly buyers: BuyerSeal,
    private readonly inline: InlineProjections,
  ) {}

  /** The request after the change; a change that changes nothing answers it as the log holds it. */
  async execute({ workspaceId, actor, id, changes, correlationId, ifMatch }: UpdateBuyerRequestCommand): Promise<WrittenBuyerRequest> {
    const result = await handleCommand(
      this.events,
      buyerRequestStream(id),
      buyerRequestAggregate,
      async (state): Promise<UpdateBuyerRequest> => {
        if (state.status === 'none') throw new DomainError('NOT_FOUND', `No buyer request ${id}`, { id });
        if (state.status === 'archived') {
          throw new DomainError('INVALID_TRANSITION', 'An archived buyer request cannot be changed', { id });
        }
        const current = state.criteria;
        // Unchanged display fields are passed through as stored: normalizing them again is a no-op.
        const criteria = toCriteria({
          cardName: changes.cardName ?? current.cardName,
          // Absent: as it is; null: opened (any set, any condition, no price limit).
          setName: changes.setName === undefined ? current.setName : changes.setName,
          condition: changes.condition === undefined ? current.condition : changes.condition,
          maxPriceMinor: changes.maxPriceMinor === undefined ? current.maxPriceMinor : changes.maxPriceMinor,
          currency: changes.currency ?? current.currency,
          source: changes.source === undefined ? current.source : changes.source,
        });
        // Unchanged criteria (a change of buyer alone, or a no-op) are not matched again: nothing
        // they could find is new. The position still tells reverse matching where stock stands.
        const { matches, matchedThrough } =
          changedCriteriaFields(current, criteria).length > 0
            ? await instantMatches(this.matching, this.ids, workspaceId, criteria)
            : { matches: [], matchedThrough: await this.matching.inventoryPosition() };
        const input = Object.fromEntries(
          (['cardName', 'setName', 'condition'] as const).flatMap((f) => (changes[f] === undefined ? [] : [[f, changes[f]]])),
        );
        // A new seal only for another buyer: sealing is randomized, so the decider cannot compare.
        const buyerSealed =
          changes.buyer === undefined || this.buyers.holds(buyerSealContext(id), state.buyerSealed, changes.buyer)
            ? undefined
            : this.buyers.seal(buyerSealContext(id), changes.buyer);
        return { type: 'UpdateBuyerRequest', criteria, input, matches, matchedThrough, buyerSealed, now: this.clock.now() };
      },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    return { id, position: result.position ?? 0, revision: result.revision, request: await requestAfter(this.inline, id, result.documents) };
  }
}

export class ArchiveBuyerRequestCommand extends Command<WrittenBuyerRequest> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly reason: string | null,
    readonly correlationId?: string,
    /** `If-Match`: the request's revision the archive was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(ArchiveBuyerRequestCommand)
export class ArchiveBuyerRequestHandler implements ICommandHandler<ArchiveBuyerRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inline: InlineProjections,
  ) {}

  /** The archived request; archiving it again answers it as the log holds it (another reason: 409). */
  async execute({ workspaceId, actor, id, reason, correlationId, ifMatch }: ArchiveBuyerRequestCommand): Promise<WrittenBuyerRequest> {
    const result = await handleCommand(
      this.events,
      buyerRequestStream(id),
      buyerRequestAggregate,
      (state): ArchiveBuyerRequest => {
        if (state.status === 'none') throw new DomainError('NOT_FOUND', `No buyer request ${id}`, { id });
        return { type: 'ArchiveBuyerRequest', reason, now: this.clock.now() };
      },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    return { id, position: result.position ?? 0, revision: result.revision, request: await requestAfter(this.inline, id, result.documents) };
  }
}

export const BUYER_REQUEST_COMMAND_HANDLERS = [CreateBuyerRequestHandler, UpdateBuyerRequestHandler, ArchiveBuyerRequestHandler];
