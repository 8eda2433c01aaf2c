// HTTP: /api/v1/tradegraph — market intelligence on the workspace's own data, read from
// projections of the log. Each route needs the read scope of every kind of data it summarizes.
import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, RequireScope } from '@app/platform';

import { TradegraphPricingQuery } from './pricing/pricing.queries';
import { TradegraphRoutingQuery } from './routing/routing.queries';
import { TradegraphSummaryQuery } from './summary/summary.queries';
import { TradegraphSupplyQuery } from './supply/supply.queries';
import { TradegraphFreshness } from './tradegraph.freshness';
import {
  pricingQuery,
  pricingResponse,
  type PricingResponse,
  routingQuery,
  routingResponse,
  type RoutingResponse,
  summaryQuery,
  summaryResponse,
  type SummaryResponse,
  supplyQuery,
  supplyResponse,
  type SupplyResponse,
} from './tradegraph.schemas';

const TAGS = ['Tradegraph'];

@Controller('api/v1/tradegraph')
export class TradegraphController {
  constructor(
    private readonly queries: QueryBus,
    private readonly freshness: TradegraphFreshness,
  ) {}

  @Get('routing')
  @RequireScope('read:inventory', 'read:requests', 'read:trades')
  @ApiOperation({
    operationId: 'getTradegraphRouting',
    summary: 'Routing: the best execution actions for each available item, by expected value',
    description:
      'For a page of available items (the longest listed first) or one (`inventoryItemId`): the ways to execute it, ranked by expected value = ' +
      'probability × price × (1 − 0.2 %)^delayDays — `sell_to_request` (a waiting buyer whose maximum reaches the listed price; at up to the ' +
      'band\'s median: p 0.85, 1 day), `send_offer` (a buyer under the listed price but within the band: at their maximum, p 0.6, 2 days), ' +
      '`reprice_to_band` (priced outside the middle half of its band: at the median, p the card\'s sell-through ≥ 0.25, half the window), ' +
      '`hold_for_live` (2+ open requests: at the band\'s p75, p 0.5, 7 days), `bundle` (under 10.00, no demand: p 0.4, 14 days) and `wait` ' +
      '(as listed: p the sell-through ≥ 0.1, the window). Each with a confidence (n ÷ (n + 5) band points, lower with thin data), its factors ' +
      'and a sentence. Needs read:inventory, read:requests and read:trades.',
    tags: TAGS,
    query: routingQuery,
    errors: ['NOT_FOUND'],
    responses: {
      200: {
        description: 'The items with their actions',
        schema: routingResponse,
        example: {
          windowDays: 30,
          window: { from: '2026-10-26T12:00:00.000Z', to: '2026-11-25T12:00:00.000Z' },
          computedAt: '2026-11-25T12:00:00.000Z',
          tookMs: 1.2,
          items: [
            {
              inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
              itemName: 'Charizard (Base, Near Mint)',
              price: 425,
              currency: 'USD',
              availableUnits: 1,
              band: { p25: 412.5, median: 425, p75: 435, count: 12 },
              actions: [
                {
                  action: 'sell_to_request',
                  price: 425,
                  probability: 0.85,
                  delayDays: 1,
                  expectedValue: 360.53,
                  confidence: 0.71,
                  buyerRequestId: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4',
                  factors: [{ name: 'price', value: 425, weight: 0.85, contribution: 361.25 }],
                  reasons: 'a waiting buyer pays up to 460.00: sell at 425.00',
                },
              ],
            },
          ],
          nextCursor: null,
        },
      },
    },
  })
  async routing(@Auth() auth: AuthContext, @Query() query: z.output<typeof routingQuery>): Promise<RoutingResponse> {
    await this.freshness.settle();
    return this.queries.execute(new TradegraphRoutingQuery(auth.workspaceId, query));
  }

  @Get('supply')
  @RequireScope('read:inventory', 'read:requests', 'read:trades')
  @ApiOperation({
    operationId: 'getTradegraphSupply',
    summary: 'Supply: freshness, stale capital, saturation and sell-through',
    description:
      'For the workspace: available units and their value, freshness (the age of available units since listing, weighted by units, and by ' +
      'bucket), stale capital (units listed longer than `staleDays` and their value), units listed and sold in the window, and sell-through ' +
      '(sold ÷ (sold + available)). Per card, the most available units first: saturation (available units ÷ open requests: `saturated` above 2, ' +
      '`balanced` from 0.5, `undersupplied` below, `no_demand` without requests), median age, stale capital, units sold and sell-through, with ' +
      'factors and a sentence. Needs read:inventory, read:requests (saturation) and read:trades (sell-through).',
    tags: TAGS,
    query: supplyQuery,
    responses: {
      200: {
        description: 'The workspace\'s supply and a page of its cards',
        schema: supplyResponse,
        example: {
          windowDays: 30,
          window: { from: '2026-10-26T12:00:00.000Z', to: '2026-11-25T12:00:00.000Z' },
          computedAt: '2026-11-25T12:00:00.000Z',
          tookMs: 0.8,
          staleDays: 30,
          workspace: {
            availableUnits: 120,
            stockValue: 18_450.5,
            freshness: {
              ages: { p10: 1, p25: 4, median: 12, p75: 35, p90: 70, min: 0, max: 120, count: 40, weight: 120 },
              buckets: [
                { label: '0-7 days', units: 45 },
                { label: '8-30 days', units: 40 },
                { label: '31-90 days', units: 30 },
                { label: 'over 90 days', units: 5 },
              ],
            },
            staleCapital: { value: 6_210, units: 35 },
            soldUnits: 28,
            listedUnits: 64,
            sellThrough: 0.1892,
          },
          cards: [
            {
              name: 'Charizard (Base)',
              card: 'Charizard',
              set: 'Base',
              availableUnits: 6,
              openRequests: 2,
              saturation: { ratio: 3, label: 'saturated' },
              medianAgeDays: 21.5,
              staleCapital: { value: 840, units: 2 },
              soldUnits: 3,
              sellThrough: 0.3333,
              factors: [
                { name: 'available_units', value: 6, weight: 1, contribution: 6 },
                { name: 'open_requests', value: 2, weight: 1, contribution: 2 },
              ],
              reasons: '6 units available for 2 open requests (saturated: 3 units per open request); 3 sold in 30 days (sell-through 33.3 %); 2 listed over 30 days, worth 840.00',
            },
          ],
          nextCursor: null,
        },
      },
    },
  })
  async supply(@Auth() auth: AuthContext, @Query() query: z.output<typeof supplyQuery>): Promise<SupplyResponse> {
    await this.freshness.settle();
    return this.queries.execute(new TradegraphSupplyQuery(auth.workspaceId, query));
  }

  @Get('summary')
  @RequireScope('read:requests', 'read:inventory')
  @ApiOperation({
    operationId: 'getTradegraphSummary',
    summary: 'Demand: clusters of buyer requests, their velocity, trend and missed demand',
    description:
      'Clusters of the workspace\'s buyer requests by card (or `groupBy=set`), the most open requests first: open and unmatched counts, the ' +
      'distribution of their maximum prices, velocity (requests created per day in the window) against the previous window of the same length, ' +
      'and missed demand — archived in the window without a match, open and unmatched for over 14 days, and (cards) open with a maximum price ' +
      'under every available listing. `heat` = open + 7 × velocity + ½ × missed, with its factors and a sentence. Needs read:requests and ' +
      'read:inventory (the listings missed demand is judged against).',
    tags: TAGS,
    query: summaryQuery,
    responses: {
      200: {
        description: 'A page of demand clusters',
        schema: summaryResponse,
        example: {
          windowDays: 30,
          window: { from: '2026-10-26T12:00:00.000Z', to: '2026-11-25T12:00:00.000Z' },
          computedAt: '2026-11-25T12:00:00.000Z',
          tookMs: 0.9,
          groupBy: 'card',
          clusters: [
            {
              name: 'Charizard (Base)',
              card: 'Charizard',
              set: 'Base',
              open: 5,
              unmatched: 3,
              requestedPrices: { p10: 352, p25: 380, median: 410, p75: 450, p90: 470, min: 340, max: 480, count: 5, weight: 5 },
              created: 6,
              velocity: 0.2,
              previousVelocity: 0.13,
              trend: { change: 0.5385, direction: 'up' },
              missed: { archivedUnmatched: 1, aged: 1, underEveryListing: 2, total: 4 },
              heat: 8.4,
              factors: [
                { name: 'open_requests', value: 5, weight: 1, contribution: 5 },
                { name: 'velocity_per_day', value: 0.2, weight: 7, contribution: 1.4 },
                { name: 'missed_demand', value: 4, weight: 0.5, contribution: 2 },
              ],
              reasons: '5 open requests (3 unmatched), 0.2 new a day (up 54 % on the previous window), 4 missed: 1 archived unmatched, 1 unmatched for over 14 days, 2 priced under every listing',
            },
          ],
          nextCursor: null,
        },
      },
    },
  })
  async summary(@Auth() auth: AuthContext, @Query() query: z.output<typeof summaryQuery>): Promise<SummaryResponse> {
    await this.freshness.settle();
    return this.queries.execute(new TradegraphSummaryQuery(auth.workspaceId, query));
  }

  @Get('pricing')
  @RequireScope('read:trades', 'read:inventory', 'read:requests')
  @ApiOperation({
    operationId: 'getTradegraphPricing',
    summary: 'Price bands, their dispersion, and listings priced outside them',
    description:
      'Per card, condition and currency: a band (p10, p25, median, p75, p90, with the count behind it) from the completed sales in the window ' +
      '(each unit weighted 1), the available listings (0.5 each) and the open buyers\' maximum prices (0.25 each); its dispersion (spread = ' +
      '(p75 − p25) ÷ median, reliability = n ÷ (n + 5), score = reliability × (1 − min(1, spread))); and each available listing priced outside the band ' +
      'of every other point of its card (with at least 3): `above` its p90 (severity `high` at ≥ 2×, `medium` at ≥ 1.4×, else `low`) or ' +
      '`below` its p10 (`high` at ≤ 0.5×, `medium` at ≤ 0.7×, else `low`). Filters: card, set, condition, in any spelling the catalogue knows. ' +
      'Needs read:trades (sales), read:inventory (listings) and read:requests (buyers).',
    tags: TAGS,
    query: pricingQuery,
    responses: {
      200: {
        description: 'A page of cards with their bands, and their anomalies',
        schema: pricingResponse,
        example: {
          windowDays: 30,
          window: { from: '2026-10-26T12:00:00.000Z', to: '2026-11-25T12:00:00.000Z' },
          computedAt: '2026-11-25T12:00:00.000Z',
          tookMs: 1.4,
          cards: [
            {
              card: 'Charizard',
              set: 'Base',
              condition: 'Near Mint',
              currency: 'USD',
              band: { p10: 385, p25: 402.5, median: 420, p75: 440, p90: 455, min: 380, max: 2100, count: 14, weight: 9.25 },
              sources: { sales: 6, listings: 5, buyers: 3 },
              dispersion: {
                spread: 0.0893,
                reliability: 0.7368,
                score: 0.671,
                label: 'tight',
                factors: [{ name: 'reliability', value: 0.7368, weight: 1, contribution: 0.7368 }],
                reasons: '14 prices, the middle half within 9 % of the median: a tight band',
              },
              anomalyCount: 1,
            },
          ],
          anomalies: [
            {
              itemName: 'Charizard (Base, Near Mint)',
              itemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
              direction: 'above',
              severity: 'high',
              price: 2100,
              currency: 'USD',
              ratio: 4.7727,
              band: { p10: 382, p25: 400, median: 418, p75: 436, p90: 440, min: 380, max: 460, count: 13, weight: 8.75 },
              factors: [{ name: 'ratio_to_p90', value: 4.7727, weight: 1, contribution: 4.7727 }],
              reasons: 'listed at 2100.00, 4.8× the band\'s p90 of 440.00 (13 prices): far above',
            },
          ],
          nextCursor: null,
        },
      },
    },
  })
  async pricing(@Auth() auth: AuthContext, @Query() query: z.output<typeof pricingQuery>): Promise<PricingResponse> {
    await this.freshness.settle();
    return this.queries.execute(new TradegraphPricingQuery(auth.workspaceId, query));
  }
}
