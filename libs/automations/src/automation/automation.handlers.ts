// Command handlers for automation rules: create, update (what the rule is, validated as on create)
// and archive. The trigger must be a public event type the service emits, its conditions must name
// fields of that event's public data, and the event must name what the action acts on (e.g. an
// `offer_id` for an offer action). The rule records the key that set it and its scopes. Each
// answers the rule's document as its own write left it (the read model is inline), or as the log
// holds it when the write changed nothing.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  ID_GENERATOR,
  type IdGenerator,
  type InlineDocuments,
  InlineProjections,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEventCatalogue,
} from '@app/platform';
import { DomainError, handleCommand, type ValidationIssue } from '@app/platform/domain';

import { ACTION_TARGETS } from '../actions/automation.actions';
import { automationAggregate } from './automation.aggregate';
import type { AutomationRule } from './automation.events';
import { automationStream } from './automation.events';
import { type AutomationDoc, automationProjection } from './automation.projection';

/** The rule's document as a write left it (or as the log holds it); none is a bug, not a missing rule. */
async function ruleAfter(inline: InlineProjections, id: string, documents: InlineDocuments | null): Promise<AutomationDoc> {
  const doc = await inline.document(automationProjection, automationStream(id), documents);
  if (!doc) throw new Error(`Automation ${id} was decided on, yet its read model has no document`);
  return doc;
}

export class CreateAutomationCommand extends Command<AutomationDoc> {
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

export class UpdateAutomationCommand extends Command<AutomationDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly patch: AutomationPatch,
    readonly correlationId?: string,
    /** `If-Match`: the rule's revision the change was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

/** Throws when the key archiving the rule could not do what the rule does (its action's scope). */
export type AutomationGate = (current: AutomationRule) => void;

export class ArchiveAutomationCommand extends Command<AutomationDoc> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly mayArchive: AutomationGate,
    readonly correlationId?: string,
    /** `If-Match`: the rule's revision the archive was decided on. */
    readonly ifMatch?: number,
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
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, actor, rule, correlationId }: CreateAutomationCommand): Promise<AutomationDoc> {
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
    return ruleAfter(this.inline, id, result.documents);
  }
}

@CommandHandler(UpdateAutomationCommand)
export class UpdateAutomationHandler implements ICommandHandler<UpdateAutomationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly inline: InlineProjections,
  ) {}

  /** The rule after the change; a change that changes nothing answers it as the log holds it. */
  async execute({ workspaceId, actor, id, patch, correlationId, ifMatch }: UpdateAutomationCommand): Promise<AutomationDoc> {
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
      { ifMatch },
    );
    return ruleAfter(this.inline, id, result.documents);
  }
}

@CommandHandler(ArchiveAutomationCommand)
export class ArchiveAutomationHandler implements ICommandHandler<ArchiveAutomationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inline: InlineProjections,
  ) {}

  /** The archived rule, judged on its stream (the key may archive what it could do); again: as it is. */
  async execute({ workspaceId, actor, id, mayArchive, correlationId, ifMatch }: ArchiveAutomationCommand): Promise<AutomationDoc> {
    const result = await handleCommand(
      this.events,
      automationStream(id),
      automationAggregate,
      (state) => {
        if (state.status === 'none') throw new DomainError('NOT_FOUND', `No automation with id ${id}`);
        mayArchive(state.rule);
        return { type: 'ArchiveAutomation' as const, automationId: id, now: this.clock.now() };
      },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    return ruleAfter(this.inline, id, result.documents);
  }
}

export const AUTOMATION_COMMAND_HANDLERS = [CreateAutomationHandler, UpdateAutomationHandler, ArchiveAutomationHandler];
