// Public events the spec declares for contexts not built yet (live selling, trust). They
// are catalogued so webhooks can subscribe to them today; nothing emits them, so no data mapper.
// Each entry moves into its context's own `*.public.ts` when that context is built.
import { eventField as f, type PublicEventType } from '@app/platform';

const liveSessionFields = {
  live_session_id: f('string', 'Live selling session id (`ls_…`).'),
  status: f('string', 'The session\'s status after this event.'),
};

/** Live selling (issue 14) and seller trust (issue 15). */
export const ANNOUNCED_LIVE_AND_TRUST_EVENTS: readonly PublicEventType[] = [
  { type: 'live_session.started', description: 'A live selling session started.', data: liveSessionFields },
  { type: 'live_session.ended', description: 'A live selling session ended.', data: liveSessionFields },
  {
    type: 'reserve.placed',
    description: 'A reserve was placed on a live lot.',
    data: {
      reserve_id: f('string', 'Reserve id (`rsv_…`).'),
      live_session_id: liveSessionFields.live_session_id,
      lot_id: f('string', 'Lot id (`lot_…`).'),
      amount: f('number', 'A decimal with at most 2 places.'),
      currency: f('string', 'ISO 4217 code.'),
    },
  },
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
