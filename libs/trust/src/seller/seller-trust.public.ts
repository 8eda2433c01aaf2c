// The public events of seller trust: what each means, its `data` fields (snake_case) and how a
// stored event becomes that data. seller_id is the seller's slug (the workspace slug), as the
// credential routes name sellers.
import { eventField as f, type PublicEventType } from '@app/platform';

import { scoreUpdated } from './seller-trust.events';

export const TRUST_PUBLIC_EVENTS: readonly PublicEventType[] = [
  {
    type: 'trust.score_updated',
    description: 'A seller\'s trust score (or tier) changed; a fresh credential carrying it was issued.',
    data: {
      seller_id: f('string', 'The seller (workspace slug).'),
      score: f('number|null', 'The new score, 0..100; null for a new seller (too little history for a number).'),
      previous_score: f('number|null', 'The score before; null when there was none.'),
      tier: f('string', '`new_seller`, `developing`, `established`, `trusted` or `top_rated`.'),
      credential_id: f('string', 'The credential now current (`urn:uuid:…`).'),
    },
    toData(event) {
      const d = scoreUpdated.parse(event.data);
      return { seller_id: d.sellerSlug, score: d.score, previous_score: d.previousScore, tier: d.tier, credential_id: d.credentialId };
    },
  },
];
