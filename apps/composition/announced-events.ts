// Public events the spec declares for contexts not built yet (seller trust). They
// are catalogued so webhooks can subscribe to them today; nothing emits them, so no data mapper.
// Each entry moves into its context's own `*.public.ts` when that context is built.
import { eventField as f, type PublicEventType } from '@app/platform';

/** Seller trust (issue 15). */
export const ANNOUNCED_TRUST_EVENTS: readonly PublicEventType[] = [
  {
    type: 'trust.score_updated',
    description: 'A seller\'s trust score changed.',
    data: {
      seller_id: f('string', 'The seller (workspace slug).'),
      score: f('number', 'The new score, 0..100.'),
      previous_score: f('number', 'The score before.'),
    },
  },
];
