// tradeGraph: the analytics reports — demand (summary), supply, pricing and routing. Each answer is
// a report with one page of its list (summary: `clusters`, supply and pricing: `cards`, routing:
// `items`) and a `nextCursor`, so each method returns a `ReportPromise`: awaited, the answer as it
// is (the first page, with its window, totals and timings); iterated with `for await`, every
// element of the list across all pages; `.pages()` for the answers page by page.
//
//   const summary = await api.tradeGraph.summary({ windowDays: 30 });
//   for await (const cluster of api.tradeGraph.summary({ windowDays: 30 })) console.log(cluster.name, cluster.heat);
//
// The tradegraph is eventual: its reads wait for the analytics lane on the server.
import type {
  CardPricing,
  CardSupply,
  DemandCluster,
  RoutedItem,
  TradegraphPricing,
  TradegraphPricingParams,
  TradegraphRouting,
  TradegraphRoutingParams,
  TradegraphSummary,
  TradegraphSummaryParams,
  TradegraphSupply,
  TradegraphSupplyParams,
} from '../types';
import { type ReportPromise, type RequestOptions, Resource } from './resource';

export class TradeGraph extends Resource {
  /** GET /tradegraph/summary: demand clusters (by card, or `groupBy: 'set'`), the most open requests first. */
  summary(query?: TradegraphSummaryParams, options?: RequestOptions): ReportPromise<DemandCluster, TradegraphSummary> {
    return this.reportRoute('/api/v1/tradegraph/summary', 'clusters', { query }, options);
  }

  /** GET /tradegraph/supply: the workspace's supply, and per card (the most available units first). */
  supply(query?: TradegraphSupplyParams, options?: RequestOptions): ReportPromise<CardSupply, TradegraphSupply> {
    return this.reportRoute('/api/v1/tradegraph/supply', 'cards', { query }, options);
  }

  /** GET /tradegraph/pricing: a price band per card, condition and currency; the page's `anomalies` are on the answer. */
  pricing(query?: TradegraphPricingParams, options?: RequestOptions): ReportPromise<CardPricing, TradegraphPricing> {
    return this.reportRoute('/api/v1/tradegraph/pricing', 'cards', { query }, options);
  }

  /** GET /tradegraph/routing: the best execution actions for each available item, by expected value. */
  routing(query?: TradegraphRoutingParams, options?: RequestOptions): ReportPromise<RoutedItem, TradegraphRouting> {
    return this.reportRoute('/api/v1/tradegraph/routing', 'items', { query }, options);
  }
}
