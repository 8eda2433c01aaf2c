// The public event catalogue: every type a webhook may subscribe to, what it means, and the
// fields of its `data` (snake_case, as in the spec's envelope). Stored events of other types are
// internal and never leave the service.

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'string|null';

export interface EventField {
  type: FieldType;
  description: string;
}

export interface EventTypeEntry {
  type: string;
  description: string;
  data: Readonly<Record<string, EventField>>;
}

const f = (type: FieldType, description: string): EventField => ({ type, description });

const buyerRequestId = f('string', 'Buyer request id (`br_…`).');
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
const inventoryFields = {
  inventory_item_id: f('string', 'Inventory item id (`inv_…`).'),
  card_name: f('string', 'Normalized card name.'),
  set_name: f('string', 'Normalized set name.'),
  condition: f('string', 'Normalized condition label.'),
  price: f('number', 'A decimal with at most 2 places.'),
  currency: f('string', 'ISO 4217 code.'),
  quantity: f('integer', 'Units held.'),
  status: f('string', '`available`, `reserved`, `sold` or `withdrawn`.'),
  sku: f('string|null', 'The seller\'s own reference.'),
};

export const EVENT_CATALOGUE: readonly EventTypeEntry[] = [
  {
    type: 'buyer_request.created',
    description: 'A new buyer request was submitted.',
    data: {
      buyer_request_id: buyerRequestId,
      card_name: f('string', 'Normalized card name.'),
      set_name: f('string', 'Normalized set name.'),
      condition: f('string', 'Lowest acceptable condition, normalized.'),
      max_price: f('number', 'Highest price, a decimal with at most 2 places.'),
      currency: f('string', 'ISO 4217 code.'),
      source: f('string|null', 'Where the request came from.'),
    },
  },
  {
    type: 'buyer_request.matched',
    description: 'A buyer request gained full matches with inventory (at creation or later).',
    data: {
      buyer_request_id: buyerRequestId,
      match_count: f('integer', 'Full matches of the request after this event.'),
      match_ids: f('array', 'The matches this event adds (`mt_…`).'),
      inventory_item_ids: f('array', 'Their inventory items (`inv_…`), in the same order.'),
    },
  },
  {
    type: 'buyer_request.archived',
    description: 'A buyer request was archived; it never matches again.',
    data: { buyer_request_id: buyerRequestId, reason: f('string|null', 'Why, when given.') },
  },
  {
    type: 'match.created',
    description: 'A new match was found between a buyer request and an inventory item.',
    data: {
      match_id: f('string', 'Match id (`mt_…`).'),
      buyer_request_id: buyerRequestId,
      inventory_item_id: f('string', 'Inventory item id (`inv_…`).'),
      kind: f('string', '`full` or `near_miss`.'),
      score: f('number', '0..1.'),
    },
  },
  {
    type: 'match.completed',
    description: 'A match engine run completed and stored a match pack.',
    data: {
      match_pack_id: f('string', 'Match pack id (`mp_…`).'),
      buyer_request_id: buyerRequestId,
      full_count: f('integer', 'Full matches in the pack.'),
      near_miss_count: f('integer', 'Near misses in the pack.'),
      match_ids: f('array', 'Every match of the pack (`mt_…`), best first.'),
    },
  },
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
  { type: 'inventory.created', description: 'A new inventory item was added.', data: inventoryFields },
  {
    type: 'inventory.updated',
    description: 'An inventory item was updated (the data is the whole item after the change).',
    data: { ...inventoryFields, changed_fields: f('array', 'What changed, e.g. `price`, `status`.') },
  },
  {
    type: 'inventory.deleted',
    description: 'An inventory item was removed.',
    data: { inventory_item_id: inventoryFields.inventory_item_id },
  },
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

export const PUBLIC_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_CATALOGUE.map((e) => e.type));

export function isPublicEventType(type: string): boolean {
  return PUBLIC_EVENT_TYPES.has(type);
}
