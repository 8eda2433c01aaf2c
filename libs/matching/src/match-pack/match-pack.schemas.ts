// Request and response schemas of /api/v1/match-runs and /api/v1/match-packs (they validate and
// they document), with an example, and the mapper from the read model to the answer.
import { z } from 'zod';

import { matchFactorResponse } from '@app/contracts';
import { listResponseSchema, paginationQuery } from '@app/platform';

import type { MatchPackDoc } from './match-pack.projection';

const buyerRequestId = z.string().min(1).max(64).meta({ description: 'Buyer request id (`br_…`).', examples: ['br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] });

export const runMatchBody = z.strictObject({ buyerRequestId }).meta({ id: 'MatchRunInput' });

export const matchPackIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Match pack id (`mp_…`).', examples: ['mp_01K8Z3Q4V5W6X7Y8Z9A0B1C2D6'] }),
});

export const listMatchPacksQuery = paginationQuery.extend({
  buyerRequestId: buyerRequestId.optional().meta({ description: 'Only the packs of this buyer request.' }),
});

export const packedMatchResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Match id (`mt_…`): the same pair keeps the same id across runs.' }),
    inventoryItemId: z.string(),
    kind: z.enum(['full', 'near_miss']).meta({ description: '`full` meets every criterion; `near_miss` is close and says why in `reasons`.' }),
    score: z.number().min(0).max(1).meta({ description: 'The sum of the factors\' contributions.' }),
    factors: z.array(matchFactorResponse),
    reasons: z.array(z.string()),
  })
  .meta({ id: 'PackedMatch' });

export const matchPackResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Match pack id (`mp_…`).' }),
    buyerRequestId: z.string(),
    matches: z.array(packedMatchResponse).meta({ description: 'Full matches first, then near misses; each best first.' }),
    fullCount: z.number().int(),
    nearMissCount: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'MatchPack' });

export type MatchPackResponse = z.output<typeof matchPackResponse>;

export const matchPackListResponse = listResponseSchema(matchPackResponse).meta({ id: 'MatchPackList' });

export const matchPackExample: MatchPackResponse = {
  id: 'mp_01K8Z3Q4V5W6X7Y8Z9A0B1C2D6',
  buyerRequestId: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  matches: [
    {
      id: 'mt_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4',
      inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5',
      kind: 'full',
      score: 0.94,
      factors: [
        { name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 },
        { name: 'set', value: 1, weight: 0.2, contribution: 0.2 },
        { name: 'condition_margin', value: 0.8, weight: 0.2, contribution: 0.16 },
        { name: 'price_headroom', value: 0.9, weight: 0.2, contribution: 0.18 },
      ],
      reasons: ['same card', 'same set (Base)', 'Near Mint meets the requested Near Mint', 'price 400.00 USD is 11 % under the 450.00 USD maximum'],
    },
    {
      id: 'mt_01K8Z3Q4V5W6X7Y8Z9A0B1C2D7',
      inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D8',
      kind: 'near_miss',
      score: 0.704,
      factors: [
        { name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 },
        { name: 'set', value: 1, weight: 0.2, contribution: 0.2 },
        { name: 'condition_margin', value: 0.4, weight: 0.2, contribution: 0.08 },
        { name: 'price_headroom', value: 1, weight: 0.2, contribution: 0.2 },
        { name: 'near_miss_penalty', value: 0.2, weight: 1, contribution: -0.176 },
      ],
      reasons: ['same card', 'same set (Base)', 'near miss: Lightly Played is 1 step below the requested Near Mint', 'price 200.00 USD is 56 % under the 450.00 USD maximum'],
    },
  ],
  fullCount: 1,
  nearMissCount: 1,
  createdAt: '2025-11-22T15:04:05.000Z',
};

export function toMatchPackResponse(doc: MatchPackDoc): MatchPackResponse {
  return {
    id: doc.id,
    buyerRequestId: doc.buyerRequestId,
    matches: doc.matches.map(({ matchId, inventoryItemId, kind, score, factors, reasons }) => ({
      id: matchId,
      inventoryItemId,
      kind,
      score,
      factors,
      reasons,
    })),
    fullCount: doc.fullCount,
    nearMissCount: doc.nearMissCount,
    createdAt: doc.createdAt,
  };
}
