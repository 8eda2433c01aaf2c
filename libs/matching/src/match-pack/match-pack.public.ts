// The public event of match runs: match.completed, the stored pack in short.
import { eventField as f, type PublicEventType } from '@app/platform';

import { parseMatchCompleted } from './match-pack.events';

export const MATCH_PACK_PUBLIC_EVENTS: readonly PublicEventType[] = [
  {
    type: 'match.completed',
    description: 'A match engine run completed and stored a match pack.',
    data: {
      match_pack_id: f('string', 'Match pack id (`mp_…`).'),
      buyer_request_id: f('string', 'Buyer request id (`br_…`).'),
      full_count: f('integer', 'Full matches in the pack.'),
      near_miss_count: f('integer', 'Near misses in the pack.'),
      match_ids: f('array', 'Every match of the pack (`mt_…`), best first.'),
    },
    toData(event) {
      const d = parseMatchCompleted(event);
      return {
        match_pack_id: d.matchPackId,
        buyer_request_id: d.buyerRequestId,
        full_count: d.fullCount,
        near_miss_count: d.nearMissCount,
        match_ids: d.matches.map((m) => m.matchId),
      };
    },
  },
];
