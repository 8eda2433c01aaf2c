// The public events of buyer requests: what each means, its `data` fields (snake_case) and how a
// stored event becomes that data. buyer_request.updated stays internal (not in the spec's list).
// The matches a write records are one stored event, buyer_request.matches_recorded (internal), and
// still one public event per match as the spec lists them: a buyer_request.matched for the newly
// full ones, then one match.created per new match (the catalogue's fan-out, with ids derived from
// the stored event's). Logs written before it hold those public events one by one, each its own
// stored event (and id): their data is made the same way, from the same shape.
import { eventField as f, fromMinor, type PublicEventType, type RecordedEvent } from '@app/platform';

import { buyerRequestArchived, type BuyerRequestMatchesRecorded } from './buyer-request.events';
import { buyerRequestCreated, parseMatchesRecorded } from './buyer-request.parse';

/** The `buyer_request.matched` data of a recording adding full matches. */
function matchedData(d: BuyerRequestMatchesRecorded): Record<string, unknown> {
  return {
    buyer_request_id: d.buyerRequestId,
    match_count: d.matchCount,
    match_ids: d.full.map((m) => m.matchId),
    inventory_item_ids: d.full.map((m) => m.inventoryItemId),
  };
}

/** The `match.created` data of a new match of a recording. */
function matchCreatedData(d: BuyerRequestMatchesRecorded, m: BuyerRequestMatchesRecorded['created'][number]): Record<string, unknown> {
  return { match_id: m.matchId, buyer_request_id: d.buyerRequestId, inventory_item_id: m.inventoryItemId, kind: m.kind, score: m.score };
}

/** A recording's public events of one type (matches_recorded's fan-out). */
const recorded = (of: (d: BuyerRequestMatchesRecorded) => Array<Record<string, unknown>>) => (event: RecordedEvent) => of(parseMatchesRecorded(event));

const buyerRequestId = f('string', 'Buyer request id (`br_…`).');

export const BUYER_REQUEST_PUBLIC_EVENTS: readonly PublicEventType[] = [
  {
    type: 'buyer_request.created',
    description: 'A new buyer request was submitted.',
    data: {
      buyer_request_id: buyerRequestId,
      card_name: f('string', 'Normalized card name.'),
      set_name: f('string|null', 'Normalized set name; null: any printing of the card (requests before open fields always have one).'),
      condition: f('string|null', 'Lowest acceptable condition, normalized; null: any condition.'),
      max_price: f('number|null', 'Highest price, a decimal with at most 2 places; null: no price limit.'),
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
        max_price: d.maxPriceMinor === null ? null : fromMinor(d.maxPriceMinor),
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
    // As stored before buyer_request.matches_recorded.
    toData: (event) => matchedData(parseMatchesRecorded(event)),
    // One when the recording adds full matches (a near miss alone is no buyer_request.matched).
    fanOut: { 'buyer_request.matches_recorded': recorded((d) => (d.full.length > 0 ? [matchedData(d)] : [])) },
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
    // As stored before buyer_request.matches_recorded.
    toData(event) {
      const d = parseMatchesRecorded(event);
      return matchCreatedData(d, d.created[0]);
    },
    // One per new match, best score first.
    fanOut: { 'buyer_request.matches_recorded': recorded((d) => d.created.map((m) => matchCreatedData(d, m))) },
  },
];
