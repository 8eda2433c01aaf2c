import { deciderSpec } from '@app/testing/support/decider-spec';

import { automationDecider } from './automation.decider';
import type { AutomationEvent, AutomationRule } from './automation.events';

const now = new Date('2026-11-24T12:00:00.000Z');
const at = now.toISOString();

const rule: AutomationRule = {
  name: 'accept at 90 %',
  trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] },
  action: { type: 'accept_offer', params: { minPercentOfList: 90 } },
  enabled: true,
  keyId: 'key_1',
  scopes: ['write:trades'],
};

describe('automation rule decider', () => {
  const spec = deciderSpec(automationDecider);
  const created: AutomationEvent = { type: 'automation.created', data: { automationId: 'au_1', ...rule, createdAt: at } };
  const archived: AutomationEvent = { type: 'automation.archived', data: { automationId: 'au_1', archivedAt: at } };

  it('creates a rule, once', () => {
    spec.given([]).when({ type: 'CreateAutomation', automationId: 'au_1', rule, now }).then([created]);
    spec.given([created]).when({ type: 'CreateAutomation', automationId: 'au_1', rule, now }).thenThrows('CONFLICT');
  });

  it('updates what changed, naming it; an update that changes nothing is a no-op', () => {
    const disabled = { ...rule, enabled: false, keyId: 'key_2' };
    spec.given([created]).when({ type: 'UpdateAutomation', automationId: 'au_1', rule: disabled, now }).then([
      { type: 'automation.updated', data: { automationId: 'au_1', ...disabled, changed: ['enabled'], updatedAt: at } },
    ]);
    spec.given([created]).when({ type: 'UpdateAutomation', automationId: 'au_1', rule, now }).then([]);
    spec.given([]).when({ type: 'UpdateAutomation', automationId: 'au_1', rule, now }).thenThrows('NOT_FOUND');
  });

  it('archives once; an archived rule cannot change; archiving again is a no-op', () => {
    spec.given([created]).when({ type: 'ArchiveAutomation', automationId: 'au_1', now }).then([archived]);
    spec.given([created, archived]).when({ type: 'ArchiveAutomation', automationId: 'au_1', now }).then([]);
    spec.given([created, archived]).when({ type: 'UpdateAutomation', automationId: 'au_1', rule: { ...rule, name: 'x' }, now }).thenThrows('INVALID_TRANSITION', 'archived');
    spec.given([]).when({ type: 'ArchiveAutomation', automationId: 'au_1', now }).thenThrows('NOT_FOUND');
  });
});
