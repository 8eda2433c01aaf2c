// Given/when/then for a buyer's personal data: an erasure is recorded once per data key.
import { deciderSpec } from '@app/testing/support/decider-spec';

import { type EraseBuyerPersonalData, buyerDecider } from './buyer.decider';
import type { BuyerEvent } from './buyer.events';

const spec = deciderSpec(buyerDecider);
const BUYER = 'buyer_abcdefghijklmnopqrstuvwxyz';
const now = new Date('2026-02-01T10:00:00.000Z');
const erase = (keyId: string): EraseBuyerPersonalData => ({ type: 'EraseBuyerPersonalData', buyerId: BUYER, keyId, now });
const erased = (keyId: string, at = now): BuyerEvent => ({
  type: 'buyer.personal_data_erased',
  data: { buyerId: BUYER, keyId, erasedAt: at.toISOString() },
});

describe('buyer decider', () => {
  it('records the erasure of a live key', () => {
    spec.given([]).when(erase('0badc0de')).then([erased('0badc0de')]);
  });

  it('records nothing when that key was erased already (a retried erasure)', () => {
    spec.given([erased('0badc0de', new Date('2026-01-01T00:00:00.000Z'))]).when(erase('0badc0de')).then([]);
  });

  it('records the erasure of a key made after an earlier erasure', () => {
    spec.given([erased('0badc0de')]).when(erase('12345678')).then([erased('12345678')]);
  });
});
