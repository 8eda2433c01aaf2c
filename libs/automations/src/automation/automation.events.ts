// Stored contract of the automation rule aggregate (internal: no public event, never delivered by
// webhooks). A rule names its trigger (a public event type and conditions over its data), its
// action, and the API key that set it with that key's scopes: the rule may only do what they grant.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

import { automationAction, condition } from '../actions/automation.actions';

export const AUTOMATION_STATUSES = ['active', 'archived'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

export const automationTrigger = z.object({ event: z.string(), conditions: z.array(condition) });
export type AutomationTrigger = z.infer<typeof automationTrigger>;

/** What a rule is: set on creation, replaced whole by an update. */
export const automationRule = z.object({
  name: z.string(),
  trigger: automationTrigger,
  action: automationAction,
  enabled: z.boolean(),
  /** The key that set the rule, and its scopes then: the rule acts within them. */
  keyId: z.string(),
  scopes: z.array(z.string()),
});
export type AutomationRule = z.infer<typeof automationRule>;

export const automationCreated = automationRule.extend({ automationId: z.string(), createdAt: z.string() });
export type AutomationCreated = z.infer<typeof automationCreated>;

export const automationUpdated = automationRule.extend({ automationId: z.string(), changed: z.array(z.string()), updatedAt: z.string() });
export type AutomationUpdated = z.infer<typeof automationUpdated>;

export const automationArchived = z.object({ automationId: z.string(), archivedAt: z.string() });
export type AutomationArchived = z.infer<typeof automationArchived>;

export type AutomationEvent =
  | { type: 'automation.created'; data: AutomationCreated }
  | { type: 'automation.updated'; data: AutomationUpdated }
  | { type: 'automation.archived'; data: AutomationArchived };

export const AUTOMATION_EVENT_TYPES = ['automation.created', 'automation.updated', 'automation.archived'] as const;

export const parseAutomationEvent = parseOnce((event: RecordedEvent): AutomationEvent => {
  switch (event.type) {
    case 'automation.created':
      return { type: event.type, data: automationCreated.parse(event.data) };
    case 'automation.updated':
      return { type: event.type, data: automationUpdated.parse(event.data) };
    case 'automation.archived':
      return { type: event.type, data: automationArchived.parse(event.data) };
    default:
      throw new Error(`Not an automation event: ${event.type}`);
  }
});

export const automationStream = (id: string) => `automation-${id}`;
