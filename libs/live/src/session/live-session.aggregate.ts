// The live session aggregate as the write path runs it.
import { liveSessionDecider } from './live-session.decider';
import { parseLiveSessionEvent } from './live-session.events';

export const liveSessionAggregate = { decider: liveSessionDecider, parseEvent: parseLiveSessionEvent };
