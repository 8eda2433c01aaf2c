import { fold } from '@app/platform/domain';
import { deciderSpec } from '@app/testing/support/decider-spec';

import { depositCounted, holdDecider } from './hold.decider';
import type { HoldCreated, HoldEvent } from './hold.events';

const spec = deciderSpec(holdDecider);
const now = new Date('2026-11-24T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const HOUR = 3600 * 1000;

const terms: Omit<HoldCreated, 'createdAt'> = {
  holdId: 'hld_1',
  inventoryItemId: 'inv_1',
  buyerRequestId: null,
  quantity: 1,
  depositMinor: 5000,
  currency: 'USD',
  amountMinor: 42500,
  expiresAt: later(24 * HOUR).toISOString(),
};
const created: HoldEvent = { type: 'hold.created', data: { ...terms, createdAt: now.toISOString() } };
const facts = { holdId: 'hld_1', inventoryItemId: 'inv_1', depositMinor: 5000, currency: 'USD', expiresAt: terms.expiresAt };
const paid: HoldEvent = { type: 'hold.deposit_paid', data: { ...facts, reference: 'pi_1', paidAt: now.toISOString() } };
const converted: HoldEvent = { type: 'hold.converted', data: { ...facts, tradeId: 'trd_1', convertedAt: now.toISOString() } };
const released: HoldEvent = { type: 'hold.released', data: { ...facts, reason: null, releasedAt: now.toISOString() } };
const expired: HoldEvent = { type: 'hold.expired', data: { ...facts, expiredAt: later(24 * HOUR).toISOString() } };

describe('hold decider', () => {
  it('places a hold', () => {
    spec.given([]).when({ type: 'PlaceHold', hold: terms, now }).then([created]);
  });

  it('refuses a second placement, and bad terms', () => {
    spec.given([created]).when({ type: 'PlaceHold', hold: terms, now }).thenThrows('CONFLICT');
    spec.given([]).when({ type: 'PlaceHold', hold: { ...terms, expiresAt: now.toISOString() }, now }).thenThrows('VALIDATION_FAILED', 'expiresAt');
    spec.given([]).when({ type: 'PlaceHold', hold: { ...terms, quantity: 0 }, now }).thenThrows('VALIDATION_FAILED', 'quantity');
    spec.given([]).when({ type: 'PlaceHold', hold: { ...terms, depositMinor: 50000 }, now }).thenThrows('VALIDATION_FAILED', 'depositAmount');
    spec.given([]).when({ type: 'PlaceHold', hold: { ...terms, depositMinor: -1 }, now }).thenThrows('VALIDATION_FAILED', 'depositAmount');
  });

  it('answers NOT_FOUND for commands on no hold', () => {
    spec.given([]).when({ type: 'PayHoldDeposit', holdId: 'hld_1', reference: null, now }).thenThrows('NOT_FOUND');
    spec.given([]).when({ type: 'ConvertHold', holdId: 'hld_1', tradeId: 'trd_1', now }).thenThrows('NOT_FOUND');
    spec.given([]).when({ type: 'ReleaseHold', holdId: 'hld_1', reason: null, now }).thenThrows('NOT_FOUND');
  });

  it('records the deposit once', () => {
    spec.given([created]).when({ type: 'PayHoldDeposit', holdId: 'hld_1', reference: 'pi_1', now }).then([paid]);
    spec.given([created, paid]).when({ type: 'PayHoldDeposit', holdId: 'hld_1', reference: 'pi_1', now }).then([]);
    spec.given([created, paid]).when({ type: 'PayHoldDeposit', holdId: 'hld_1', now }).then([]);
  });

  it('refuses a repeat that names another reference or reason than the one recorded (409 naming the field)', () => {
    spec.given([created, paid]).when({ type: 'PayHoldDeposit', holdId: 'hld_1', reference: 'pi_2', now }).thenThrows('CONFLICT', 'reference "pi_1"');
    expect(() => holdDecider.decide({ type: 'PayHoldDeposit', holdId: 'hld_1', reference: 'pi_2', now }, fold(holdDecider, [created, paid]))).toThrow(
      expect.objectContaining({ details: { status: 'active', field: 'reference', recorded: 'pi_1', given: 'pi_2' } }),
    );
    spec.given([created, released]).when({ type: 'ReleaseHold', holdId: 'hld_1', reason: 'again', now }).thenThrows('CONFLICT', 'reason null');
  });

  it('converts, releases: each once, and only while active', () => {
    spec.given([created]).when({ type: 'ConvertHold', holdId: 'hld_1', tradeId: 'trd_1', now }).then([converted]);
    spec.given([created, converted]).when({ type: 'ConvertHold', holdId: 'hld_1', tradeId: 'trd_2', now }).then([]);
    spec.given([created]).when({ type: 'ReleaseHold', holdId: 'hld_1', reason: null, now }).then([released]);
    spec.given([created, released]).when({ type: 'ReleaseHold', holdId: 'hld_1', reason: null, now }).then([]);
    for (const end of [converted, released, expired]) {
      const status = end.type.split('.')[1];
      spec.given([created, end]).when({ type: 'PayHoldDeposit', holdId: 'hld_1', reference: null, now }).thenThrows('INVALID_TRANSITION', `is ${status}`);
      if (end !== converted) spec.given([created, end]).when({ type: 'ConvertHold', holdId: 'hld_1', tradeId: 'trd_1', now }).thenThrows('INVALID_TRANSITION', `is ${status}`);
      if (end !== released) spec.given([created, end]).when({ type: 'ReleaseHold', holdId: 'hld_1', reason: null, now }).thenThrows('INVALID_TRANSITION', `is ${status}`);
    }
  });

  it('treats an active hold past expiresAt as expired before the timer fires', () => {
    const past = later(24 * HOUR);
    spec.given([created]).when({ type: 'ConvertHold', holdId: 'hld_1', tradeId: 'trd_1', now: past }).thenThrows('INVALID_TRANSITION', 'is expired');
    spec.given([created]).when({ type: 'PayHoldDeposit', holdId: 'hld_1', reference: null, now: past }).thenThrows('INVALID_TRANSITION', 'is expired');
  });

  it('expires an active hold at expiresAt, once; leaves others alone', () => {
    spec.given([created]).when({ type: 'ExpireHold', holdId: 'hld_1', now: later(24 * HOUR) }).then([expired]);
    spec.given([created]).when({ type: 'ExpireHold', holdId: 'hld_1', now: later(24 * HOUR - 1) }).then([]);
    spec.given([created, expired]).when({ type: 'ExpireHold', holdId: 'hld_1', now: later(48 * HOUR) }).then([]);
    spec.given([created, converted]).when({ type: 'ExpireHold', holdId: 'hld_1', now: later(48 * HOUR) }).then([]);
    spec.given([created, released]).when({ type: 'ExpireHold', holdId: 'hld_1', now: later(48 * HOUR) }).then([]);
    spec.given([]).when({ type: 'ExpireHold', holdId: 'hld_1', now }).then([]);
  });

  it('counts the deposit toward a trade only once paid', () => {
    const hold = { ...terms, status: 'active' as const, depositPaid: false, depositReference: null, releaseReason: null, tradeId: null };
    expect(depositCounted(hold)).toBe(0);
    expect(depositCounted({ ...hold, depositPaid: true })).toBe(5000);
  });
});
