// The runs' read model: one document per run, listed newest first per rule.
import { type CollectionSpec, documentProjection, type StreamDoc } from '@app/platform';

import { AUTOMATION_RUN_EVENT_TYPES, parseAutomationRunEvent, type RunError, type RunOutcome } from './automation-run.events';

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
