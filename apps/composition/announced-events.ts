// Public events the spec declares for contexts not built yet (trading, live selling, trust). They
// are catalogued so webhooks can subscribe to them today; nothing emits them, so no data mapper.
// Each entry moves into its context's own `*.public.ts` when that context is built.
import { eventField as f, type PublicEventType } from '@app/platform';

const tradeFields = {
  trade_id: f('string', 'Trade id (`trd_…`).'),
  offer_id: f('string', 'The accepted offer the trade came from (`ofr_…`).'),
  amount: f('number', 'Agreed amount, a decimal with at most 2 places.'),
  status: f('string', 'The trade\'s status after this event.'),
};
const offerFields = {
  offer_id: f('string', 'Offer id (`ofr_…`).'),
  match_id: f('string', 'The match the negotiation is about (`mt_…`).'),
  amount: f('number', 'Offered amount, a decimal with at most 2 places.'),
  currency: f('string', 'ISO 4217 code.'),
  status: f('string', 'The offer\'s status after this event.'),
};
const holdFields = {
  hold_id: f('string', 'Hold id (`hld_…`).'),
  inventory_item_id: f('string', 'The held item (`inv_…`).'),
  deposit_amount: f('number', 'Deposit, a decimal with at most 2 places.'),
  currency: f('string', 'ISO 4217 code.'),
  expires_at: f('string', 'ISO 8601 UTC: when the hold lapses unless converted.'),
  status: f('string', 'The hold\'s status after this event.'),
};
const liveSessionFields = {
  live_session_id: f('string', 'Live selling session id (`ls_…`).'),
  status: f('string', 'The session\'s status after this event.'),
};

/** Trading: offers, trades and holds (issue 13). */
export const ANNOUNCED_TRADING_EVENTS: readonly PublicEventType[] = [
  { type: 'offer.created', description: 'A new offer was sent.', data: offerFields },
  { type: 'offer.accepted', description: 'An offer was accepted by the buyer.', data: offerFields },
  { type: 'offer.rejected', description: 'An offer was rejected.', data: offerFields },
  { type: 'offer.countered', description: 'A counter-offer was made.', data: offerFields },
  { type: 'trade.initiated', description: 'A new trade was created.', data: tradeFields },
  { type: 'trade.paid', description: 'Payment for a trade was received.', data: tradeFields },
  { type: 'trade.shipped', description: 'A trade was marked as shipped.', data: tradeFields },
  { type: 'trade.completed', description: 'A trade completed successfully.', data: tradeFields },
  { type: 'trade.cancelled', description: 'A trade was cancelled.', data: tradeFields },
  {
    type: 'trade.status_changed',
    description: 'A trade progressed (sent beside the specific trade.* event).',
    data: { ...tradeFields, previous_status: f('string', 'The status before this event.') },
  },
  { type: 'hold.created', description: 'A new hold was placed.', data: holdFields },
  { type: 'hold.expired', description: 'A hold expired without conversion.', data: holdFields },
  { type: 'hold.deposit_paid', description: 'A hold\'s deposit payment was received.', data: holdFields },
];

/** Live selling (issue 14) and seller trust (issue 15). */
export const ANNOUNCED_LIVE_AND_TRUST_EVENTS: readonly PublicEventType[] = [
  { type: 'live_session.started', description: 'A live selling session started.', data: liveSessionFields },
  { type: 'live_session.ended', description: 'A live selling session ended.', data: liveSessionFields },
  {
    type: 'reserve.placed',
    description: 'A reserve was placed on a live lot.',
    data: {
      reserve_id: f('string', 'Reserve id (`rsv_…`).'),
      live_session_id: liveSessionFields.live_session_id,
      lot_id: f('string', 'Lot id (`lot_…`).'),
      amount: f('number', 'A decimal with at most 2 places.'),
      currency: f('string', 'ISO 4217 code.'),
    },
  },
  {
    type: 'trust.score_updated',
    description: 'A seller\'s trust score changed.',
    data: {
      seller_id: f('string', 'The seller (workspace slug).'),
      score: f('number', 'The new score, 0..100.'),
      previous_score: f('number', 'The score before.'),
    },
  },
];
