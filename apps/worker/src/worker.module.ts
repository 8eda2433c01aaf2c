// The background composition root: projections (and later webhook dispatch and schedulers),
// no HTTP. In production the API runs with RUN_WORKERS=false and one or more of these run beside it.
import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { AccessModule } from '@app/access';
import { AutomationsModule } from '@app/automations';
import { DemandModule } from '@app/demand';
import { MatchingModule } from '@app/matching';
import { NotificationsModule } from '@app/notifications';
import { type AppConfig, IdempotencyModule, PlatformModule, type PlatformOptions, workerProcessConfig } from '@app/platform';
import { IntakeReadModelModule, SupplyModule } from '@app/supply';
import { LiveModule } from '@app/live';
import { TradegraphModule } from '@app/tradegraph';
import { TrustModule } from '@app/trust';
import { TradingModule } from '@app/trading';
import { WebhooksModule } from '@app/webhooks';
import { WidgetModule } from '@app/widget';

import { PUBLIC_EVENTS } from '../../composition/public-events';

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, platform: PlatformOptions = {}): DynamicModule {
    return {
      module: WorkerModule,
      imports: [PlatformModule.forRoot(workerProcessConfig(config), platform), CqrsModule.forRoot(), IdempotencyModule, AccessModule, DemandModule, SupplyModule, IntakeReadModelModule, MatchingModule, TradingModule, LiveModule, TrustModule, TradegraphModule, WebhooksModule.forRoot({ publicEvents: PUBLIC_EVENTS }), AutomationsModule.forRoot({ publicEvents: PUBLIC_EVENTS }), WidgetModule, NotificationsModule],
    };
  }
}
