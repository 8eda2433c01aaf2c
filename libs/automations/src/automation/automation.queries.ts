// Query handlers for the automation routes: one rule, the list, and the dry run (`/test`): what
// the rule would do on a stored event, without doing or recording it.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import {
  APP_CONFIG,
  type AppConfig,
  EVENT_STORE,
  type EventStore,
  publicEventId,
  findOwned,
  getOwned,
  type Page,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEventCatalogue,
  READ_STORE,
  type ReadStore,
} from '@app/platform';
import { DomainError } from '@app/platform/domain';

import { ActionPlanner } from '../actions/automation.planner';
import { EVENT_LOCATIONS, type EventLocationDoc } from '../event-location/event-location.projection';
import { automationRunStream } from '../run/automation-run.events';
import { asTrigger, firesOn, refusal, runErrorOf } from '../run/automation.runner';
import { type AutomationDoc, AUTOMATIONS } from './automation.projection';
import { type AutomationResponse, type AutomationTestResponse, toAutomationResponse } from './automation.schemas';

/** A rule as answered, and its version (its stream's revision: the ETag). */
export interface VersionedAutomation {
  automation: AutomationResponse;
  revision: number;
}

export class GetAutomationQuery extends Query<VersionedAutomation> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetAutomationQuery)
export class GetAutomationHandler implements IQueryHandler<GetAutomationQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, id }: GetAutomationQuery): Promise<VersionedAutomation> {
    const doc = await getOwned(this.reads.collection<AutomationDoc>(AUTOMATIONS), workspaceId, id, 'automation');
    return { automation: toAutomationResponse(doc), revision: doc.revision };
  }
}

export class ListAutomationsQuery extends Query<Page<AutomationResponse>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListAutomationsQuery)
export class ListAutomationsHandler implements IQueryHandler<ListAutomationsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, limit, cursor }: ListAutomationsQuery): Promise<Page<AutomationResponse>> {
    const page = await this.reads.collection<AutomationDoc>(AUTOMATIONS).find({ workspaceId }, { sort: [['createdAt', -1]], limit, after: cursor });
    return { ...page, items: page.items.map(toAutomationResponse) };
  }
}

export class TestAutomationQuery extends Query<AutomationTestResponse> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
    readonly eventId: string,
  ) {
    super();
  }
}

@QueryHandler(TestAutomationQuery)
export class TestAutomationHandler implements IQueryHandler<TestAutomationQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly planner: ActionPlanner,
  ) {}

  async execute({ workspaceId, id, eventId }: TestAutomationQuery): Promise<AutomationTestResponse> {
    const rule = await getOwned(this.reads.collection<AutomationDoc>(AUTOMATIONS), workspaceId, id, 'automation');
    const location = await findOwned(this.reads.collection<EventLocationDoc>(EVENT_LOCATIONS), workspaceId, eventId);
    if (!location) throw DomainError.unknownReference('eventId', 'event', eventId);
    const [stored] = await this.events.readAll({ fromPosition: location.position - 1, limit: 1 });
    // The public event of that id among those the stored event there stands for.
    const published = stored && stored.position === location.position ? this.catalogue.publicEvents(stored).find((p) => publicEventId(p.eventId) === eventId) : undefined;
    if (!stored || !published) throw DomainError.unknownReference('eventId', 'event', eventId);
    const event = asTrigger(stored, published);
    const data = published.data;
    const base = { eventId, eventType: event.type, effect: null, reason: null, error: null };
    const alreadyRan = (await this.events.readStream(automationRunStream(rule.id, event.publicKey))).length > 0;
    // A dry run judges the rule as it is now, on an event of any age.
    if (!firesOn({ ...rule, createdPosition: -1 }, event, data)) {
      return { ...base, wouldFire: false, outcome: 'not_fired', reason: notFiredReason(rule, event.type), alreadyRan };
    }
    const refused = refusal(rule, event, this.config.AUTOMATION_MAX_CHAIN_DEPTH);
    if (refused) return { ...base, wouldFire: true, outcome: 'failed', error: refused, alreadyRan };
    try {
      const plan = await this.planner.plan(workspaceId, rule.action, data);
      if (plan.kind === 'skip') return { ...base, wouldFire: true, outcome: 'skipped', reason: plan.reason, alreadyRan };
      return { ...base, wouldFire: true, outcome: 'succeeded', effect: plan.effect, alreadyRan };
    } catch (error) {
      return { ...base, wouldFire: true, outcome: 'failed', error: runErrorOf(error), alreadyRan };
    }
  }
}

function notFiredReason(rule: AutomationDoc, type: string): string {
  if (rule.status !== 'active') return 'the rule is archived';
  if (!rule.enabled) return 'the rule is disabled';
  if (rule.trigger.event !== type) return `the rule triggers on ${rule.trigger.event}, not ${type}`;
  return 'the event does not meet the rule\'s conditions, or is the effect of this rule\'s own action';
}

export const AUTOMATION_QUERY_HANDLERS = [GetAutomationHandler, ListAutomationsHandler, TestAutomationHandler];
