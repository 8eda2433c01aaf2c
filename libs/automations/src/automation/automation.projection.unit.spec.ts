// The rules' read model, given/when/then: given a rule's events (as its decider makes them), then
// its document. Applying an event twice is applying it once.
import { evolveDocument, type RecordedEvent } from '@app/platform';

import { automationDecider, type AutomationCommand } from './automation.decider';
import type { AutomationEvent, AutomationRule } from './automation.events';
import { type AutomationDoc, automationProjection } from './automation.projection';

const WS = 'ws_1';
const now = new Date('2026-11-24T12:00:00.000Z');
const later = new Date('2026-11-25T12:00:00.000Z');
const rule: AutomationRule = {
  name: 'accept at 90 %',
  trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] },
  action: { type: 'accept_offer', params: { minPercentOfList: 90 } },
  enabled: true,
  keyId: 'key_1',
  scopes: ['write:trades'],
};

/** The stream's events as recorded, one command after another, decided on what came before. */
function history(...commands: AutomationCommand[]): RecordedEvent[] {
  const events: AutomationEvent[] = [];
  for (const command of commands) {
    const state = events.reduce(automationDecider.evolve, automationDecider.initialState);
    events.push(...automationDecider.decide(command, state));
  }
  return events.map((e, revision) => ({
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    type: e.type,
    data: e.data,
    metadata: { workspaceId: WS, schemaVersion: 1 },
    streamId: 'automation-au_1',
    revision,
    position: 40 + revision,
    createdAt: now.toISOString(),
  }));
}

function project(events: readonly RecordedEvent[], start: AutomationDoc | null = null): AutomationDoc | null {
  return events.reduce((doc, event) => evolveDocument(automationProjection.evolve, doc, event, automationProjection.documentId(event)), start);
}

describe('automations read model (evolve)', () => {
  it('is the rule routes\' own read model, applied by the write', () => {
    expect(automationProjection.inline).toBe(true);
  });

  it('given a rule created, then its document: active, its trigger event top-level, the log position it was made at', () => {
    expect(project(history({ type: 'CreateAutomation', automationId: 'au_1', rule, now }))).toEqual({
      id: 'au_1',
      revision: 0,
      workspaceId: WS,
      ...rule,
      triggerEvent: 'offer.created',
      status: 'active',
      createdPosition: 40,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      archivedAt: null,
    });
  });

  it('given an update and an archive, then the new rule, archived; the position it was made at stays', () => {
    const changed: AutomationRule = { ...rule, trigger: { event: 'offer.countered', conditions: [] }, enabled: false };
    const doc = project(
      history(
        { type: 'CreateAutomation', automationId: 'au_1', rule, now },
        { type: 'UpdateAutomation', automationId: 'au_1', rule: changed, now: later },
        { type: 'ArchiveAutomation', automationId: 'au_1', now: later },
      ),
    );
    expect(doc).toMatchObject({
      revision: 2,
      trigger: changed.trigger,
      triggerEvent: 'offer.countered',
      enabled: false,
      status: 'archived',
      createdPosition: 40,
      updatedAt: later.toISOString(),
      archivedAt: later.toISOString(),
    });
  });

  it('applying an event twice is applying it once', () => {
    const events = history({ type: 'CreateAutomation', automationId: 'au_1', rule, now }, { type: 'ArchiveAutomation', automationId: 'au_1', now: later });
    const once = project(events);
    expect(project(events, once)).toBe(once);
  });
});
