// Request and response schemas of /api/v1/automations (they validate and they document), with
// examples, and the mappers from the read models to the answers.
import { z } from 'zod';

import { listResponseSchema, paginationQuery } from '@app/platform';

import { automationAction, condition } from '../actions/automation.actions';
import { RUN_OUTCOMES } from '../run/automation-run.events';
import { AUTOMATION_STATUSES } from './automation.events';
import type { AutomationRunDoc } from '../run/automation-run.projection';
import type { AutomationDoc } from './automation.projection';

const id = (what: string) => z.string().trim().min(1).max(64).meta({ description: what });
const name = z.string().trim().min(1).max(200).meta({ description: 'What the rule is for.' });

export const automationTriggerBody = z
  .strictObject({
    event: z.string().trim().min(1).max(100).meta({ description: 'A public event type (see `GET /api/v1/events`), e.g. `offer.created`.' }),
    conditions: z.array(condition).max(20).default([]).meta({ description: 'All must hold on the event\'s public `data` (none: every event of the type).' }),
  })
  .meta({ id: 'AutomationTrigger' });

const enabled = z.boolean().meta({ description: 'A disabled rule never fires (default true).' });

export const createAutomationBody = z
  .strictObject({ name, trigger: automationTriggerBody, action: automationAction, enabled: enabled.optional() })
  .meta({ id: 'CreateAutomation' });

export const updateAutomationBody = z
  .strictObject({ name: name.optional(), trigger: automationTriggerBody.optional(), action: automationAction.optional(), enabled: enabled.optional() })
  .refine((b) => Object.keys(b).length > 0, { message: 'change at least one of name, trigger, action, enabled' })
  .meta({ id: 'UpdateAutomation' });

export const testAutomationBody = z
  .strictObject({ eventId: z.string().regex(/^evt_[0-9a-f]{32}$/).meta({ description: 'A stored event of this workspace (`evt_…`, as listed by `GET /api/v1/events`).' }) })
  .meta({ id: 'TestAutomation' });

export const automationIdParams = z.object({ id: id('Automation id (`au_…`).').meta({ examples: ['au_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }) });
export const listAutomationsQuery = paginationQuery;
export const listRunsQuery = paginationQuery;

export const automationResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Automation id (`au_…`).' }),
    name: z.string(),
    trigger: z.strictObject({ event: z.string(), conditions: z.array(condition) }),
    action: automationAction,
    enabled: z.boolean(),
    status: z.enum(AUTOMATION_STATUSES).meta({ description: '`archived` after DELETE: it never fires again; its runs stay readable.' }),
    keyId: z.string().meta({ description: 'The API key that set the rule last: the rule acts within its scopes.' }),
    scopes: z.array(z.string()).meta({ description: 'That key\'s scopes when it set the rule.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    archivedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Automation' });
export type AutomationResponse = z.output<typeof automationResponse>;
export const automationListResponse = listResponseSchema(automationResponse).meta({ id: 'AutomationList' });

const runError = z.strictObject({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }).meta({ id: 'AutomationRunError' });
const causedEvent = z.strictObject({ id: z.string().meta({ description: 'Event id (`evt_…`).' }), type: z.string() });

export const automationRunResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Run id (`aur_…`).' }),
    automationId: z.string(),
    trigger: z
      .strictObject({ eventId: z.string(), type: z.string(), at: z.iso.datetime().meta({ description: 'When the triggering event was recorded.' }) })
      .meta({ description: 'The event the rule fired on.' }),
    depth: z.number().int().meta({ description: 'How many automation actions led to the triggering event.' }),
    actionType: z.string(),
    outcome: z.enum(RUN_OUTCOMES).meta({ description: '`succeeded` (see `caused`), `skipped` (see `reason`: a threshold of the action not met), `failed` (see `error`), or `running`.' }),
    effect: z.string().nullable().meta({ description: 'What the action did.' }),
    reason: z.string().nullable(),
    caused: z.array(causedEvent).meta({ description: 'The events the action appended (each carries the trigger as its causation).' }),
    error: runError.nullable(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    lagMs: z.number().int().nullable().meta({ description: 'From the triggering event to the run\'s outcome (its effect), in ms.' }),
  })
  .meta({ id: 'AutomationRun' });
export type AutomationRunResponse = z.output<typeof automationRunResponse>;
export const automationRunListResponse = listResponseSchema(automationRunResponse).meta({ id: 'AutomationRunList' });

export const automationTestResponse = z
  .strictObject({
    eventId: z.string(),
    eventType: z.string(),
    wouldFire: z.boolean().meta({ description: 'Whether the rule fires on the event (type, conditions, enabled, not its own effect).' }),
    outcome: z.enum(['succeeded', 'skipped', 'failed', 'not_fired']).meta({ description: 'What the run would record; nothing is done or recorded.' }),
    effect: z.string().nullable(),
    reason: z.string().nullable(),
    error: runError.nullable(),
    alreadyRan: z.boolean().meta({ description: 'The rule has fired on this event already: it will never fire on it again.' }),
  })
  .meta({ id: 'AutomationTest' });
export type AutomationTestResponse = z.output<typeof automationTestResponse>;

const at = '2025-11-23T09:00:00.000Z';
export const createAutomationExample = {
  name: 'Accept buyer offers at 90 % of list or more',
  trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] },
  action: { type: 'accept_offer', params: { minPercentOfList: 90 } },
};
export const automationExample: AutomationResponse = {
  id: 'au_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  name: createAutomationExample.name,
  trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] },
  action: { type: 'accept_offer', params: { minPercentOfList: 90 } },
  enabled: true,
  status: 'active',
  keyId: 'key_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  scopes: ['write:trades'],
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
};
export const runExample: AutomationRunResponse = {
  id: 'aur_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  automationId: automationExample.id,
  trigger: { eventId: 'evt_0196b2a4c1d27f0e8a1b2c3d4e5f6a7b', type: 'offer.created', at },
  depth: 0,
  actionType: 'accept_offer',
  outcome: 'succeeded',
  effect: 'accept offer ofr_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3 of 400 USD (94.1 % of the list price 425 USD) as the seller',
  reason: null,
  caused: [
    { id: 'evt_0196b2a4c1d27f0e8a1b2c3d4e5f6a7c', type: 'inventory.reserved' },
    { id: 'evt_0196b2a4c1d27f0e8a1b2c3d4e5f6a7d', type: 'trade.initiated' },
    { id: 'evt_0196b2a4c1d27f0e8a1b2c3d4e5f6a7e', type: 'offer.accepted' },
  ],
  error: null,
  startedAt: '2025-11-23T09:00:00.012Z',
  finishedAt: '2025-11-23T09:00:00.031Z',
  lagMs: 31,
};

export function toAutomationResponse(doc: AutomationDoc): AutomationResponse {
  const { id: ruleId, name: ruleName, trigger, action, enabled: on, status, keyId, scopes, createdAt, updatedAt, archivedAt } = doc;
  return { id: ruleId, name: ruleName, trigger, action, enabled: on, status, keyId, scopes, createdAt, updatedAt, archivedAt };
}

export function toRunResponse(doc: AutomationRunDoc): AutomationRunResponse {
  const lagMs = doc.finishedAt ? Date.parse(doc.finishedAt) - Date.parse(doc.trigger.at) : null;
  return {
    id: doc.runId,
    automationId: doc.automationId,
    trigger: { eventId: doc.trigger.eventId, type: doc.trigger.type, at: doc.trigger.at },
    depth: doc.depth,
    actionType: doc.actionType,
    outcome: doc.outcome,
    effect: doc.effect,
    reason: doc.reason,
    caused: doc.caused,
    error: doc.error,
    startedAt: doc.startedAt,
    finishedAt: doc.finishedAt,
    lagMs,
  };
}
