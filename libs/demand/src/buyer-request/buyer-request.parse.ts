// Reading stored buyer request events back: validation, and the upcasting of old versions. Version
// 1 of `buyer_request.created` had no `match` (the normalized identity) and no `input`: they are
// derived here from the stored display names with @app/catalog, which is why this is not part of
// the pure event contract (buyer-request.events.ts). Events written before buyers existed have no
// `buyerSealed`: they read as naming no buyer (null); those written before the widget have no
// `buyerId` nor `contactSealed`: no contact (null).
import { normalizeListing } from '@app/catalog';
import type { RecordedEvent } from '@app/platform/domain';

import {
  buyerRequestArchived,
  type BuyerRequestCreated,
  type BuyerRequestEvent,
  buyerRequestMatched,
  type BuyerRequestUpdated,
  matchCreated,
  storedBuyerRequestCreated,
  storedBuyerRequestUpdated,
} from './buyer-request.events';

/** `buyer_request.created` of any version, as the current one. */
export const buyerRequestCreated = storedBuyerRequestCreated.transform(
  (d): BuyerRequestCreated => ({
    ...d,
    match: d.match ?? normalizeListing(d).match,
    input: d.input ?? { cardName: d.cardName, setName: d.setName, condition: d.condition },
    buyerSealed: d.buyerSealed ?? null,
    buyerId: d.buyerId ?? null,
    contactSealed: d.contactSealed ?? null,
  }),
);

/** `buyer_request.updated` of any version, as the current one. */
export const buyerRequestUpdated = storedBuyerRequestUpdated.transform(
  (d): BuyerRequestUpdated => ({ ...d, buyerSealed: d.buyerSealed ?? null }),
);

export function parseBuyerRequestEvent(event: RecordedEvent): BuyerRequestEvent {
  switch (event.type) {
    case 'buyer_request.created':
      return { type: event.type, data: buyerRequestCreated.parse(event.data) };
    case 'buyer_request.updated':
      return { type: event.type, data: buyerRequestUpdated.parse(event.data) };
    case 'buyer_request.archived':
      return { type: event.type, data: buyerRequestArchived.parse(event.data) };
    case 'buyer_request.matched':
      return { type: event.type, data: buyerRequestMatched.parse(event.data) };
    case 'match.created':
      return { type: event.type, data: matchCreated.parse(event.data) };
    default:
      throw new Error(`Not a buyer request event: ${event.type}`);
  }
}
