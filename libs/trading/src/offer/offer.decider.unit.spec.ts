import { fold } from '@app/platform/domain';
import { deciderSpec } from '@app/testing/support/decider-spec';

import { offerDecider, recipientOf } from './offer.decider';
import type { OfferCreated, OfferEvent } from './offer.events';

const spec = deciderSpec(offerDecider);
const now = new Date('2026-11-24T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const HOUR = 3600 * 1000;

const terms: Omit<OfferCreated, 'createdAt'> = {
  offerId: 'ofr_1',
  threadId: 'ofr_1',
  countersOfferId: null,
  inventoryItemId: 'inv_1',
  buyerRequestId: 'br_1',
  matchId: 'mt_1',
  amountMinor: 40000,
  currency: 'USD',
  quantity: 1,
  from: 'buyer',
  message: 'would you take 400?',
  expiresAt: later(48 * HOUR).toISOString(),
};
const facts = { offerId: 'ofr_1', threadId: 'ofr_1', inventoryItemId: 'inv_1', buyerRequestId: 'br_1', matchId: 'mt_1', amountMinor: 40000, currency: 'USD', from: 'buyer' as const };
const created: OfferEvent = { type: 'offer.created', data: { ...terms, createdAt: now.toISOString() } };
const accepted: OfferEvent = { type: 'offer.accepted', data: { ...facts, tradeId: 'trd_1', by: 'seller', acceptedAt: now.toISOString() } };
const rejected: OfferEvent = { type: 'offer.rejected', data: { ...facts, reason: 'too low', by: 'seller', rejectedAt: now.toISOString() } };
const countered: OfferEvent = {
  type: 'offer.countered',
  data: { ...facts, counterOfferId: 'ofr_2', by: 'seller', counterAmountMinor: 42000, counterMessage: 'meet at 420?', counteredAt: now.toISOString() },
};
const expired: OfferEvent = { type: 'offer.expired', data: { ...facts, expiredAt: later(48 * HOUR).toISOString() } };

describe('offer decider', () => {
  it('makes an offer', () => {
    spec.given([]).when({ type: 'MakeOffer', offer: terms, now }).then([created]);
  });

  it('refuses a second one with the id, and bad terms', () => {
    spec.given([created]).when({ type: 'MakeOffer', offer: terms, now }).thenThrows('CONFLICT');
    spec.given([]).when({ type: 'MakeOffer', offer: { ...terms, amountMinor: 0 }, now }).thenThrows('VALIDATION_FAILED', 'amount');
    spec.given([]).when({ type: 'MakeOffer', offer: { ...terms, quantity: 0 }, now }).thenThrows('VALIDATION_FAILED', 'quantity');
    spec.given([]).when({ type: 'MakeOffer', offer: { ...terms, expiresAt: now.toISOString() }, now }).thenThrows('VALIDATION_FAILED', 'expiresAt');
  });

  it('lets the recipient accept, reject or counter', () => {
    expect(recipientOf(terms)).toBe('seller');
    spec.given([created]).when({ type: 'AcceptOffer', offerId: 'ofr_1', party: 'seller', tradeId: 'trd_1', now }).then([accepted]);
    spec.given([created]).when({ type: 'RejectOffer', offerId: 'ofr_1', party: 'seller', reason: 'too low', now }).then([rejected]);
    spec.given([created]).when({ type: 'CounterOffer', offerId: 'ofr_1', party: 'seller', counterOfferId: 'ofr_2', amountMinor: 42000, message: 'meet at 420?', now }).then([countered]);
  });

  it('refuses an answer from the party that made the offer', () => {
    spec.given([created]).when({ type: 'AcceptOffer', offerId: 'ofr_1', party: 'buyer', tradeId: 'trd_1', now }).thenThrows('INVALID_TRANSITION', 'Only the seller may accept');
    spec.given([created]).when({ type: 'RejectOffer', offerId: 'ofr_1', party: 'buyer', reason: null, now }).thenThrows('INVALID_TRANSITION', 'Only the seller');
    spec.given([created]).when({ type: 'CounterOffer', offerId: 'ofr_1', party: 'buyer', counterOfferId: 'ofr_2', amountMinor: 42000, now }).thenThrows('INVALID_TRANSITION', 'Only the seller');
  });

  it('answers each offer once: the same answer again is a no-op, any other is refused', () => {
    spec.given([created, accepted]).when({ type: 'AcceptOffer', offerId: 'ofr_1', party: 'seller', tradeId: 'trd_9', now }).then([]);
    spec.given([created, rejected]).when({ type: 'RejectOffer', offerId: 'ofr_1', party: 'seller', reason: 'too low', now }).then([]);
    spec.given([created, countered]).when({ type: 'CounterOffer', offerId: 'ofr_1', party: 'seller', counterOfferId: 'ofr_9', amountMinor: 42000, message: 'meet at 420?', now }).then([]);
    for (const [end, status] of [[accepted, 'accepted'], [rejected, 'rejected'], [countered, 'countered'], [expired, 'expired']] as const) {
      if (end !== accepted) spec.given([created, end]).when({ type: 'AcceptOffer', offerId: 'ofr_1', party: 'seller', tradeId: 'trd_1', now }).thenThrows('INVALID_TRANSITION', `is ${status}`);
      if (end !== rejected) spec.given([created, end]).when({ type: 'RejectOffer', offerId: 'ofr_1', party: 'seller', reason: null, now }).thenThrows('INVALID_TRANSITION', `is ${status}`);
      if (end !== countered) spec.given([created, end]).when({ type: 'CounterOffer', offerId: 'ofr_1', party: 'seller', counterOfferId: 'ofr_3', amountMinor: 42000, now }).thenThrows('INVALID_TRANSITION', `is ${status}`);
    }
  });

  it('refuses a repeated answer that says otherwise than the answer it repeats (409 naming the field); saying the same or less is the no-op', () => {
    // Saying less: no party (the default), no reason, no message.
    spec.given([created, accepted]).when({ type: 'AcceptOffer', offerId: 'ofr_1', tradeId: 'trd_9', now }).then([]);
    spec.given([created, rejected]).when({ type: 'RejectOffer', offerId: 'ofr_1', now }).then([]);
    spec.given([created, rejected]).when({ type: 'RejectOffer', offerId: 'ofr_1', reason: null, now }).then([]);
    spec.given([created, countered]).when({ type: 'CounterOffer', offerId: 'ofr_1', counterOfferId: 'ofr_9', amountMinor: 42000, now }).then([]);
    const refusals = [
      [[created, accepted], { type: 'AcceptOffer', offerId: 'ofr_1', party: 'buyer', tradeId: 'trd_9', now }, { field: 'party', recorded: 'seller', given: 'buyer' }],
      [[created, rejected], { type: 'RejectOffer', offerId: 'ofr_1', reason: 'no stock', now }, { field: 'reason', recorded: 'too low', given: 'no stock' }],
      [[created, countered], { type: 'CounterOffer', offerId: 'ofr_1', counterOfferId: 'ofr_9', amountMinor: 43000, now }, { field: 'amount', recorded: 420, given: 430 }],
      [[created, countered], { type: 'CounterOffer', offerId: 'ofr_1', counterOfferId: 'ofr_9', amountMinor: 42000, message: 'final', now }, { field: 'message', recorded: 'meet at 420?', given: 'final' }],
    ] as const;
    for (const [given, command, details] of refusals) {
      spec.given(given).when(command).thenThrows('CONFLICT', details.field);
      expect(() => offerDecider.decide(command, fold(offerDecider, given))).toThrow(expect.objectContaining({ details: { status: expect.any(String), ...details } }));
    }
  });

  it('takes a counter recorded before its terms were kept as the same counter', () => {
    const { counterAmountMinor: _a, counterMessage: _m, ...older } = countered.data as Extract<OfferEvent, { type: 'offer.countered' }>['data'];
    spec.given([created, { type: 'offer.countered', data: older }]).when({ type: 'CounterOffer', offerId: 'ofr_1', counterOfferId: 'ofr_9', amountMinor: 1, now }).then([]);
  });

  it('answers as the seller when an answer names no party', () => {
    spec.given([created]).when({ type: 'AcceptOffer', offerId: 'ofr_1', tradeId: 'trd_1', now }).then([accepted]);
    spec.given([{ type: 'offer.created', data: { ...terms, from: 'seller', createdAt: now.toISOString() } }]).when({ type: 'AcceptOffer', offerId: 'ofr_1', tradeId: 'trd_1', now }).thenThrows('INVALID_TRANSITION', 'Only the buyer');
  });

  it('cannot be answered past expiresAt, even before its timer fires', () => {
    spec.given([created]).when({ type: 'AcceptOffer', offerId: 'ofr_1', party: 'seller', tradeId: 'trd_1', now: later(48 * HOUR) }).thenThrows('INVALID_TRANSITION', 'is expired');
  });

  it('expires a pending offer at expiresAt, once; leaves answered ones alone', () => {
    spec.given([created]).when({ type: 'ExpireOffer', offerId: 'ofr_1', now: later(48 * HOUR) }).then([expired]);
    spec.given([created]).when({ type: 'ExpireOffer', offerId: 'ofr_1', now: later(48 * HOUR - 1) }).then([]);
    for (const end of [accepted, rejected, countered, expired]) {
      spec.given([created, end]).when({ type: 'ExpireOffer', offerId: 'ofr_1', now: later(96 * HOUR) }).then([]);
    }
    spec.given([]).when({ type: 'ExpireOffer', offerId: 'ofr_1', now }).then([]);
  });

  it('answers NOT_FOUND for answers to no offer', () => {
    spec.given([]).when({ type: 'AcceptOffer', offerId: 'ofr_1', party: 'seller', tradeId: 'trd_1', now }).thenThrows('NOT_FOUND');
  });
});
