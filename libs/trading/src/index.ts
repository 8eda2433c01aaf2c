// @app/trading — the trading context's contract: offers, trades and holds. Everything else in this
// library is its own business.

export { TradingModule } from './trading.module';

// The commands trading accepts from automations (answer, make offers, place holds), and the offer
// query they read the offer they act on with.
export { AnswerOfferCommand, MakeOfferCommand } from './offer/offer.handlers';
export { GetOfferQuery } from './offer/offer.queries';
export { PlaceHoldCommand } from './hold/hold.handlers';

// Public events (webhooks): catalogue entries and their data.
export { HOLD_PUBLIC_EVENTS } from './hold/hold.public';
export { OFFER_PUBLIC_EVENTS } from './offer/offer.public';
export { TRADE_PUBLIC_EVENTS } from './trade/trade.public';
