// The lot aggregate as the write path runs it.
import { lotDecider } from './lot.decider';
import { parseLotEvent } from './lot.events';

export const lotAggregate = { decider: lotDecider, parseEvent: parseLotEvent };
