// Live selling: sessions (shows), the lots put up in them, the reserves viewers place, and the
// process manager that settles each closed lot's winners into holds or trades. Units are reserved
// through supply's inventory contract, holds and trades opened through trading's.
import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { DemandModule } from '@app/demand';
import { ProcessManagerRunner, ProjectionRunner } from '@app/platform';
import { SupplyModule } from '@app/supply';

import { LOT_COMMAND_HANDLERS, ReserveDesk } from './lot/lot.handlers';
import { LotsController } from './lot/lot.http';
import { lotProjection, reserveProjection } from './lot/lot.projection';
import { LOT_QUERY_HANDLERS } from './lot/lot.queries';
import { LiveSettlement } from './lot/lot.settlement';
import { LIVE_SESSION_COMMAND_HANDLERS } from './session/live-session.handlers';
import { LiveSessionsController } from './session/live-session.http';
import { liveSessionProjection } from './session/live-session.projection';
import { LIVE_SESSION_QUERY_HANDLERS } from './session/live-session.queries';

@Module({
  imports: [CqrsModule, DemandModule, SupplyModule],
  controllers: [LiveSessionsController, LotsController],
  providers: [...LIVE_SESSION_COMMAND_HANDLERS, ...LOT_COMMAND_HANDLERS, ...LIVE_SESSION_QUERY_HANDLERS, ...LOT_QUERY_HANDLERS, ReserveDesk, LiveSettlement],
})
export class LiveModule implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionRunner,
    private readonly processManagers: ProcessManagerRunner,
    private readonly settlement: LiveSettlement,
  ) {}

  onModuleInit(): void {
    this.projections.register(liveSessionProjection, lotProjection, reserveProjection);
    this.processManagers.register(this.settlement);
  }
}
