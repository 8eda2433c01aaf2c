// @app/trading — the trading context's contract: offers, trades and holds. Everything else in this
// library is its own business.

export { TradingModule } from './trading.module';
