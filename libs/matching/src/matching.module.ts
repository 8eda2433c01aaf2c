import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { DemandModule, INSTANT_MATCHING } from '@app/demand';
import { ProcessManagerRunner, ProjectionRunner } from '@app/platform';
import { INTAKE_MATCHING, SupplyModule } from '@app/supply';

import { MatchCandidates } from './engine/match-candidates';
import { MATCH_PACK_COMMAND_HANDLERS } from './match-pack/match-pack.handlers';
import { MatchPacksController } from './match-pack/match-pack.http';
import { matchPackProjection } from './match-pack/match-pack.projection';
import { MATCH_PACK_QUERY_HANDLERS } from './match-pack/match-pack.queries';
import { IntakeMatchingService } from './reverse/intake-matching.service';
import { ReverseMatching } from './reverse/reverse-matching';

/**
 * Global: demand and intake reach the engine through the ports they define (INSTANT_MATCHING,
 * INTAKE_MATCHING); the engine reads requests and items through the ports demand and supply export.
 */
@Global()
@Module({
  imports: [CqrsModule, DemandModule, SupplyModule],
  controllers: [MatchPacksController],
  providers: [
    MatchCandidates,
    { provide: INSTANT_MATCHING, useExisting: MatchCandidates },
    IntakeMatchingService,
    { provide: INTAKE_MATCHING, useExisting: IntakeMatchingService },
    ReverseMatching,
    ...MATCH_PACK_COMMAND_HANDLERS,
    ...MATCH_PACK_QUERY_HANDLERS,
  ],
  exports: [INSTANT_MATCHING, INTAKE_MATCHING],
})
export class MatchingModule implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionRunner,
    private readonly processManagers: ProcessManagerRunner,
    private readonly reverseMatching: ReverseMatching,
  ) {}

  onModuleInit(): void {
    this.projections.register(matchPackProjection);
    this.processManagers.register(this.reverseMatching);
  }
}
