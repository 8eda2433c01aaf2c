// The match vocabulary, shared by demand (which records matches on buyer requests) and matching
// (which finds and scores them, and stores match packs): what a match is, how its score is
// explained, and how many a request keeps. Data only: zod schemas, types and constants.
import { z } from 'zod';

export const MATCH_KINDS = ['full', 'near_miss'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export const MATCH_FACTOR_NAMES = ['name_similarity', 'set', 'condition_margin', 'price_headroom', 'near_miss_penalty'] as const;
export type MatchFactorName = (typeof MATCH_FACTOR_NAMES)[number];

/** One factor of a match score, as stored in events. */
export const matchFactor = z.object({
  name: z.enum(MATCH_FACTOR_NAMES),
  /** The factor's own value in 0..1 (the penalty: the share taken off). */
  value: z.number(),
  weight: z.number(),
  /** What it adds to the score (negative for the near-miss penalty); contributions sum to the score. */
  contribution: z.number(),
});
export type MatchFactor = z.infer<typeof matchFactor>;

/** One factor of a match score, as the API answers it (every match and match pack response). */
export const matchFactorResponse = z
  .strictObject({
    name: z.enum(MATCH_FACTOR_NAMES),
    value: z.number().meta({ description: 'The factor on its own, 0..1.' }),
    weight: z.number(),
    contribution: z.number().meta({ description: 'Its share of the score; the contributions sum to the score.' }),
  })
  .meta({ id: 'MatchFactor' });

/** A request keeps at most this many full matches (and as many near misses): the best found first. */
export const MAX_MATCHES_PER_KIND = 100;

/** An inventory item judged against a buyer request: how well it meets it, and why. */
export interface MatchCandidate {
  inventoryItemId: string;
  kind: MatchKind;
  score: number;
  factors: MatchFactor[];
  reasons: string[];
}

/** A candidate with the match id it is recorded under (a known pair keeps its id). */
export interface FoundMatch extends MatchCandidate {
  matchId: string;
}
