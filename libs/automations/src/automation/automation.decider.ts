// Automation rules: created active; an update replaces what the rule is (name, trigger, action,
// enabled, and the key it acts for); archiving ends it for good (it never fires again, its runs stay
// readable). Archiving again is a no-op, and so is an update that changes nothing. Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { AutomationEvent, AutomationRule, AutomationStatus } from './automation.events';

export interface CreateAutomation {
  type: 'CreateAutomation';
  automationId: string;
  rule: AutomationRule;
  now: Date;
}
export interface UpdateAutomation {
  type: 'UpdateAutomation';
  automationId: string;
  rule: AutomationRule;
  now: Date;
}
export interface ArchiveAutomation {
  type: 'ArchiveAutomation';
  automationId: string;
  now: Date;
}
export type AutomationCommand = CreateAutomation | UpdateAutomation | ArchiveAutomation;

export type AutomationState = { status: 'none' } | { status: AutomationStatus; automationId: string; rule: AutomationRule };

/** The fields a client sets (the key and its scopes follow whoever set them last). */
const CLIENT_FIELDS = ['name', 'trigger', 'action', 'enabled'] as const;

export const automationDecider: Decider<AutomationCommand, AutomationEvent, AutomationState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateAutomation':
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Automation ${command.automationId} already exists`);
        return [{ type: 'automation.created', data: { automationId: command.automationId, ...command.rule, createdAt: command.now.toISOString() } }];
      case 'UpdateAutomation': {
        const current = existing(state, command.automationId);
        if (current.status === 'archived') {
          throw new DomainError('INVALID_TRANSITION', `Automation ${command.automationId} is archived: it can no longer be changed`, { status: 'archived' });
        }
        const changed = CLIENT_FIELDS.filter((f) => JSON.stringify(current.rule[f]) !== JSON.stringify(command.rule[f]));
        if (changed.length === 0) return [];
        return [{ type: 'automation.updated', data: { automationId: command.automationId, ...command.rule, changed, updatedAt: command.now.toISOString() } }];
      }
      case 'ArchiveAutomation': {
        const current = existing(state, command.automationId);
        if (current.status === 'archived') return [];
        return [{ type: 'automation.archived', data: { automationId: command.automationId, archivedAt: command.now.toISOString() } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'automation.created': {
        const { automationId, createdAt: _at, ...rule } = event.data;
        return { status: 'active', automationId, rule };
      }
      case 'automation.updated': {
        if (state.status === 'none') return state;
        const { automationId: _id, changed: _c, updatedAt: _at, ...rule } = event.data;
        return { ...state, rule };
      }
      case 'automation.archived':
        return state.status === 'none' ? state : { ...state, status: 'archived' };
      default:
        return state;
    }
  },
};

function existing(state: AutomationState, id: string): Exclude<AutomationState, { status: 'none' }> {
  if (state.status === 'none') throw new DomainError('NOT_FOUND', `No automation with id ${id}`);
  return state;
}
