// Intake sessions: batch supply, normalized as it arrives, pushed to live inventory.
import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { ProjectionRunner } from '@app/platform';

import { INGESTION_COMMAND_HANDLERS } from './intake.handlers';
import { IntakeController } from './intake.http';
import { ingestionRowsProjection } from './intake-rows.projection';
import { ingestionSessionProjection } from './intake.projection';
import { INGESTION_QUERY_HANDLERS } from './intake.queries';

/**
 * Only the read model, for compositions without HTTP (the CLI's `projections status/rebuild`, the
 * worker): the push handler needs matching, which those compositions need not provide.
 */
@Module({})
export class IntakeReadModelModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(ingestionSessionProjection, ingestionRowsProjection);
  }
}

/** The HTTP routes and handlers; the push needs INTAKE_MATCHING (provided globally by MatchingModule). */
@Module({
  imports: [CqrsModule, IntakeReadModelModule],
  controllers: [IntakeController],
  providers: [...INGESTION_COMMAND_HANDLERS, ...INGESTION_QUERY_HANDLERS],
})
export class IntakeModule {}
