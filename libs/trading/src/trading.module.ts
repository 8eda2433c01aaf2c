// Trading: offers (negotiation), trades (the escrow-like lifecycle) and holds (a deposit and an
// expiry on reserved units). Units are reserved through supply's inventory contract; buyers are
// read through demand's reader, the requests and matches a write names checked on their streams
// through demand's contract; expiries and the dispute window are durable timers.
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { DemandModule } from '@app/demand';
import { APP_CONFIG, type AppConfig, DurableTimers, ProjectionRunner } from '@app/platform';
import { SupplyModule } from '@app/supply';

import { HOLD_COMMAND_HANDLERS } from './hold/hold.handlers';
import { HoldsController } from './hold/hold.http';
import { holdProjection } from './hold/hold.projection';
import { HOLD_QUERY_HANDLERS } from './hold/hold.queries';
import { OFFER_COMMAND_HANDLERS } from './offer/offer.handlers';
import { OffersController } from './offer/offer.http';
import { offerProjection } from './offer/offer.projection';
import { OFFER_QUERY_HANDLERS } from './offer/offer.queries';
import { ReservationReconciler, reservationSource } from './reservation-reconciler';
import { DemandReferences } from './trading.references';
import { TRADE_COMMAND_HANDLERS } from './trade/trade.handlers';
import { TradesController } from './trade/trade.http';
import { tradeProjection } from './trade/trade.projection';
import { TRADE_QUERY_HANDLERS } from './trade/trade.queries';
import {
  holdExpirySource,
  HoldExpiryHandler,
  offerExpirySource,
  OfferExpiryHandler,
  TIMER_HANDLERS,
  tradeCompletionSource,
  TradeCompletionHandler,
} from './trading.timers';

@Module({
  imports: [CqrsModule, DemandModule, SupplyModule],
  controllers: [OffersController, TradesController, HoldsController],
  providers: [
    ...OFFER_COMMAND_HANDLERS,
    ...OFFER_QUERY_HANDLERS,
    ...TRADE_COMMAND_HANDLERS,
    ...TRADE_QUERY_HANDLERS,
    ...HOLD_COMMAND_HANDLERS,
    ...HOLD_QUERY_HANDLERS,
    ...TIMER_HANDLERS,
    ReservationReconciler,
    DemandReferences,
  ],
})
export class TradingModule implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionRunner,
    private readonly timers: DurableTimers,
    private readonly reconciler: ReservationReconciler,
    private readonly offerExpiry: OfferExpiryHandler,
    private readonly holdExpiry: HoldExpiryHandler,
    private readonly tradeCompletion: TradeCompletionHandler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    for (const projection of [offerProjection, tradeProjection, holdProjection]) this.projections.register(projection);
    this.timers.register(offerExpirySource);
    this.timers.register(holdExpirySource);
    this.timers.register(tradeCompletionSource(this.config.TRADE_DISPUTE_WINDOW_SECONDS * 1000));
    for (const handler of [this.offerExpiry, this.holdExpiry, this.tradeCompletion]) this.timers.handle(handler);
    // Splits between an item and its holder exist only where a decision is appended stream by
    // stream (EventStoreDB); on SQLite it is one transaction, and the reconciler's timers would be
    // scheduled and cancelled for nothing (SQL on every hold's expiry).
    if (this.config.EVENT_STORE === 'esdb') {
      this.timers.register(reservationSource());
      this.timers.handle(this.reconciler);
    }
  }
}
