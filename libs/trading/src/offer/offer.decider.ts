// Offers: a price proposed by one party (seller or buyer) for units of an item. Only the party that
// received it may answer: accept (which opens the trade), reject, or counter (this offer closes as
// `countered`, and the counter-offer opens in the same thread from the other party). A pending
// offer expires at `expiresAt` (the durable timer's command); past it, it cannot be answered even
// before the timer fires. Answers are final; repeating the answer given is a no-op, as long as it
// says what that answer said (another party, reason, amount or message is a 409 naming it). Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { OfferCreated, OfferEvent, OfferFacts, OfferParty, OfferStatus } from './offer.events';

/** Who answers when an answer names no party: the seller, the API key's holder. */
export const DEFAULT_ANSWERING_PARTY: OfferParty = 'seller';

export interface MakeOffer {
  type: 'MakeOffer';
  offer: Omit<OfferCreated, 'createdAt'>;
  now: Date;
}
export interface AcceptOffer {
  type: 'AcceptOffer';
  offerId: string;
  /** Absent: DEFAULT_ANSWERING_PARTY (a repeat that names none says nothing about it). */
  party?: OfferParty;
  tradeId: string;
  now: Date;
}
export interface RejectOffer {
  type: 'RejectOffer';
  offerId: string;
  party?: OfferParty;
  /** Absent or null: none given. */
  reason?: string | null;
  now: Date;
}
export interface CounterOffer {
  type: 'CounterOffer';
  offerId: string;
  party?: OfferParty;
  counterOfferId: string;
  /** What the counter-offer proposes. */
  amountMinor: number;
  message?: string | null;
  now: Date;
}
export interface ExpireOffer {
  type: 'ExpireOffer';
  offerId: string;
  now: Date;
}

export type OfferCommand = MakeOffer | AcceptOffer | RejectOffer | CounterOffer | ExpireOffer;

export interface Offer extends Omit<OfferCreated, 'createdAt'> {
  status: OfferStatus;
  /** The trade an acceptance opened. */
  tradeId: string | null;
  /** The counter-offer that answered it. */
  counterOfferId: string | null;
  /** What the answer said (null while unanswered): a repeat must say the same. */
  answer: AnswerSaid | null;
}

/** What an answer says beside its kind; undefined: not recorded (a counter recorded before it was kept). */
export interface AnswerSaid {
  party: OfferParty;
  reason?: string | null;
  amountMinor?: number;
  message?: string | null;
}

export type OfferState = { status: 'none' } | { status: 'exists'; offer: Offer };

export const recipientOf = (offer: Pick<Offer, 'from'>): OfferParty => (offer.from === 'seller' ? 'buyer' : 'seller');

export const offerDecider: Decider<OfferCommand, OfferEvent, OfferState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'MakeOffer': {
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Offer ${command.offer.offerId} already exists`);
        validateOffer(command.offer, command.now);
        return [{ type: 'offer.created', data: { ...command.offer, createdAt: command.now.toISOString() } }];
      }
      case 'AcceptOffer': {
        const offer = existing(state, command.offerId);
        if (offer.status === 'accepted') return assertSameAnswer(offer, { party: command.party });
        const by = assertAnswerable(offer, command.party, command.now, 'accept');
        return [{ type: 'offer.accepted', data: { ...factsOf(offer), tradeId: command.tradeId, by, acceptedAt: command.now.toISOString() } }];
      }
      case 'RejectOffer': {
        const offer = existing(state, command.offerId);
        if (offer.status === 'rejected') return assertSameAnswer(offer, { party: command.party, reason: command.reason });
        const by = assertAnswerable(offer, command.party, command.now, 'reject');
        return [{ type: 'offer.rejected', data: { ...factsOf(offer), reason: command.reason ?? null, by, rejectedAt: command.now.toISOString() } }];
      }
      case 'CounterOffer': {
        const offer = existing(state, command.offerId);
        if (offer.status === 'countered') return assertSameAnswer(offer, { party: command.party, amountMinor: command.amountMinor, message: command.message });
        const by = assertAnswerable(offer, command.party, command.now, 'counter');
        return [
          {
            type: 'offer.countered',
            data: {
              ...factsOf(offer),
              counterOfferId: command.counterOfferId,
              by,
              counterAmountMinor: command.amountMinor,
              counterMessage: command.message ?? null,
              counteredAt: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ExpireOffer': {
        if (state.status === 'none') return [];
        const { offer } = state;
        if (offer.status !== 'pending' || command.now.getTime() < Date.parse(offer.expiresAt)) return [];
        return [{ type: 'offer.expired', data: { ...factsOf(offer), expiredAt: command.now.toISOString() } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'offer.created') {
      const { createdAt: _at, ...terms } = event.data;
      return { status: 'exists', offer: { ...terms, status: 'pending', tradeId: null, counterOfferId: null, answer: null } };
    }
    if (state.status === 'none') return state;
    const { offer } = state;
    switch (event.type) {
      case 'offer.accepted':
        return { status: 'exists', offer: { ...offer, status: 'accepted', tradeId: event.data.tradeId, answer: { party: event.data.by } } };
      case 'offer.rejected':
        return { status: 'exists', offer: { ...offer, status: 'rejected', answer: { party: event.data.by, reason: event.data.reason } } };
      case 'offer.countered': {
        const { by, counterAmountMinor, counterMessage } = event.data;
        return { status: 'exists', offer: { ...offer, status: 'countered', counterOfferId: event.data.counterOfferId, answer: { party: by, amountMinor: counterAmountMinor, message: counterMessage } } };
      }
      case 'offer.expired':
        return { status: 'exists', offer: { ...offer, status: 'expired' } };
      default:
        return state;
    }
  },
};

export function factsOf(offer: Offer): OfferFacts {
  const { offerId, threadId, inventoryItemId, buyerRequestId, matchId, amountMinor, currency, from } = offer;
  return { offerId, threadId, inventoryItemId, buyerRequestId, matchId, amountMinor, currency, from };
}

function existing(state: OfferState, offerId: string): Offer {
  if (state.status === 'none') throw new DomainError('NOT_FOUND', `No offer with id ${offerId}`);
  return state.offer;
}

/** The answering party, when it may answer now (pending, not past `expiresAt`, the recipient). */
function assertAnswerable(offer: Offer, given: OfferParty | undefined, now: Date, answer: string): OfferParty {
  const status = offer.status === 'pending' && now.getTime() >= Date.parse(offer.expiresAt) ? 'expired' : offer.status;
  if (status !== 'pending') {
    throw new DomainError('INVALID_TRANSITION', `Offer ${offer.offerId} is ${status}: it can no longer be answered`, { status });
  }
  const party = given ?? DEFAULT_ANSWERING_PARTY;
  const recipient = recipientOf(offer);
  if (party !== recipient) {
    throw new DomainError('INVALID_TRANSITION', `Only the ${recipient} may ${answer} an offer the ${offer.from} made`, { party, recipient });
  }
  return party;
}

const SAID_FIELDS = ['party', 'reason', 'amountMinor', 'message'] as const;

/** The body's name for each field, and its value as the API shows it (amounts in decimal units). */
const AS_SENT: Record<(typeof SAID_FIELDS)[number], { field: string; shown: (value: unknown) => unknown }> = {
  party: { field: 'party', shown: (v) => v },
  reason: { field: 'reason', shown: (v) => v },
  amountMinor: { field: 'amount', shown: (v) => (typeof v === 'number' ? v / 100 : v) },
  message: { field: 'message', shown: (v) => v },
};

/**
 * A repeated answer is a no-op when it says what the answer it repeats said (or less); one that
 * names another party, reason, amount or message is 409 CONFLICT naming the field.
 */
function assertSameAnswer(offer: Offer, given: Partial<AnswerSaid>): [] {
  const said = offer.answer;
  if (said === null) return [];
  for (const key of SAID_FIELDS) {
    const value = given[key];
    const recorded = said[key];
    // Saying nothing of a field (absent, or null: no reason, no message) is saying less, not otherwise.
    if (value === undefined || value === null || recorded === undefined || value === recorded) continue;
    const { field, shown } = AS_SENT[key];
    throw new DomainError(
      'CONFLICT',
      `Offer ${offer.offerId} is ${offer.status} already, with ${field} ${JSON.stringify(shown(recorded))}; this answer names ${JSON.stringify(shown(value))}`,
      { status: offer.status, field, recorded: shown(recorded), given: shown(value) },
    );
  }
  return [];
}

function validateOffer(offer: MakeOffer['offer'], now: Date): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!(Number.isInteger(offer.quantity) && offer.quantity >= 1)) issues.push({ path: 'quantity', message: 'must be an integer of at least 1' });
  if (!(Number.isInteger(offer.amountMinor) && offer.amountMinor > 0)) issues.push({ path: 'amount', message: 'must be more than 0' });
  if (!(Date.parse(offer.expiresAt) > now.getTime())) issues.push({ path: 'expiresAt', message: 'must be in the future' });
  if (issues.length > 0) throw DomainError.validation(`Invalid offer: ${issues[0].path} ${issues[0].message}`, issues);
}
