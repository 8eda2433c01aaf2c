// The public events of live lots: what each means, its `data` fields (snake_case) and how a stored
// event becomes that data. The bidder is personal data: never in an event's data.
import { eventField as f, fromMinor, type PublicEventType } from '@app/platform';

import { reservePlaced } from './lot.events';

const live_session_id = f('string', 'Live selling session id (`ls_…`).');

export const LOT_PUBLIC_EVENTS: readonly PublicEventType[] = [
  {
    type: 'reserve.placed',
    description: 'A reserve was placed on a live lot (in the lot\'s order).',
    data: {
      reserve_id: f('string', 'Reserve id (`rsv_…`).'),
      live_session_id,
      lot_id: f('string', 'Lot id (`lot_…`).'),
      amount: f('number', 'A decimal with at most 2 places.'),
      currency: f('string', 'ISO 4217 code.'),
      sequence: f('integer', 'Its place in the lot\'s order: 1, 2, 3…'),
      standing: f('string', '`leading` (an auction\'s new best), `won` (a claim that took a unit) or `waitlisted`.'),
      quantity: f('integer', 'Units it holds or took (0 when waitlisted).'),
      buyer_request_id: f('string|null', 'The buyer request the bidder came from, when given.'),
    },
    toData(event) {
      const d = reservePlaced.parse(event.data);
      return {
        reserve_id: d.reserveId,
        live_session_id: d.sessionId,
        lot_id: d.lotId,
        amount: fromMinor(d.amountMinor),
        currency: d.currency,
        sequence: d.sequence,
        standing: d.standing,
        quantity: d.quantity,
        buyer_request_id: d.buyerRequestId,
      };
    },
  },
];
