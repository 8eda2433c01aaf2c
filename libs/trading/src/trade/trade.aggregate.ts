// The trade aggregate as the write path runs it (trade handlers, offers and holds open trades).
import { tradeDecider } from './trade.decider';
import { parseTradeEvent } from './trade.events';

export const tradeAggregate = { decider: tradeDecider, parseEvent: parseTradeEvent };
