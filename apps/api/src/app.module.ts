// The HTTP composition root. By default it also runs the workers (projections) in-process.
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';

import { API_KEY_GUARD_PROVIDER, AccessModule } from '@app/access';
import { PortalModule } from '@app/portal';
import { AutomationsModule } from '@app/automations';
import { DemandModule } from '@app/demand';
import { MatchingModule } from '@app/matching';
import { NotificationsModule } from '@app/notifications';
import {
  ApiExceptionFilter,
  type AppConfig,
  IdempotencyModule,
  OpenApiModule,
  PlatformModule,
  type PlatformOptions,
} from '@app/platform';
import { IntakeModule, SupplyModule } from '@app/supply';
import { LiveModule } from '@app/live';
import { TradegraphModule } from '@app/tradegraph';
import { TrustModule } from '@app/trust';
import { TradingModule } from '@app/trading';
import { WebhooksModule } from '@app/webhooks';
import { WidgetModule } from '@app/widget';

import { PUBLIC_EVENTS } from '../../composition/public-events';
import { HealthController } from './health.controller';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, platform: PlatformOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(config, platform), CqrsModule.forRoot(), AccessModule, DemandModule, SupplyModule, IntakeModule, MatchingModule, TradingModule, LiveModule, TrustModule, TradegraphModule, WebhooksModule.forRoot({ publicEvents: PUBLIC_EVENTS }), AutomationsModule.forRoot({ publicEvents: PUBLIC_EVENTS }), IdempotencyModule, OpenApiModule, WidgetModule, NotificationsModule, PortalModule],
      controllers: [HealthController],
      providers: [
        API_KEY_GUARD_PROVIDER,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
