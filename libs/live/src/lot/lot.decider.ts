// Lots: added to a session (pending), opened while the session is live, closed once, then settled
// once (the process manager records the hold or trade each winner got). Reserves are placed only
// while the lot is open and its session live, judged in the log's order:
// - an auction (an increment): the first reserve must reach the starting price, each later one must
//   beat the best by at least the increment; the newest best leads and wins the whole lot at close
//   (its amount is the price of the lot);
// - a claim sale (no increment): each reserve at or above the starting price takes one unit at its
//   amount while units last (`won`); later ones are waitlisted in order.
// A refused reserve is 409 RESERVE_TOO_LOW with the current best and the minimum that would be accepted.
// The state is kept small whatever the number of reserves (a hot lot takes thousands): the count,
// the auction's leader and the claims that won (at most `quantity`). A reserve's id is new per
// request: a retried request is answered by its Idempotency-Key, and the write path decides a
// reserve again only after a version conflict proved its append absent. Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { LotAdded, LotClosed, LotEvent, LotSettled, LotStatus, ReservePlaced } from './lot.events';

export interface AddLot {
  type: 'AddLot';
  lot: Omit<LotAdded, 'addedAt'>;
  now: Date;
}
export interface OpenLot {
  type: 'OpenLot';
  lotId: string;
  /** Whether the lot's session is live (the session's stream says; the handler reads it). */
  sessionLive: boolean;
  now: Date;
}
export interface PlaceReserve {
  type: 'PlaceReserve';
  lotId: string;
  reserveId: string;
  amountMinor: number;
  buyerSealed: string;
  buyerRequestId: string | null;
  sessionLive: boolean;
  now: Date;
}
export interface CloseLot {
  type: 'CloseLot';
  lotId: string;
  now: Date;
}

export interface SettleLot {
  type: 'SettleLot';
  lotId: string;
  awards: LotSettled['awards'];
  now: Date;
}

export type LotCommand = AddLot | OpenLot | PlaceReserve | CloseLot | SettleLot;

/** A reserve that holds units: what the lot closes with, and who it is for (the settlement reads it here, from the log). */
export interface Award {
  reserveId: string;
  amountMinor: number;
  quantity: number;
  buyerSealed: string;
  buyerRequestId: string | null;
}

export interface Lot extends Omit<LotAdded, 'addedAt'> {
  status: LotStatus;
  /** Reserves placed so far (the last one's sequence). */
  placed: number;
  /** An auction's best reserve (it holds the whole lot). */
  leader: Award | null;
  /** A claim sale's winning claims, in order (at most `quantity`). */
  claims: Award[];
  settled: boolean;
}

export type LotState = { status: 'none' } | { status: 'exists'; lot: Lot };

/** The best reserve so far: the auction's leader, or the claim sale's highest winning claim. */
export function bestOf(lot: Lot): { reserveId: string; amountMinor: number } | null {
  const best = lot.incrementMinor !== null ? lot.leader : lot.claims.reduce<Award | null>((b, r) => (b === null || r.amountMinor > b.amountMinor ? r : b), null);
  return best ? { reserveId: best.reserveId, amountMinor: best.amountMinor } : null;
}

/** The lowest amount a new reserve may offer. */
export function minimumOf(lot: Pick<Lot, 'incrementMinor' | 'startingPriceMinor'> & { leader: Pick<Award, 'amountMinor'> | null }): number {
  return lot.incrementMinor !== null && lot.leader ? lot.leader.amountMinor + lot.incrementMinor : lot.startingPriceMinor;
}

/** Units the claims took so far. */
export function claimedUnits(lot: Lot): number {
  return lot.claims.reduce((n, c) => n + c.quantity, 0);
}

export const lotDecider: Decider<LotCommand, LotEvent, LotState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'AddLot': {
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Lot ${command.lot.lotId} already exists`);
        validateLot(command.lot);
        return [{ type: 'lot.added', data: { ...command.lot, addedAt: command.now.toISOString() } }];
      }
      case 'OpenLot': {
        const lot = existing(state, command.lotId);
        if (lot.status === 'open') return [];
        if (lot.status === 'closed') throw invalid(lot, 'open it');
        if (!command.sessionLive) throw new DomainError('INVALID_TRANSITION', `Lot ${lot.lotId} opens only while its session is live`, { status: lot.status });
        return [{ type: 'lot.opened', data: { lotId: lot.lotId, sessionId: lot.sessionId, openedAt: command.now.toISOString() } }];
      }
      case 'PlaceReserve':
        return placeReserve(existing(state, command.lotId), command);
      case 'CloseLot': {
        const lot = existing(state, command.lotId);
        if (lot.status === 'closed') return [];
        return [{ type: 'lot.closed', data: closing(lot, command.now) }];
      }
      case 'SettleLot': {
        const lot = existing(state, command.lotId);
        if (lot.settled) return [];
        if (lot.status !== 'closed') throw invalid(lot, 'settle it');
        return [{ type: 'lot.settled', data: { lotId: lot.lotId, sessionId: lot.sessionId, awards: command.awards, settledAt: command.now.toISOString() } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'lot.added') {
      const { addedAt: _at, ...terms } = event.data;
      return { status: 'exists', lot: { ...terms, status: 'pending', placed: 0, leader: null, claims: [], settled: false } };
    }
    if (state.status === 'none') return state;
    const { lot } = state;
    switch (event.type) {
      case 'lot.opened':
        return { status: 'exists', lot: { ...lot, status: 'open' } };
      case 'lot.closed':
        return { status: 'exists', lot: { ...lot, status: 'closed' } };
      case 'lot.settled':
        return { status: 'exists', lot: { ...lot, settled: true } };
      case 'reserve.placed': {
        const { reserveId, amountMinor, standing, quantity, sequence, buyerSealed, buyerRequestId } = event.data;
        const award = { reserveId, amountMinor, quantity, buyerSealed, buyerRequestId };
        // A new auction leader outbids the previous one; a won claim joins the winners.
        const leader = standing === 'leading' ? award : lot.leader;
        const claims = standing === 'won' ? [...lot.claims, award] : lot.claims;
        return { status: 'exists', lot: { ...lot, placed: sequence, leader, claims } };
      }
      default:
        return state;
    }
  },
};

function placeReserve(lot: Lot, command: PlaceReserve): LotEvent[] {
  if (lot.status !== 'open' || !command.sessionLive) {
    throw new DomainError('INVALID_TRANSITION', `Lot ${lot.lotId} takes reserves only while it is open and its session live`, {
      status: lot.status,
      sessionLive: command.sessionLive,
    });
  }
  const minimum = minimumOf(lot);
  if (command.amountMinor < minimum) {
    const best = bestOf(lot);
    throw new DomainError('RESERVE_TOO_LOW', `A reserve on lot ${lot.lotId} must be at least ${decimal(minimum).toFixed(2)} ${lot.currency}`, {
      best: best && { reserveId: best.reserveId, amount: decimal(best.amountMinor) },
      minimumAmount: decimal(minimum),
      currency: lot.currency,
    });
  }
  const auction = lot.incrementMinor !== null;
  const standing = auction ? 'leading' : claimedUnits(lot) < lot.quantity ? 'won' : 'waitlisted';
  const data: ReservePlaced = {
    reserveId: command.reserveId,
    lotId: lot.lotId,
    sessionId: lot.sessionId,
    amountMinor: command.amountMinor,
    currency: lot.currency,
    buyerSealed: command.buyerSealed,
    buyerRequestId: command.buyerRequestId,
    sequence: lot.placed + 1,
    standing,
    quantity: standing === 'won' ? 1 : standing === 'leading' ? lot.quantity : 0,
    placedAt: command.now.toISOString(),
  };
  return [{ type: 'reserve.placed', data }];
}

/** Minor units as the API's decimal amounts (2 places), for a refusal's message and details. */
function decimal(minor: number): number {
  return minor / 100;
}

/** The reserves that win the lot: an auction's leader, or a claim sale's winning claims. */
export function winnersOf(lot: Lot): Award[] {
  return lot.incrementMinor !== null ? (lot.leader ? [lot.leader] : []) : lot.claims;
}

function closing(lot: Lot, now: Date): LotClosed {
  // The event names the winners and their units only: who each is stays in its reserve.placed.
  const winners = winnersOf(lot).map(({ reserveId, amountMinor, quantity }) => ({ reserveId, amountMinor, quantity }));
  const sold = winners.reduce((n, w) => n + w.quantity, 0);
  return { lotId: lot.lotId, sessionId: lot.sessionId, winners, unsold: lot.quantity - sold, closedAt: now.toISOString() };
}

function existing(state: LotState, lotId: string): Lot {
  if (state.status === 'none') throw new DomainError('NOT_FOUND', `No lot with id ${lotId}`);
  return state.lot;
}

function invalid(lot: Lot, action: string): DomainError {
  return new DomainError('INVALID_TRANSITION', `Lot ${lot.lotId} is ${lot.status}: cannot ${action}`, { status: lot.status });
}

function validateLot(lot: AddLot['lot']): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!(Number.isInteger(lot.quantity) && lot.quantity >= 1)) issues.push({ path: 'quantity', message: 'must be an integer of at least 1' });
  if (!(Number.isInteger(lot.startingPriceMinor) && lot.startingPriceMinor >= 0)) issues.push({ path: 'startingPrice', message: 'must not be negative' });
  if (lot.incrementMinor !== null && !(Number.isInteger(lot.incrementMinor) && lot.incrementMinor > 0)) issues.push({ path: 'increment', message: 'must be more than 0' });
  if (issues.length > 0) throw DomainError.validation(`Invalid lot: ${issues[0].path} ${issues[0].message}`, issues);
}
