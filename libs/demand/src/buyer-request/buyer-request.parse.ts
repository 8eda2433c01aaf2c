// Reading stored buyer request events back: validation, and the upcasting of old versions. Version
// 1 of `buyer_request.created` had no `match` (the normalized identity) and no `input`: they are
// derived here from the stored display names with @app/catalog, which is why this is not part of
// the pure event contract (buyer-request.events.ts). Events written before buyers existed have no
// `buyerSealed`: they read as naming no buyer (null); those written before the widget have no
// `buyerId` nor `contactSealed`: no contact (null).
// Matches were recorded one event each before `buyer_request.matches_recorded` (a
// `buyer_request.matched` listing the newly full ones, then one `match.created` per new match):
// each old event reads back as the matches_recorded it is part of — a matched as one recording
// only `full`, a match.created as one recording only `created` — so the log of old and new writes
// folds to the same state in every reader.
import { normalizeWant } from '@app/catalog';
import { parseOnce, type RecordedEvent } from '@app/platform/domain';

import {
  buyerRequestArchived,
  type BuyerRequestCreated,
  type BuyerRequestEvent,
  type BuyerRequestMatchesRecorded,
  buyerRequestMatched,
  buyerRequestMatchesRecorded,
  type BuyerRequestUpdated,
  matchCreated,
  storedBuyerRequestCreated,
  storedBuyerRequestUpdated,
} from './buyer-request.events';

/** `buyer_request.created` of any version, as the current one. */
export const buyerRequestCreated = storedBuyerRequestCreated.transform(
  (d): BuyerRequestCreated => ({
    ...d,
    match: d.match ?? normalizeWant(d).match,
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

/** Any event recording matches on a request (matches_recorded, or an old matched or match.created), as matches_recorded. */
export const parseMatchesRecorded = parseOnce((event: Pick<RecordedEvent, 'type' | 'data'>): BuyerRequestMatchesRecorded => {
  switch (event.type) {
    case 'buyer_request.matches_recorded':
      return buyerRequestMatchesRecorded.parse(event.data);
    case 'buyer_request.matched': {
      const d = buyerRequestMatched.parse(event.data);
      return { buyerRequestId: d.buyerRequestId, created: [], full: d.matches, matchCount: d.matchCount, recordedAt: d.matchedAt };
    }
    case 'match.created': {
      const { buyerRequestId, createdAt, ...match } = matchCreated.parse(event.data);
      return { buyerRequestId, created: [match], full: [], matchCount: null, recordedAt: createdAt };
    }
    default:
      throw new Error(`Not an event recording matches: ${event.type}`);
  }
});

export const parseBuyerRequestEvent = parseOnce((event: RecordedEvent): BuyerRequestEvent => {
  switch (event.type) {
    case 'buyer_request.created':
      return { type: event.type, data: buyerRequestCreated.parse(event.data) };
    case 'buyer_request.updated':
      return { type: event.type, data: buyerRequestUpdated.parse(event.data) };
    case 'buyer_request.archived':
      return { type: event.type, data: buyerRequestArchived.parse(event.data) };
    case 'buyer_request.matches_recorded':
    case 'buyer_request.matched':
    case 'match.created':
      return { type: 'buyer_request.matches_recorded', data: parseMatchesRecorded(event) };
    default:
      throw new Error(`Not a buyer request event: ${event.type}`);
  }
});
