// Stored contract of match packs: one `match.completed` per match run (public), the pack's whole
// content, so the pack is readable from the log alone.
import { z } from 'zod';

import { MATCH_KINDS, matchFactor } from '@app/contracts';
import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const packedMatch = z.object({
  matchId: z.string(),
  inventoryItemId: z.string(),
  kind: z.enum(MATCH_KINDS),
  score: z.number(),
  factors: z.array(matchFactor),
  reasons: z.array(z.string()),
});
export type PackedMatch = z.infer<typeof packedMatch>;

export const matchCompleted = z.object({
  matchPackId: z.string(),
  buyerRequestId: z.string(),
  matches: z.array(packedMatch),
  fullCount: z.number().int(),
  nearMissCount: z.number().int(),
  createdAt: z.string(),
});
export type MatchCompleted = z.infer<typeof matchCompleted>;

export type MatchPackEvent = { type: 'match.completed'; data: MatchCompleted };

export const parseMatchPackEvent = parseOnce((event: RecordedEvent): MatchPackEvent => {
  return { type: 'match.completed', data: parseMatchCompleted(event) };
});

export function parseMatchCompleted(event: RecordedEvent): MatchCompleted {
  if (event.type !== 'match.completed') throw new Error(`Not a match pack event: ${event.type}`);
  return matchCompleted.parse(event.data);
}

export const matchPackStream = (id: string) => `match_pack-${id}`;
