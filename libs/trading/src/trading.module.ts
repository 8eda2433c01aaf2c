// Trading: offers (negotiation), trades (the escrow-like lifecycle) and holds (a deposit and an
// expiry on reserved units). Units are reserved through supply's inventory contract.
import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

@Module({
  imports: [CqrsModule],
  controllers: [],
  providers: [],
})
export class TradingModule {}
