// Command handlers for automation rules: create, update (what the rule is, validated as on create)
// and archive. The trigger must be a public event type the service emits, its conditions must name
// fields of that event's public data, and the event must name what the action acts on (e.g. an
// `offer_id` for an offer action). The rule records the key that set it and its scopes.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, PUBLIC_EVENT_CATALOGUE, type PublicEventCatalogue } from '@app/platform';
import { DomainError, handleCommand, type ValidationIssue } from '@app/platform/domain';

import { ACTION_TARGETS } from './automation.actions';
import { automationAggregate } from './automation.aggregate';
import type { AutomationRule } from './automation.events';
import { automationStream } from './automation.events';

export interface RuleResult {
  id: string;
  position: number;
}

export class CreateAutomationCommand extends Command<RuleResult> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly rule: AutomationRule,
    readonly correlationId?: string,
  ) {
    super();
  }
}

/** The rule as it would be after `patch` (the key and scopes become the patching key's). */
export type AutomationPatch = (current: AutomationRule) => AutomationRule;

export class UpdateAutomationCommand extends Command<RuleResult> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly patch: AutomationPatch,
    readonly correlationId?: string,
  ) {
    super();
  }
}

export class ArchiveAutomationCommand extends Command<RuleResult> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly correlationId?: string,
  ) {
    super();
  }
}

/** Refuses (400 VALIDATION_FAILED) a rule whose trigger, conditions or action do not fit together. */
export function validateRule(catalogue: PublicEventCatalogue, rule: AutomationRule): void {
  const entry = catalogue.entries.find((e) => e.type === rule.trigger.event);
  if (!entry || !entry.toData) {
    const known = catalogue.entries.filter((e) => e.toData).map((e) => e.type);
    throw DomainError.validation(`Unknown trigger event "${rule.trigger.event}"`, [{ path: 'trigger.event', message: `must be one of ${known.join(', ')}` }]);
  }
  const issues: ValidationIssue[] = [];
  rule.trigger.conditions.forEach((c, i) => {
    if (!Object.hasOwn(entry.data, c.field)) issues.push({ path: `trigger.conditions.${i}.field`, message: `is not a field of ${entry.type} (${Object.keys(entry.data).join(', ')})` });
    if (c.op === 'in' && !Array.isArray(c.value)) issues.push({ path: `trigger.conditions.${i}.value`, message: 'must be an array for `in`' });
    if (c.op !== 'in' && Array.isArray(c.value)) issues.push({ path: `trigger.conditions.${i}.value`, message: `must not be an array for \`${c.op}\`` });
  });
  for (const field of ACTION_TARGETS[rule.action.type]) {
    if (!Object.hasOwn(entry.data, field)) {
      issues.push({ path: 'action.type', message: `${rule.action.type} acts on the event's ${field}, and ${entry.type} has none` });
    }
  }
  if (issues.length > 0) throw DomainError.validation(`Invalid automation: ${issues[0].path} ${issues[0].message}`, issues);
}

@CommandHandler(CreateAutomationCommand)
export class CreateAutomationHandler implements ICommandHandler<CreateAutomationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
  ) {}

  async execute({ workspaceId, actor, rule, correlationId }: CreateAutomationCommand): Promise<RuleResult> {
    validateRule(this.catalogue, rule);
    const id = this.ids.next('au');
    const result = await handleCommand(
      this.events,
      automationStream(id),
      automationAggregate,
      { type: 'CreateAutomation', automationId: id, rule, now: this.clock.now() },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    return { id, position: result.position ?? 0 };
  }
}

@CommandHandler(UpdateAutomationCommand)
export class UpdateAutomationHandler implements ICommandHandler<UpdateAutomationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
  ) {}

  async execute({ workspaceId, actor, id, patch, correlationId }: UpdateAutomationCommand): Promise<RuleResult> {
    const result = await handleCommand(
      this.events,
      automationStream(id),
      automationAggregate,
      (state) => {
        if (state.status === 'none') throw new DomainError('NOT_FOUND', `No automation with id ${id}`);
        const rule = patch(state.rule);
        validateRule(this.catalogue, rule);
        return { type: 'UpdateAutomation' as const, automationId: id, rule, now: this.clock.now() };
      },
      { workspaceId, actor, correlationId },
    );
    return { id, position: result.position ?? 0 };
  }
}

@CommandHandler(ArchiveAutomationCommand)
export class ArchiveAutomationHandler implements ICommandHandler<ArchiveAutomationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, id, correlationId }: ArchiveAutomationCommand): Promise<RuleResult> {
    const result = await handleCommand(
      this.events,
      automationStream(id),
      automationAggregate,
      { type: 'ArchiveAutomation', automationId: id, now: this.clock.now() },
      { workspaceId, actor, correlationId },
    );
    return { id, position: result.position ?? 0 };
  }
}

export const AUTOMATION_COMMAND_HANDLERS = [CreateAutomationHandler, UpdateAutomationHandler, ArchiveAutomationHandler];
