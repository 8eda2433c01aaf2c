// The hold aggregate as the write path runs it (hold handlers, the expiry timer, the reconciler).
import { holdDecider } from './hold.decider';
import { parseHoldEvent } from './hold.events';

export const holdAggregate = { decider: holdDecider, parseEvent: parseHoldEvent };
