// The public events of buyer requests: what each means, its `data` fields (snake_case) and how a
// stored event becomes that data. buyer_request.updated stays internal (not in the spec's list).
import { eventField as f, fromMinor, type PublicEventType } from '@app/platform';

import { buyerRequestArchived, buyerRequestMatched, matchCreated } from './buyer-request.events';
import { buyerRequestCreated } from './buyer-request.parse';

const buyerRequestId = f('string', 'Buyer request id (`br_…`).');

export const BUYER_REQUEST_PUBLIC_EVENTS: readonly PublicEventType[] = [
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
    toData(event) {
      const d = buyerRequestCreated.parse(event.data);
      return {
        buyer_request_id: d.buyerRequestId,
        card_name: d.cardName,
        set_name: d.setName,
        condition: d.condition,
        max_price: fromMinor(d.maxPriceMinor),
        currency: d.currency,
        source: d.source,
      };
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
    toData(event) {
      const d = buyerRequestMatched.parse(event.data);
      return {
        buyer_request_id: d.buyerRequestId,
        match_count: d.matchCount,
        match_ids: d.matches.map((m) => m.matchId),
        inventory_item_ids: d.matches.map((m) => m.inventoryItemId),
      };
    },
  },
  {
    type: 'buyer_request.archived',
    description: 'A buyer request was archived; it never matches again.',
    data: { buyer_request_id: buyerRequestId, reason: f('string|null', 'Why, when given.') },
    toData(event) {
      const d = buyerRequestArchived.parse(event.data);
      return { buyer_request_id: d.buyerRequestId, reason: d.reason };
    },
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
    toData(event) {
      const d = matchCreated.parse(event.data);
      return { match_id: d.matchId, buyer_request_id: d.buyerRequestId, inventory_item_id: d.inventoryItemId, kind: d.kind, score: d.score };
    },
  },
];
