import { Module, type OnModuleInit } from '@nestjs/common';

import { ProjectionRunner } from '@app/platform';

import { EventsController } from './events/events.http';
import { publicEventProjection } from './events/public-event.projection';

@Module({ controllers: [EventsController] })
export class WebhooksModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(publicEventProjection);
  }
}
