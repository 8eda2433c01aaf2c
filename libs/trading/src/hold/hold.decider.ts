// Holds: units reserved for a buyer until `expiresAt`, with a deposit. An active hold may have its
// deposit paid, be converted into a trade (the deposit counts toward the amount), be released, or
// expire (the durable timer's command) — each of the last three ends it. Past `expiresAt` an
// active hold is treated as expired even before the timer fires, so the time is exact. Repeating an
// action that took effect is a no-op, as long as it says what it said (another payment reference,
// another release reason is a 409 naming it). Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { HoldCreated, HoldEvent, HoldFacts, HoldStatus } from './hold.events';

export interface PlaceHold {
  type: 'PlaceHold';
  hold: Omit<HoldCreated, 'createdAt'>;
  now: Date;
}
export interface PayHoldDeposit {
  type: 'PayHoldDeposit';
  holdId: string;
  /** Absent or null: none given. */
  reference?: string | null;
  now: Date;
}
export interface ConvertHold {
  type: 'ConvertHold';
  holdId: string;
  tradeId: string;
  now: Date;
}
export interface ReleaseHold {
  type: 'ReleaseHold';
  holdId: string;
  /** Absent or null: none given. */
  reason?: string | null;
  now: Date;
}
/** The durable timer's command: an active hold past `expiresAt` expires; anything else is left alone. */
export interface ExpireHold {
  type: 'ExpireHold';
  holdId: string;
  now: Date;
}

export type HoldCommand = PlaceHold | PayHoldDeposit | ConvertHold | ReleaseHold | ExpireHold;

export interface Hold {
  holdId: string;
  status: HoldStatus;
  inventoryItemId: string;
  buyerRequestId: string | null;
  quantity: number;
  depositMinor: number;
  currency: string;
  amountMinor: number;
  expiresAt: string;
  depositPaid: boolean;
  /** The payment reference the deposit was recorded with: a repeat must name the same (or none). */
  depositReference: string | null;
  /** Why it was released: a repeated release must say the same (or nothing). */
  releaseReason: string | null;
  /** The trade a conversion opened. */
  tradeId: string | null;
}

export type HoldState = { status: 'none' } | { status: 'exists'; hold: Hold };

export const holdDecider: Decider<HoldCommand, HoldEvent, HoldState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'PlaceHold': {
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Hold ${command.hold.holdId} already exists`);
        validatePlacement(command.hold, command.now);
        return [{ type: 'hold.created', data: { ...command.hold, createdAt: command.now.toISOString() } }];
      }
      case 'PayHoldDeposit': {
        const hold = existing(state, command.holdId);
        if (hold.depositPaid) return assertSaid(hold, 'reference', hold.depositReference, command.reference);
        assertActive(hold, command.now, 'pay its deposit');
        return [
          {
            type: 'hold.deposit_paid',
            data: { ...factsOf(hold), reference: command.reference ?? null, paidAt: command.now.toISOString() },
          },
        ];
      }
      case 'ConvertHold': {
        const hold = existing(state, command.holdId);
        if (hold.status === 'converted') return [];
        assertActive(hold, command.now, 'convert it');
        return [{ type: 'hold.converted', data: { ...factsOf(hold), tradeId: command.tradeId, convertedAt: command.now.toISOString() } }];
      }
      case 'ReleaseHold': {
        const hold = existing(state, command.holdId);
        if (hold.status === 'released') return assertSaid(hold, 'reason', hold.releaseReason, command.reason);
        assertActive(hold, command.now, 'release it');
        return [{ type: 'hold.released', data: { ...factsOf(hold), reason: command.reason ?? null, releasedAt: command.now.toISOString() } }];
      }
      case 'ExpireHold': {
        if (state.status === 'none') return [];
        const { hold } = state;
        if (hold.status !== 'active' || command.now.getTime() < Date.parse(hold.expiresAt)) return [];
        return [{ type: 'hold.expired', data: { ...factsOf(hold), expiredAt: command.now.toISOString() } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'hold.created') {
      const { createdAt: _at, ...terms } = event.data;
      return { status: 'exists', hold: { ...terms, status: 'active', depositPaid: false, depositReference: null, releaseReason: null, tradeId: null } };
    }
    if (state.status === 'none') return state;
    const { hold } = state;
    switch (event.type) {
      case 'hold.deposit_paid':
        return { status: 'exists', hold: { ...hold, depositPaid: true, depositReference: event.data.reference } };
      case 'hold.converted':
        return { status: 'exists', hold: { ...hold, status: 'converted', tradeId: event.data.tradeId } };
      case 'hold.released':
        return { status: 'exists', hold: { ...hold, status: 'released', releaseReason: event.data.reason } };
      case 'hold.expired':
        return { status: 'exists', hold: { ...hold, status: 'expired' } };
      default:
        return state;
    }
  },
};

/** The deposit a conversion counts toward the trade's amount: what was paid, else nothing. */
export function depositCounted(hold: Hold): number {
  return hold.depositPaid ? hold.depositMinor : 0;
}

export function factsOf(hold: Hold): HoldFacts {
  return { holdId: hold.holdId, inventoryItemId: hold.inventoryItemId, depositMinor: hold.depositMinor, currency: hold.currency, expiresAt: hold.expiresAt };
}

function existing(state: HoldState, holdId: string): Hold {
  if (state.status === 'none') throw new DomainError('NOT_FOUND', `No hold with id ${holdId}`);
  return state.hold;
}

/**
 * A repeated action is a no-op when it says what the action it repeats said (or nothing); one that
 * names another value of `field` is 409 CONFLICT naming it, with the recorded and the given value.
 */
function assertSaid(hold: Hold, field: 'reference' | 'reason', recorded: string | null, given: string | null | undefined): [] {
  if (given === undefined || given === null || given === recorded) return [];
  throw new DomainError(
    'CONFLICT',
    `Hold ${hold.holdId} recorded ${field} ${JSON.stringify(recorded)} already; this request names ${JSON.stringify(given)}`,
    { status: hold.status, field, recorded, given },
  );
}

function assertActive(hold: Hold, now: Date, action: string): void {
  const status = hold.status === 'active' && now.getTime() >= Date.parse(hold.expiresAt) ? 'expired' : hold.status;
  if (status === 'active') return;
  throw new DomainError('INVALID_TRANSITION', `Hold ${hold.holdId} is ${status}: cannot ${action}`, { status });
}

function validatePlacement(hold: PlaceHold['hold'], now: Date): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!(Number.isInteger(hold.quantity) && hold.quantity >= 1)) issues.push({ path: 'quantity', message: 'must be an integer of at least 1' });
  if (!(Number.isInteger(hold.depositMinor) && hold.depositMinor >= 0)) issues.push({ path: 'depositAmount', message: 'must not be negative' });
  else if (hold.depositMinor > hold.amountMinor) issues.push({ path: 'depositAmount', message: 'must not exceed the price of the held units' });
  if (!(Date.parse(hold.expiresAt) > now.getTime())) issues.push({ path: 'expiresAt', message: 'must be in the future' });
  if (issues.length > 0) throw DomainError.validation(`Invalid hold: ${issues[0].path} ${issues[0].message}`, issues);
}
