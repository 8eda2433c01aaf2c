// The tradegraph projection's step for a buyer request event: the request's document (tg_requests)
// with its bid, then the request moved in the aggregates — out as it was, in as it is — the price
// counts' bids (pricing), and the card's and the set's open, unmatched, created and missed requests
// (summary). Idempotent on replay: the request's document remembers the revision it reflects, and
// the aggregates change only through its transitions.
import { parseBuyerRequestEvent } from '@app/demand';
import { type RecordedEvent, streamEntityId, view, type ViewStep } from '@app/platform';

import { addPrice } from '../pricing/price-counts';
import { changePoints, type PointsCounts } from '../pricing/pricing.views';
import { placed } from '../supply/supply.views';
import { addTo, changeDemand, type DemandDoc, type RequestDoc, TG_REQUESTS } from './summary.views';

/**
 * How a request's open fields are counted: a request for any printing is its own card cluster,
 * `Card (any set)`, and falls in the set cluster `any set` (never counted in every set it could
 * be met by); any condition is the condition `any condition` of its price points; a request
 * without a price limit is counted in open and unmatched requests but in no price band or bid.
 */
export const ANY_SET_NAME = 'any set';
export const ANY_CONDITION_NAME = 'any condition';

/** A price count changed by a request's maximum, or its unpriced count when it has none. */
function addRequestPrice(prices: number[], unpriced: 'openUnpriced' | 'unmatchedUnpriced', d: DemandDoc, price: number | null, sign: 1 | -1): void {
  if (price === null) d[unpriced] = Math.max(0, (d[unpriced] ?? 0) + sign);
  else addPrice(prices, price, sign);
}

export function* evolveRequest(event: RecordedEvent): ViewStep {
  const id = streamEntityId(event.streamId);
  const before = yield* view.get<RequestDoc>(TG_REQUESTS, id);
  if (before && before.revision >= event.revision) return;
  const e = parseBuyerRequestEvent(event);
  let after: RequestDoc | null = before ? { ...before, revision: event.revision } : null;
  switch (e.type) {
    case 'buyer_request.created':
    case 'buyer_request.updated': {
      const d = e.data;
      after = {
        ...placed(event, { ...d, setName: d.setName ?? ANY_SET_NAME, condition: d.condition ?? ANY_CONDITION_NAME }),
        maxPriceMinor: d.maxPriceMinor,
        status: before?.status ?? 'open',
        bidMinor: null,
        createdAt: e.type === 'buyer_request.created' ? e.data.createdAt : (before?.createdAt ?? e.data.updatedAt),
      };
      break;
    }
    case 'buyer_request.matches_recorded':
      // A request is matched by its first full match (near misses alone change nothing here).
      if (e.data.full.length === 0) return;
      if (after && after.status === 'open') after = { ...after, status: 'matched' };
      break;
    case 'buyer_request.archived':
      if (after) after = { ...after, status: 'archived' };
      break;
    default:
      return;
  }
  if (!after) return;
  after.bidMinor = after.status === 'archived' ? null : after.maxPriceMinor;
  yield* view.put(TG_REQUESTS, after);
  // A further match on a request matched already changes none of the aggregates.
  if (e.type === 'buyer_request.matches_recorded' && before?.status !== 'open') return;
  const archivedAt = e.type === 'buyer_request.archived' ? e.data.archivedAt : null;
  const request = after;
  // Out as it was, in as it is: the points' bids and the card's and set's demand — each document
  // read and written once when the request stays on the same card.
  const contribution = (r: RequestDoc, sign: 1 | -1) => ({
    points: (p: PointsCounts) => {
      if (r.maxPriceMinor !== null) addPrice(p.bids, r.maxPriceMinor, sign);
    },
    demand: (d: DemandDoc) => {
      addRequestPrice(d.openPrices, 'openUnpriced', d, r.maxPriceMinor, sign);
      if (r.status === 'open') {
        addRequestPrice(d.unmatchedPrices, 'unmatchedUnpriced', d, r.maxPriceMinor, sign);
        addTo(d.unmatchedByDay, r.createdAt.slice(0, 10), sign);
      }
    },
  });
  const out = before && before.status !== 'archived' ? contribution(before, -1) : null;
  const into = request.status !== 'archived' ? contribution(request, 1) : null;
  const samePoints = before?.pointsKey === request.pointsKey;
  if (before && out && !samePoints) yield* changePoints(before.workspaceId, before.pointsKey, before, out.points);
  if ((out && samePoints) || into) {
    yield* changePoints(request.workspaceId, request.pointsKey, request, (p) => {
      if (out && samePoints) out.points(p);
      into?.points(p);
    });
  }
  for (const kind of ['card', 'set'] as const) {
    const same = before !== null && (kind === 'card' ? before.cardId === request.cardId : before.setKey === request.setKey);
    if (before && out && !same) yield* changeDemand(before.workspaceId, kind, before, out.demand);
    yield* changeDemand(request.workspaceId, kind, request, (d) => {
      if (out && same) out.demand(d);
      if (!before) addTo(d.created, request.createdAt.slice(0, 10), 1);
      if (archivedAt && before && before.status === 'open') addTo(d.missed, archivedAt.slice(0, 10), 1);
      into?.demand(d);
    });
  }
}
