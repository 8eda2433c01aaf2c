// Query handler for a rule's runs, newest first (GET /automations/:id/runs).
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { type AutomationDoc, AUTOMATIONS } from '../automation/automation.projection';
import { type AutomationRunResponse, toRunResponse } from '../automation/automation.schemas';
import { AUTOMATION_RUNS, type AutomationRunDoc } from './automation-run.projection';

export class ListAutomationRunsQuery extends Query<Page<AutomationRunResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly automationId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListAutomationRunsQuery)
export class ListAutomationRunsHandler implements IQueryHandler<ListAutomationRunsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, automationId, limit, cursor }: ListAutomationRunsQuery): Promise<Page<AutomationRunResponse>> {
    await getOwned(this.reads.collection<AutomationDoc>(AUTOMATIONS), workspaceId, automationId, 'automation');
    const page = await this.reads
      .collection<AutomationRunDoc>(AUTOMATION_RUNS)
      .find({ workspaceId, automationId }, { sort: [['startedAt', -1]], limit, after: cursor });
    return { ...page, items: page.items.map(toRunResponse) };
  }
}

export const AUTOMATION_RUN_QUERY_HANDLERS = [ListAutomationRunsHandler];
