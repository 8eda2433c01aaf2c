// Request and response schemas of the tradegraph routes: they validate the queries and document
// every field of the answers.
import { z } from 'zod';

const windowDays = z.coerce
  .number()
  .int()
  .min(1)
  .max(365)
  .default(30)
  .meta({ description: 'The window, in days up to now (1–365, default 30).' });
const text = (description: string) => z.string().trim().min(1).max(200).optional().meta({ description });

export const pricingQuery = z.object({
  windowDays,
  card: text('Only this card (any spelling the catalogue knows, e.g. "charizard").'),
  set: text('Only this set (name or code, e.g. "BS").'),
  condition: text('Only this condition (e.g. "NM", "PSA 10").'),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Cards per page, 1 to 100 (default 20, as every list).' }),
  cursor: z.string().min(1).max(512).optional().meta({ description: 'The `nextCursor` of the previous page.' }),
});

const factor = z
  .strictObject({ name: z.string(), value: z.number(), weight: z.number(), contribution: z.number().meta({ description: 'value × weight.' }) })
  .meta({ id: 'TradegraphFactor' });

const windowInfo = {
  windowDays: z.number().int(),
  window: z.strictObject({ from: z.string(), to: z.string() }).meta({ description: 'The window\'s instants (ISO 8601), up to the service clock\'s now.' }),
  computedAt: z.string(),
  tookMs: z.number().meta({ description: 'How long the answer took to compute, in milliseconds.' }),
};

const bandSchema = z
  .strictObject({
    p10: z.number(),
    p25: z.number(),
    median: z.number(),
    p75: z.number(),
    p90: z.number(),
    min: z.number(),
    max: z.number(),
    count: z.number().int().meta({ description: 'Price points behind the band.' }),
    weight: z.number().meta({ description: 'Their total weight (a sold unit 1, a listing 0.5, a buyer 0.25).' }),
  })
  .meta({ id: 'PriceBand' });

export const cardPricing = z
  .strictObject({
    card: z.string(),
    set: z.string(),
    condition: z.string(),
    currency: z.string(),
    band: bandSchema.nullable().meta({ description: 'Null when the card has no price point in the window.' }),
    sources: z.strictObject({
      sales: z.number().int().meta({ description: 'Completed sales in the window.' }),
      listings: z.number().int().meta({ description: 'Available listings now.' }),
      buyers: z.number().int().meta({ description: 'Open buyer requests now (their maximum prices).' }),
    }),
    dispersion: z
      .strictObject({
        spread: z.number().meta({ description: '(p75 − p25) ÷ median.' }),
        reliability: z.number().meta({ description: 'n ÷ (n + 5): thin data is unreliable.' }),
        score: z.number().meta({ description: '0–1: how far one can price by this band.' }),
        label: z.enum(['tight', 'moderate', 'wide', 'thin']),
        factors: z.array(factor),
        reasons: z.string(),
      })
      .nullable(),
    anomalyCount: z.number().int(),
  })
  .meta({ id: 'CardPricing' });

export const pricingAnomaly = z
  .strictObject({
    itemName: z.string().meta({ description: 'Card, set and condition, as listed.' }),
    itemId: z.string(),
    direction: z.enum(['above', 'below']),
    severity: z.enum(['low', 'medium', 'high']),
    price: z.number(),
    currency: z.string(),
    ratio: z.number().meta({ description: 'price ÷ the band edge it crossed (p90 above, p10 below).' }),
    band: bandSchema.meta({ description: 'The band the listing was judged against: every other point of its card.' }),
    factors: z.array(factor),
    reasons: z.string(),
  })
  .meta({ id: 'PricingAnomaly' });

export const pricingResponse = z
  .strictObject({
    ...windowInfo,
    cards: z.array(cardPricing).meta({ description: 'One band per card, condition and currency, by card name.' }),
    anomalies: z.array(pricingAnomaly).meta({ description: 'Listed items of these cards priced outside their band, the most severe first.' }),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'TradegraphPricing' });
export type PricingResponse = z.output<typeof pricingResponse>;

export const summaryQuery = z.object({
  windowDays,
  groupBy: z.enum(['card', 'set']).default('card').meta({ description: 'Clusters of buyer requests by card (default) or by set.' }),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Clusters per page, 1 to 100 (default 20, as every list).' }),
  cursor: z.string().min(1).max(512).optional().meta({ description: 'The `nextCursor` of the previous page.' }),
});

const priceDistribution = z
  .strictObject({ p10: z.number(), p25: z.number(), median: z.number(), p75: z.number(), p90: z.number(), min: z.number(), max: z.number(), count: z.number().int(), weight: z.number() })
  .meta({ id: 'RequestedPrices', description: 'The open requests\' maximum prices.' });

export const demandClusterSchema = z
  .strictObject({
    name: z.string().meta({ description: '`Card (Set)`, or the set\'s name.' }),
    card: z.string().nullable(),
    set: z.string(),
    open: z.number().int().meta({ description: 'Open requests (not archived).' }),
    unmatched: z.number().int().meta({ description: 'Open requests no listing has matched.' }),
    requestedPrices: priceDistribution.nullable(),
    created: z.number().int().meta({ description: 'Requests created in the window.' }),
    velocity: z.number().meta({ description: 'Requests created per day in the window.' }),
    previousVelocity: z.number().meta({ description: 'The same over the previous window of the same length.' }),
    trend: z.strictObject({ change: z.number().nullable(), direction: z.enum(['up', 'down', 'flat', 'new']) }),
    missed: z
      .strictObject({
        archivedUnmatched: z.number().int().meta({ description: 'Archived in the window without ever matching.' }),
        aged: z.number().int().meta({ description: 'Open and unmatched for over 14 days.' }),
        underEveryListing: z.number().int().nullable().meta({ description: 'Open, unmatched, with a maximum price under every available listing of the card (card clusters; null for sets).' }),
        total: z.number().int(),
      })
      .meta({ description: 'Missed demand.' }),
    heat: z.number().meta({ description: 'open + 7 × velocity + ½ × missed: how much this cluster asks for attention.' }),
    factors: z.array(factor),
    reasons: z.string(),
  })
  .meta({ id: 'DemandCluster' });

export const summaryResponse = z
  .strictObject({
    ...windowInfo,
    groupBy: z.enum(['card', 'set']),
    clusters: z.array(demandClusterSchema).meta({ description: 'The clusters with the most open requests first.' }),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'TradegraphSummary' });
export type SummaryResponse = z.output<typeof summaryResponse>;

export const supplyQuery = z.object({
  windowDays,
  staleDays: z.coerce.number().int().min(1).max(365).default(30).meta({ description: 'Units listed longer than this are stale capital (1–365, default 30).' }),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Cards per page, 1 to 100 (default 20, as every list).' }),
  cursor: z.string().min(1).max(512).optional().meta({ description: 'The `nextCursor` of the previous page.' }),
});

const ages = z
  .strictObject({ p10: z.number(), p25: z.number(), median: z.number(), p75: z.number(), p90: z.number(), min: z.number(), max: z.number(), count: z.number().int(), weight: z.number() })
  .meta({ id: 'ListingAges', description: 'Days since listing, weighted by units.' });

export const supplyResponse = z
  .strictObject({
    ...windowInfo,
    staleDays: z.number().int(),
    workspace: z
      .strictObject({
        availableUnits: z.number().int(),
        stockValue: z.number().meta({ description: 'Price × units of everything available.' }),
        freshness: z.strictObject({
          ages: ages.nullable(),
          buckets: z.array(z.strictObject({ label: z.string(), units: z.number().int() })).meta({ description: 'Available units by age: 0-7, 8-30, 31-90, over 90 days.' }),
        }),
        staleCapital: z.strictObject({ value: z.number(), units: z.number().int() }).meta({ description: 'Units listed longer than staleDays, and their value.' }),
        soldUnits: z.number().int().meta({ description: 'Units sold (trades completed) in the window.' }),
        listedUnits: z.number().int().meta({ description: 'Units listed (items created) in the window.' }),
        sellThrough: z.number().nullable().meta({ description: 'soldUnits ÷ (soldUnits + availableUnits); null with neither.' }),
      })
      .meta({ id: 'WorkspaceSupply' }),
    cards: z
      .array(
        z
          .strictObject({
            name: z.string(),
            card: z.string(),
            set: z.string(),
            availableUnits: z.number().int(),
            openRequests: z.number().int(),
            saturation: z.strictObject({
              ratio: z.number().nullable().meta({ description: 'Available units ÷ open requests; null without requests.' }),
              label: z.enum(['no_demand', 'saturated', 'balanced', 'undersupplied', 'no_stock']),
            }),
            medianAgeDays: z.number().nullable(),
            staleCapital: z.strictObject({ value: z.number(), units: z.number().int() }),
            soldUnits: z.number().int(),
            sellThrough: z.number().nullable(),
            factors: z.array(factor),
            reasons: z.string(),
          })
          .meta({ id: 'CardSupply' }),
      )
      .meta({ description: 'The cards with the most available units first.' }),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'TradegraphSupply' });
export type SupplyResponse = z.output<typeof supplyResponse>;

export const routingQuery = z.object({
  windowDays,
  inventoryItemId: z.string().trim().min(1).max(64).optional().meta({ description: 'Only this item (else a page of available items, longest listed first).' }),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Items per page, 1 to 100 (default 20).' }),
  cursor: z.string().min(1).max(512).optional().meta({ description: 'The `nextCursor` of the previous page.' }),
});

export const routingResponse = z
  .strictObject({
    ...windowInfo,
    items: z.array(
      z
        .strictObject({
          inventoryItemId: z.string(),
          itemName: z.string(),
          price: z.number(),
          currency: z.string(),
          availableUnits: z.number().int(),
          band: z.strictObject({ p25: z.number(), median: z.number(), p75: z.number(), count: z.number().int() }).nullable(),
          actions: z
            .array(
              z.strictObject({
                action: z.enum(['sell_to_request', 'send_offer', 'reprice_to_band', 'hold_for_live', 'bundle', 'wait']),
                price: z.number(),
                probability: z.number().meta({ description: 'How likely it happens, 0–1.' }),
                delayDays: z.number().meta({ description: 'How long until it does.' }),
                expectedValue: z.number().meta({ description: 'probability × price × (1 − 0.2 %)^delayDays.' }),
                confidence: z.number().meta({ description: '0–1: lower with thin data (n ÷ (n + 5) band points).' }),
                buyerRequestId: z.string().nullable(),
                factors: z.array(factor),
                reasons: z.string(),
              }),
            )
            .meta({ description: 'Ranked by expected value, best first.' }),
        })
        .meta({ id: 'RoutedItem' }),
    ),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'TradegraphRouting' });
export type RoutingResponse = z.output<typeof routingResponse>;
