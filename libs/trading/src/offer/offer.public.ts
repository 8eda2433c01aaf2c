// The public events of offers: what each means, its `data` fields (snake_case) and how a stored
// event becomes that data. Every offer event carries the offer's facts (see offerFacts).
import { eventField as f, fromMinor, type PublicEventType } from '@app/platform';

import { type OfferFacts, offerFacts } from './offer.events';

const fields = {
  offer_id: f('string', 'Offer id (`ofr_…`).'),
  thread_id: f('string', 'The negotiation thread: its first offer\'s id.'),
  inventory_item_id: f('string', 'The item offered on (`inv_…`).'),
  buyer_request_id: f('string|null', 'The buyer request it answers (`br_…`), when any.'),
  match_id: f('string|null', 'The match the negotiation is about (`mt_…`), when any.'),
  amount: f('number', 'Offered amount, a decimal with at most 2 places.'),
  currency: f('string', 'ISO 4217 code.'),
  from: f('string', '`seller` or `buyer`: who made the offer.'),
  status: f('string', 'The offer\'s status after this event.'),
};

function data(d: OfferFacts, status: string): Record<string, unknown> {
  return {
    offer_id: d.offerId,
    thread_id: d.threadId,
    inventory_item_id: d.inventoryItemId,
    buyer_request_id: d.buyerRequestId,
    match_id: d.matchId,
    amount: fromMinor(d.amountMinor),
    currency: d.currency,
    from: d.from,
    status,
  };
}

function offerEvent(type: string, description: string, status: string, extra: PublicEventType['data'] = {}, more?: (raw: Record<string, unknown>) => Record<string, unknown>): PublicEventType {
  return {
    type,
    description,
    data: { ...fields, ...extra },
    toData(event) {
      const raw = event.data as Record<string, unknown>;
      return { ...data(offerFacts.parse(raw), status), ...(more ? more(raw) : {}) };
    },
  };
}

export const OFFER_PUBLIC_EVENTS: readonly PublicEventType[] = [
  offerEvent('offer.created', 'A new offer was sent (a first offer, or a counter-offer in its thread).', 'pending', {
    counters_offer_id: f('string|null', 'The offer this one counters, when it is a counter-offer.'),
    expires_at: f('string', 'ISO 8601 UTC: when it lapses unless answered.'),
  }, (raw) => ({ counters_offer_id: raw.countersOfferId, expires_at: raw.expiresAt })),
  offerEvent('offer.accepted', 'An offer was accepted by the party it was made to; the trade is open.', 'accepted', {
    trade_id: f('string', 'The trade the acceptance opened (`trd_…`).'),
  }, (raw) => ({ trade_id: raw.tradeId })),
  offerEvent('offer.rejected', 'An offer was rejected.', 'rejected', { reason: f('string|null', 'Why, when given.') }, (raw) => ({ reason: raw.reason })),
  offerEvent('offer.countered', 'An offer was answered with a counter-offer (sent as its own offer.created).', 'countered', {
    counter_offer_id: f('string', 'The counter-offer (`ofr_…`).'),
  }, (raw) => ({ counter_offer_id: raw.counterOfferId })),
  offerEvent('offer.expired', 'An offer lapsed unanswered.', 'expired'),
];
