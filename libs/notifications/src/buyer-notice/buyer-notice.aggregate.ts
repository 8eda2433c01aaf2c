// The buyer notice aggregate as the write path runs it.
import { buyerNoticeDecider } from './buyer-notice.decider';
import { parseBuyerNoticeEvent } from './buyer-notice.events';

export const buyerNoticeAggregate = { decider: buyerNoticeDecider, parseEvent: parseBuyerNoticeEvent };
