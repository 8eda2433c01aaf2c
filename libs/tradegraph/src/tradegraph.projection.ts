// Tradegraph's read models: incremental views of the log that keep, per workspace, what the
// market-intelligence routes read — never the log, never every document of a workspace per
// request. Each view declares the collections it owns and its queries read them:
// - supply/supply.views.ts: tg_items, each inventory item as priced and available;
// - summary/summary.views.ts: tg_requests, each buyer request's card, price and state; tg_demand
//   (+ tg_demand_counts), per card, set and workspace, demand and stock by price and by day;
// - pricing/pricing.views.ts: tg_trades, each trade's card and unit price; tg_price_points
//   (+ tg_price_counts), per card, condition and currency, sales, asks and bids by price.
// One projection, so its collections apply in log order together: the aggregates (points, demand)
// change through the transitions of the per-stream documents (items, requests, trades), which an
// event's step reads before it writes; a projection of their own would each need those documents
// again. Its evolve is pure: the steps yield their reads and writes (view.get/put/delete), the
// runner performs them.
import { viewProjection } from '@app/platform';

import { evolveTrade } from './pricing/pricing.evolve';
import { TG_COUNTS, TG_POINTS, TG_TRADES } from './pricing/pricing.views';
import { evolveRequest } from './summary/summary.evolve';
import { TG_DEMAND, TG_DEMAND_COUNTS, TG_REQUESTS } from './summary/summary.views';
import { evolveItem } from './supply/supply.evolve';
import { TG_ITEMS } from './supply/supply.views';

const TYPES = [
  'inventory.created',
  'inventory.updated',
  'inventory.deleted',
  'inventory.reserved',
  'inventory.released',
  'inventory.sold',
  'buyer_request.created',
  'buyer_request.updated',
  'buyer_request.archived',
  // The matches a write records (one event); an old log's buyer_request.matched reads as it.
  'buyer_request.matches_recorded',
  'buyer_request.matched',
  'trade.initiated',
  'trade.status_changed',
];

export const tradegraphProjection = viewProjection({
  name: 'tradegraph',
  version: 10,
  // Analytics: writes do not wait for it; its readers do (TradegraphFreshness).
  consistency: 'eventual',
  collections: [TG_ITEMS, TG_REQUESTS, TG_TRADES, TG_POINTS, TG_COUNTS, TG_DEMAND, TG_DEMAND_COUNTS],
  eventTypes: TYPES,
  *evolve(event) {
    if (event.type.startsWith('inventory.')) return yield* evolveItem(event);
    if (event.type.startsWith('buyer_request.')) return yield* evolveRequest(event);
    return yield* evolveTrade(event);
  },
});
