// The runs' read model, given/when/then: given a run's events (as its decider makes them), then its
// document, keyed by the run's stream (rule and triggering event). Applying an event twice is
// applying it once.
import { evolveDocument, type RecordedEvent } from '@app/platform';

import { automationRunDecider, type RunCommand, type RunResult } from './automation-run.decider';
import type { AutomationRunEvent } from './automation-run.events';
import { type AutomationRunDoc, automationRunProjection } from './automation-run.projection';

const WS = 'ws_1';
const now = new Date('2026-11-24T12:00:00.000Z');
const at = now.toISOString();
const run = { runId: 'aur_1', automationId: 'au_1', trigger: { eventId: 'evt_1', type: 'offer.created', position: 7, at }, depth: 0, actionType: 'accept_offer' };
const stream = 'automation_run-au_1-00000000-0000-4000-8000-000000000007';

function history(...commands: RunCommand[]): RecordedEvent[] {
  const events: AutomationRunEvent[] = [];
  for (const command of commands) {
    const state = events.reduce(automationRunDecider.evolve, automationRunDecider.initialState);
    events.push(...automationRunDecider.decide(command, state));
  }
  return events.map((e, revision) => ({
    id: `00000000-0000-4000-8000-${String(100 + revision).padStart(12, '0')}`,
    type: e.type,
    data: e.data,
    metadata: { workspaceId: WS, schemaVersion: 1 },
    streamId: stream,
    revision,
    position: 100 + revision,
    createdAt: at,
  }));
}

function project(events: readonly RecordedEvent[], start: AutomationRunDoc | null = null): AutomationRunDoc | null {
  return events.reduce((doc, event) => evolveDocument(automationRunProjection.evolve, doc, event, automationRunProjection.documentId(event)), start);
}

describe('automation runs read model (evolve)', () => {
  it('follows the log (not applied by the write)', () => {
    expect(automationRunProjection.inline).toBe(false);
  });

  it('given a run started, then its document: running, nothing caused yet', () => {
    expect(project(history({ type: 'StartRun', run, now }))).toEqual({
      id: 'au_1-00000000-0000-4000-8000-000000000007',
      revision: 0,
      workspaceId: WS,
      ...run,
      outcome: 'running',
      effect: null,
      reason: null,
      caused: [],
      error: null,
      startedAt: at,
      finishedAt: null,
    });
  });

  const finishes: Array<[RunResult, Partial<AutomationRunDoc>]> = [
    [{ outcome: 'succeeded', effect: 'accept', caused: [{ id: 'evt_2', type: 'offer.accepted' }] }, { outcome: 'succeeded', effect: 'accept', caused: [{ id: 'evt_2', type: 'offer.accepted' }] }],
    [{ outcome: 'skipped', reason: 'below 90 %' }, { outcome: 'skipped', reason: 'below 90 %', effect: null }],
    [{ outcome: 'failed', error: { code: 'AUTOMATION_CHAIN_TOO_DEEP', message: 'too deep' } }, { outcome: 'failed', error: { code: 'AUTOMATION_CHAIN_TOO_DEEP', message: 'too deep' } }],
  ];
  it.each(finishes)('given a run finished (%j), then its outcome and when it finished', (result, expected) => {
    const doc = project(history({ type: 'StartRun', run, now }, { type: 'FinishRun', result, now }));
    expect(doc).toMatchObject({ ...expected, revision: 1, finishedAt: at });
  });

  it('an outcome without its start makes no document', () => {
    const [, finished] = history({ type: 'StartRun', run, now }, { type: 'FinishRun', result: { outcome: 'skipped', reason: 'x' }, now });
    expect(project([finished])).toBeNull();
  });

  it('applying an event twice is applying it once', () => {
    const events = history({ type: 'StartRun', run, now }, { type: 'FinishRun', result: { outcome: 'skipped', reason: 'x' }, now });
    const once = project(events);
    expect(project(events, once)).toBe(once);
  });
});
