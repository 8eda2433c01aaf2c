import { deciderSpec } from '@app/testing/support/decider-spec';

import { automationRunDecider } from './automation-run.decider';
import type { AutomationRunEvent } from './automation-run.events';

const now = new Date('2026-11-24T12:00:00.000Z');
const at = now.toISOString();

describe('automation run decider', () => {
  const spec = deciderSpec(automationRunDecider);
  const run = {
    runId: 'aur_1',
    automationId: 'au_1',
    trigger: { eventId: 'evt_1', type: 'offer.created', position: 7, at },
    depth: 0,
    actionType: 'accept_offer',
  };
  const started: AutomationRunEvent = { type: 'automation_run.started', data: { ...run, startedAt: at } };
  const succeeded: AutomationRunEvent = { type: 'automation_run.succeeded', data: { effect: 'accept', caused: [{ id: 'evt_2', type: 'offer.accepted' }], finishedAt: at } };

  it('starts a run once per rule and event: the claim', () => {
    spec.given([]).when({ type: 'StartRun', run, now }).then([started]);
    spec.given([started]).when({ type: 'StartRun', run: { ...run, runId: 'aur_2' }, now }).thenThrows('CONFLICT', 'aur_1');
  });

  it('finishes once with its outcome; finishing again is a no-op', () => {
    spec.given([started]).when({ type: 'FinishRun', result: { outcome: 'succeeded', effect: 'accept', caused: [{ id: 'evt_2', type: 'offer.accepted' }] }, now }).then([succeeded]);
    spec.given([started]).when({ type: 'FinishRun', result: { outcome: 'skipped', reason: 'below 90 %' }, now }).then([
      { type: 'automation_run.skipped', data: { reason: 'below 90 %', finishedAt: at } },
    ]);
    const error = { code: 'AUTOMATION_CHAIN_TOO_DEEP', message: 'too deep' };
    spec.given([started]).when({ type: 'FinishRun', result: { outcome: 'failed', error }, now }).then([{ type: 'automation_run.failed', data: { error, finishedAt: at } }]);
    spec.given([started, succeeded]).when({ type: 'FinishRun', result: { outcome: 'failed', error }, now }).then([]);
    spec.given([]).when({ type: 'FinishRun', result: { outcome: 'skipped', reason: 'x' }, now }).thenThrows('NOT_FOUND');
  });
});
