// The buyer request aggregate as the write path runs it (its handlers and the recording of matches write it).
import { buyerRequestDecider } from './buyer-request.decider';
import { parseBuyerRequestEvent } from './buyer-request.parse';

export const buyerRequestAggregate = { decider: buyerRequestDecider, parseEvent: parseBuyerRequestEvent };
