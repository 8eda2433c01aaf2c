// Stored contract of an automation run (internal: never delivered by webhooks, listed by
// GET /automations/:id/runs): one stream per rule and triggering event. Creating it (expected
// `no_stream`) is the rule's claim on the event: a replay, a restart or a read-model rebuild finds
// the claim and never fires the rule on that event again (at most once). It ends with an outcome.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const RUN_OUTCOMES = ['running', 'succeeded', 'skipped', 'failed'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export const runError = z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() });
export type RunError = z.infer<typeof runError>;

export const causedEvent = z.object({ id: z.string(), type: z.string() });

export const automationRunStarted = z.object({
  runId: z.string(),
  automationId: z.string(),
  trigger: z.object({
    /** Public id (`evt_…`) of the triggering event. */
    eventId: z.string(),
    type: z.string(),
    position: z.number().int(),
    /** When the triggering event was appended: the run's lag is measured from it. */
    at: z.string(),
  }),
  /** How many automation actions led to the triggering event (0: none). */
  depth: z.number().int(),
  actionType: z.string(),
  startedAt: z.string(),
});
export type AutomationRunStarted = z.infer<typeof automationRunStarted>;

export const automationRunSucceeded = z.object({ effect: z.string(), caused: z.array(causedEvent), finishedAt: z.string() });
export const automationRunSkipped = z.object({ reason: z.string(), finishedAt: z.string() });
export const automationRunFailed = z.object({ error: runError, finishedAt: z.string() });

export type AutomationRunEvent =
  | { type: 'automation_run.started'; data: AutomationRunStarted }
  | { type: 'automation_run.succeeded'; data: z.infer<typeof automationRunSucceeded> }
  | { type: 'automation_run.skipped'; data: z.infer<typeof automationRunSkipped> }
  | { type: 'automation_run.failed'; data: z.infer<typeof automationRunFailed> };

export const AUTOMATION_RUN_EVENT_TYPES = ['automation_run.started', 'automation_run.succeeded', 'automation_run.skipped', 'automation_run.failed'] as const;

export const parseAutomationRunEvent = parseOnce((event: RecordedEvent): AutomationRunEvent => {
  switch (event.type) {
    case 'automation_run.started':
      return { type: event.type, data: automationRunStarted.parse(event.data) };
    case 'automation_run.succeeded':
      return { type: event.type, data: automationRunSucceeded.parse(event.data) };
    case 'automation_run.skipped':
      return { type: event.type, data: automationRunSkipped.parse(event.data) };
    case 'automation_run.failed':
      return { type: event.type, data: automationRunFailed.parse(event.data) };
    default:
      throw new Error(`Not an automation run event: ${event.type}`);
  }
});

/** One run per rule and triggering event (its stored uuid). */
export const automationRunStream = (automationId: string, eventId: string) => `automation_run-${automationId}-${eventId}`;
