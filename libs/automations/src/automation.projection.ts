// Read models: the rules (one document per rule, found by the process manager by workspace and
// trigger) and their runs (one document per run, listed newest first per rule).
import { type CollectionSpec, documentProjection, type Projection, publicEventId, type StreamDoc } from '@app/platform';

import { AUTOMATION_RUN_EVENT_TYPES, parseAutomationRunEvent, type RunError, type RunOutcome } from './automation-run.events';
import type { AutomationAction } from './automation.actions';
import { AUTOMATION_EVENT_TYPES, type AutomationStatus, type AutomationTrigger, parseAutomationEvent } from './automation.events';

export interface AutomationDoc extends StreamDoc {
  workspaceId: string;
  name: string;
  /** The trigger's event type, top-level for the process manager's lookup. */
  triggerEvent: string;
  trigger: AutomationTrigger;
  action: AutomationAction;
  enabled: boolean;
  status: AutomationStatus;
  keyId: string;
  scopes: string[];
  /** Log position of its creation: a rule never fires on an event older than itself. */
  createdPosition: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export const AUTOMATIONS = {
  name: 'automations',
  indexes: [
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_trigger', fields: [['workspaceId', 1], ['triggerEvent', 1], ['status', 1]] },
  ],
} satisfies CollectionSpec;

export const automationProjection = documentProjection<AutomationDoc>({
  name: 'automations',
  version: 1,
  // The rule routes' own read model: the write that changes a rule brings it up to date.
  inline: true,
  collection: AUTOMATIONS,
  eventTypes: AUTOMATION_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseAutomationEvent(recorded);
    switch (event.type) {
      case 'automation.created': {
        const { automationId, createdAt, ...rule } = event.data;
        return {
          id: automationId,
          revision: recorded.revision,
          workspaceId: recorded.metadata.workspaceId,
          ...rule,
          triggerEvent: rule.trigger.event,
          status: 'active',
          createdPosition: recorded.position,
          createdAt,
          updatedAt: createdAt,
          archivedAt: null,
        };
      }
      case 'automation.updated': {
        if (!doc) return doc;
        const { automationId: _id, changed: _c, updatedAt, ...rule } = event.data;
        return { ...doc, ...rule, triggerEvent: rule.trigger.event, updatedAt };
      }
      case 'automation.archived':
        return doc && { ...doc, status: 'archived', archivedAt: event.data.archivedAt, updatedAt: event.data.archivedAt };
      default:
        return doc;
    }
  },
});

export interface AutomationRunDoc extends StreamDoc {
  workspaceId: string;
  runId: string;
  automationId: string;
  trigger: { eventId: string; type: string; position: number; at: string };
  depth: number;
  actionType: string;
  outcome: RunOutcome;
  effect: string | null;
  reason: string | null;
  caused: Array<{ id: string; type: string }>;
  error: RunError | null;
  startedAt: string;
  finishedAt: string | null;
}

export const AUTOMATION_RUNS = {
  name: 'automation_runs',
  indexes: [{ name: 'by_ws_automation_started', fields: [['workspaceId', 1], ['automationId', 1], ['startedAt', -1], ['id', -1]] }],
} satisfies CollectionSpec;

export const automationRunProjection = documentProjection<AutomationRunDoc>({
  name: 'automation_runs',
  version: 1,
  collection: AUTOMATION_RUNS,
  eventTypes: AUTOMATION_RUN_EVENT_TYPES,
  evolve(doc, recorded) {
    const event = parseAutomationRunEvent(recorded);
    if (event.type === 'automation_run.started') {
      const { startedAt, ...run } = event.data;
      return {
        id: '',
        revision: recorded.revision,
        workspaceId: recorded.metadata.workspaceId,
        ...run,
        outcome: 'running',
        effect: null,
        reason: null,
        caused: [],
        error: null,
        startedAt,
        finishedAt: null,
      };
    }
    if (!doc) return doc;
    switch (event.type) {
      case 'automation_run.succeeded':
        return { ...doc, outcome: 'succeeded', effect: event.data.effect, caused: event.data.caused, finishedAt: event.data.finishedAt };
      case 'automation_run.skipped':
        return { ...doc, outcome: 'skipped', reason: event.data.reason, finishedAt: event.data.finishedAt };
      case 'automation_run.failed':
        return { ...doc, outcome: 'failed', error: event.data.error, finishedAt: event.data.finishedAt };
      default:
        return doc;
    }
  },
});

/**
 * Where each public event is in the log, by its public id: what `POST /automations/:id/test
 * {eventId}` reads the event back with (the log has no look-up by id). Small: id, workspace, position.
 */
export interface EventLocationDoc extends StreamDoc {
  workspaceId: string;
  position: number;
}

export const EVENT_LOCATIONS = { name: 'automation_event_locations', indexes: [] } satisfies CollectionSpec;

export function eventLocationProjection(types: readonly string[]): Projection {
  return {
    name: 'automation_event_locations',
    version: 1,
    collections: [EVENT_LOCATIONS],
    eventTypes: types,
    async apply(event, store) {
      await store.collection<EventLocationDoc>(EVENT_LOCATIONS).put({ id: publicEventId(event.id), revision: event.revision, workspaceId: event.metadata.workspaceId, position: event.position });
    },
  };
}
