import { deciderSpec } from '@app/testing/support/decider-spec';

import { matchPackDecider } from './match-pack.decider';
import type { MatchCompleted } from './match-pack.events';

const spec = deciderSpec(matchPackDecider);
const pack: MatchCompleted = {
  matchPackId: 'mp_1',
  buyerRequestId: 'br_1',
  matches: [
    {
      matchId: 'mt_1',
      inventoryItemId: 'inv_1',
      kind: 'full',
      score: 0.9,
      factors: [{ name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 }],
      reasons: ['same card'],
    },
  ],
  fullCount: 1,
  nearMissCount: 0,
  createdAt: '2026-11-24T12:00:00.000Z',
};

describe('match pack decider', () => {
  it('stores a run once, as match.completed with the whole pack', () => {
    spec.given().when({ type: 'CompleteMatchRun', pack }).then([{ type: 'match.completed', data: pack }]);
  });

  it('refuses to write a pack twice', () => {
    spec
      .given([{ type: 'match.completed', data: pack }])
      .when({ type: 'CompleteMatchRun', pack })
      .thenThrows('CONFLICT', 'mp_1 already exists');
  });
});
