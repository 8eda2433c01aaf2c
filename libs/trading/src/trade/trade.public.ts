// The public events of trades: what each means, its `data` fields (snake_case) and how a stored
// event becomes that data. trade.completed's data is exactly the spec's four fields; the other
// named moves carry the same four; trade.status_changed names every move, delivered and settled
// included, with the status before it.
import { eventField as f, fromMinor, type PublicEventType } from '@app/platform';

import { tradeFacts, tradeInitiated, tradeStatusChanged } from './trade.events';

const tradeId = f('string', 'Trade id (`trd_…`).');
const factFields = {
  trade_id: tradeId,
  offer_id: f('string|null', 'The accepted offer the trade came from (`ofr_…`); null when it did not come from an offer.'),
  amount: f('number', 'Agreed amount, a decimal with at most 2 places.'),
  status: f('string', 'The trade\'s status after this event.'),
};

function named(type: string, description: string): PublicEventType {
  return {
    type,
    description,
    data: factFields,
    toData(event) {
      const d = tradeFacts.parse(event.data);
      return { trade_id: d.tradeId, offer_id: d.offerId, amount: fromMinor(d.amountMinor), status: d.status };
    },
  };
}

export const TRADE_PUBLIC_EVENTS: readonly PublicEventType[] = [
  {
    type: 'trade.initiated',
    description: 'A new trade was created (its units are reserved).',
    data: {
      ...factFields,
      inventory_item_id: f('string', 'The traded item (`inv_…`).'),
      buyer_request_id: f('string|null', 'The buyer request it answers (`br_…`), when any.'),
      match_id: f('string|null', 'The match it came from (`mt_…`), when any.'),
      hold_id: f('string|null', 'The hold it converted (`hld_…`), when any.'),
      quantity: f('integer', 'Units traded.'),
      currency: f('string', 'ISO 4217 code.'),
    },
    toData(event) {
      const d = tradeInitiated.parse(event.data);
      return {
        trade_id: d.tradeId,
        offer_id: d.offerId,
        amount: fromMinor(d.amountMinor),
        status: 'initiated',
        inventory_item_id: d.inventoryItemId,
        buyer_request_id: d.buyerRequestId,
        match_id: d.matchId,
        hold_id: d.holdId,
        quantity: d.quantity,
        currency: d.currency,
      };
    },
  },
  named('trade.paid', 'Payment for a trade was received (held until the trade settles).'),
  named('trade.shipped', 'A trade was marked as shipped.'),
  named('trade.completed', 'A trade completed: delivery confirmed, a dispute released, or the dispute window passed.'),
  named('trade.cancelled', 'A trade was cancelled; its units are available again.'),
  {
    type: 'trade.status_changed',
    description: 'A trade moved (every move, delivered, disputed and settled included).',
    data: {
      trade_id: tradeId,
      status: f('string', 'The status after the move.'),
      previous_status: f('string', 'The status before it.'),
      reason: f('string|null', 'Why, when given.'),
      refund_due: f('boolean', 'True when the move owes the buyer a refund (a cancel after payment, a dispute refunded).'),
    },
    toData(event) {
      const d = tradeStatusChanged.parse(event.data);
      return { trade_id: d.tradeId, status: d.to, previous_status: d.from, reason: d.reason, refund_due: d.refundDue };
    },
  },
];
