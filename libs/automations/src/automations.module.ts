// Automations: rules that act on the service's own events, run as a process manager on the log
// (where the workers run). They act through the commands trading, demand and supply accept from
// automations, and read what they act on through those contexts' readers. Like webhooks, it is
// handed the composed public event catalogue by the composition root (AutomationsModule.forRoot).
import { type DynamicModule, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { DemandModule } from '@app/demand';
import { ProcessManagerRunner, ProjectionRunner, PUBLIC_EVENT_CATALOGUE, PublicEventCatalogue, type PublicEventType } from '@app/platform';
import { SupplyModule } from '@app/supply';

import { ActionPlanner } from './actions/automation.planner';
import { AUTOMATION_COMMAND_HANDLERS } from './automation/automation.handlers';
import { AutomationsController } from './automation/automation.http';
import { automationProjection } from './automation/automation.projection';
import { AUTOMATION_QUERY_HANDLERS } from './automation/automation.queries';
import { eventLocationProjection } from './event-location/event-location.projection';
import { automationRunProjection } from './run/automation-run.projection';
import { AUTOMATION_RUN_QUERY_HANDLERS } from './run/automation-run.queries';
import { AutomationRunner } from './run/automation.runner';

export interface AutomationsOptions {
  /** Every context's public events, as the composition root puts them together: the triggers. */
  publicEvents: readonly PublicEventType[];
}

@Module({})
export class AutomationsModule implements OnModuleInit {
  static forRoot(options: AutomationsOptions): DynamicModule {
    return {
      module: AutomationsModule,
      imports: [CqrsModule, DemandModule, SupplyModule],
      controllers: [AutomationsController],
      providers: [
        { provide: PUBLIC_EVENT_CATALOGUE, useValue: new PublicEventCatalogue(options.publicEvents) },
        ActionPlanner,
        AutomationRunner,
        ...AUTOMATION_COMMAND_HANDLERS,
        ...AUTOMATION_QUERY_HANDLERS,
        ...AUTOMATION_RUN_QUERY_HANDLERS,
      ],
    };
  }

  constructor(
    private readonly projections: ProjectionRunner,
    private readonly processManagers: ProcessManagerRunner,
    private readonly runner: AutomationRunner,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
  ) {}

  onModuleInit(): void {
    this.projections.register(automationProjection, automationRunProjection, eventLocationProjection(this.catalogue));
    this.processManagers.register(this.runner);
  }
}
