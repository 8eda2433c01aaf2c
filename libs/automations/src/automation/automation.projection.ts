// The rules' read model: one document per rule, what the rule routes read and what the process
// manager finds the rules of a workspace and trigger by.
import { type CollectionSpec, documentProjection, type StreamDoc } from '@app/platform';

import type { AutomationAction } from '../actions/automation.actions';
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
