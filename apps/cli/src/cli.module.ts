// The CLI's composition: the same contexts as the API, without HTTP and without live workers
// (it catches the projections up itself after each command, so the server sees its writes at once).
import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { AccessModule } from '@app/access';
import { AutomationsModule } from '@app/automations';
import { DemandModule } from '@app/demand';
import { MatchingModule } from '@app/matching';
import { NotificationsModule } from '@app/notifications';
import { type AppConfig, IdempotencyModule, PlatformModule, type PlatformOptions } from '@app/platform';
import { IntakeReadModelModule, SupplyModule } from '@app/supply';
import { LiveModule } from '@app/live';
import { TradegraphModule } from '@app/tradegraph';
import { TrustModule } from '@app/trust';
import { TradingModule } from '@app/trading';
import { WebhooksModule } from '@app/webhooks';
import { WidgetModule } from '@app/widget';

import { PUBLIC_EVENTS } from '../../composition/public-events';

@Module({})
export class CliModule {
  /** `platform`: e.g. the demo seed's simulated clock in place of the system's. */
  static forRoot(config: AppConfig, platform: PlatformOptions = {}): DynamicModule {
    return {
      module: CliModule,
      imports: [PlatformModule.forRoot({ ...config, RUN_WORKERS: false }, platform), CqrsModule.forRoot(), IdempotencyModule, AccessModule, DemandModule, SupplyModule, IntakeReadModelModule, MatchingModule, TradingModule, LiveModule, TrustModule, TradegraphModule, WebhooksModule.forRoot({ publicEvents: PUBLIC_EVENTS }), AutomationsModule.forRoot({ publicEvents: PUBLIC_EVENTS }), WidgetModule, NotificationsModule],
    };
  }
}
