// @app/trading — the trading context's contract: offers, trades and holds. Everything else in this
// library is its own business.

export { TradingModule } from './trading.module';

// What live selling asks of trading inside its own write transaction: a winner's hold or trade on
// the units its lot held. `itemFor` is the item as this transaction loaded it (once), so the
// caller releases the lot's reservation on the same stream the hold or trade then reserves on.
export { type HoldTerms, placeHold } from './hold/hold.handlers';
export { itemFor, openTrade, type TradeTerms } from './trade/trade.open';
export { tradingBuyerContext } from './trading.reads';

// The commands trading accepts from automations (answer, make offers, place holds), and the offer
// query they read the offer they act on with.
export { AnswerOfferCommand, MakeOfferCommand } from './offer/offer.handlers';
export { GetOfferQuery } from './offer/offer.queries';
export { PlaceHoldCommand } from './hold/hold.handlers';

// The command the CLI's demo seed sends to move a trade along its statuses (as the transitions route).
export { MoveTradeCommand } from './trade/trade.handlers';

// The trade events as stored (their contract), for contexts that build their own read models of
// trades — seller trust scores completed, cancelled and disputed trades.
export { type CancelParty, parseTradeEvent, TRADE_EVENT_TYPES, type TradeEvent } from './trade/trade.events';

// Public events (webhooks): catalogue entries and their data.
export { HOLD_PUBLIC_EVENTS } from './hold/hold.public';
export { OFFER_PUBLIC_EVENTS } from './offer/offer.public';
export { TRADE_PUBLIC_EVENTS } from './trade/trade.public';
