// Automation rules as a process manager on the log. For each public event (in log order, after the
// read models include it; the public events a stored event stands for in their order), the rules of its workspace on its type that are enabled, older than the
// event, and whose conditions its public data meets, fire:
//
// 1. claim: the run's stream is created with `no_stream` (one per rule and event). Found already:
//    the rule fired on this event before (a replay after a crash, a restart, a rebuilt read model),
//    and it never fires again: at most once. (A claim without an outcome — a crash mid-action — is
//    closed as failed AUTOMATION_INTERRUPTED, since whether the action took effect is unknown.)
// 2. checks: the chain depth (how many automation actions led to the event) under the bound, and
//    the scopes the rule recorded granting the action; else a failed run, no effect.
// 3. the action's plan (ActionPlanner), then its command inside a causation scope: every event it
//    appends carries causationId = the triggering event and `metadata.automation` {automationId,
//    runId, depth}. A rule never fires on its own action's events; a chain deeper than the bound
//    stops with a recorded error.
// 4. the outcome: succeeded (the events caused), skipped (why) or failed (the error).
//
// Runs are internal events: never delivered by webhooks, read through GET /automations/:id/runs.
// Each run records the trigger's append time and its own start and finish, so the lag from a
// triggering event to the automation's effect is measurable (`lagMs` on a run).
import { Inject, Injectable, Logger } from '@nestjs/common';

import {
  APP_CONFIG,
  type AppConfig,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  grants,
  ID_GENERATOR,
  type IdGenerator,
  isScope,
  mapError,
  type ProcessManager,
  PUBLIC_EVENT_CATALOGUE,
  type PublicEventCatalogue,
  type PublicEventOf,
  publicEventId,
  READ_STORE,
  type ReadStore,
  type RecordedEvent,
} from '@app/platform';
import { DomainError, handleCommand, withCausation, WrongExpectedRevisionError } from '@app/platform/domain';

import { ACTION_SCOPE, meetsConditions } from '../actions/automation.actions';
import { ActionPlanner, type Plan } from '../actions/automation.planner';
import { type AutomationDoc, AUTOMATIONS } from '../automation/automation.projection';
import { automationRunAggregate } from './automation-run.aggregate';
import type { RunResult } from './automation-run.decider';
import { automationRunStream, type RunError } from './automation-run.events';

export const AUTOMATION_RUNNER = 'automations';

/** What an automation's action writes into the metadata of every event it appends. */
export interface AutomationCause {
  automationId: string;
  runId: string;
  /** 1 for an action on an event no automation caused, and one more per automation before it. */
  depth: number;
}

/**
 * A public event as the rules see it: its stored event (id, position, metadata: the cause) under
 * the public type, with its key (`PublicEventOf.eventId`: the stored id, or derived for a fan-out).
 */
export type Trigger = RecordedEvent & { publicKey: string };

export function asTrigger(event: RecordedEvent, published: PublicEventOf): Trigger {
  return { ...event, type: published.type, publicKey: published.eventId };
}

export function automationCauseOf(event: RecordedEvent): AutomationCause | null {
  const cause = event.metadata.automation as Partial<AutomationCause> | undefined;
  if (!cause || typeof cause.automationId !== 'string' || typeof cause.depth !== 'number') return null;
  return { automationId: cause.automationId, runId: String(cause.runId), depth: cause.depth };
}

/** Whether the rule fires on the event at all (before any claim): enabled, older, conditions met, not its own effect. */
export function firesOn(rule: AutomationDoc, event: RecordedEvent, data: Readonly<Record<string, unknown>>): boolean {
  if (rule.status !== 'active' || !rule.enabled || rule.workspaceId !== event.metadata.workspaceId) return false;
  if (rule.trigger.event !== event.type || rule.createdPosition >= event.position) return false;
  if (automationCauseOf(event)?.automationId === rule.id) return false;
  return meetsConditions(data, rule.trigger.conditions);
}

/** The checks made when a rule fires, before its plan: the chain's bound and the recorded scopes. */
export function refusal(rule: AutomationDoc, event: RecordedEvent, maxDepth: number): RunError | null {
  const depth = automationCauseOf(event)?.depth ?? 0;
  if (depth >= maxDepth) {
    return {
      code: 'AUTOMATION_CHAIN_TOO_DEEP',
      message: `The triggering event is the effect of a chain of ${depth} automation actions; at most ${maxDepth} may follow one another`,
      details: { depth, maxDepth },
    };
  }
  const required = ACTION_SCOPE[rule.action.type];
  if (!isScope(required) || !grants(rule.scopes, required)) {
    return { code: 'INSUFFICIENT_SCOPE', message: `The key that set this rule lacks the scope its action needs: ${required}`, details: { requiredScope: required } };
  }
  return null;
}

export function runErrorOf(error: unknown): RunError {
  const mapped = mapError(error);
  if (mapped.unexpected) return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
  return { code: mapped.body.code, message: mapped.body.message, ...(mapped.body.details ? { details: mapped.body.details } : {}) };
}

@Injectable()
export class AutomationRunner implements ProcessManager {
  readonly name = AUTOMATION_RUNNER;
  readonly eventTypes: readonly string[];
  private readonly logger = new Logger(AUTOMATION_RUNNER);

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
    private readonly planner: ActionPlanner,
  ) {
    this.eventTypes = catalogue.storedTypes();
  }

  async handle(batch: readonly RecordedEvent[]): Promise<void> {
    // The rules of a workspace on a type, read once per batch.
    const rules = new Map<string, Promise<AutomationDoc[]>>();
    for (const event of batch) {
      for (const published of this.catalogue.publicEvents(event)) {
        const key = `${event.metadata.workspaceId}\u0000${published.type}`;
        if (!rules.has(key)) rules.set(key, this.rulesOn(event.metadata.workspaceId, published.type));
        const trigger = asTrigger(event, published);
        for (const rule of await rules.get(key)!) {
          if (firesOn(rule, trigger, published.data)) await this.fire(rule, trigger, published.data);
        }
      }
    }
  }

  private async rulesOn(workspaceId: string, type: string): Promise<AutomationDoc[]> {
    const page = await this.reads.collection<AutomationDoc>(AUTOMATIONS).find({ workspaceId, triggerEvent: type, status: 'active' }, { limit: 1000 });
    return page.items;
  }

  private async fire(rule: AutomationDoc, event: Trigger, data: Readonly<Record<string, unknown>>): Promise<void> {
    const runId = this.ids.next('aur');
    // One run per rule and public event (its key: the stored event's id, or derived for a fan-out).
    const streamId = automationRunStream(rule.id, event.publicKey);
    const depth = automationCauseOf(event)?.depth ?? 0;
    const metadata = { workspaceId: rule.workspaceId, actor: rule.id, causationId: event.id, correlationId: event.metadata.correlationId };
    try {
      await handleCommand(
        this.events,
        streamId,
        automationRunAggregate,
        {
          type: 'StartRun',
          run: {
            runId,
            automationId: rule.id,
            trigger: { eventId: publicEventId(event.publicKey), type: event.type, position: event.position, at: event.createdAt },
            depth,
            actionType: rule.action.type,
          },
          now: this.clock.now(),
        },
        metadata,
        { newStream: true, maxAttempts: 1 },
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError || (error instanceof DomainError && error.code === 'CONFLICT'))) throw error;
      // Claimed before: never again. A claim left without an outcome is closed as interrupted.
      await this.finish(streamId, metadata, {
        outcome: 'failed',
        error: { code: 'AUTOMATION_INTERRUPTED', message: 'The run stopped between its claim and its outcome; whether its action took effect is unknown' },
      });
      return;
    }
    await this.finish(streamId, metadata, await this.act(rule, event, data, runId, depth));
  }

  private async act(rule: AutomationDoc, event: RecordedEvent, data: Readonly<Record<string, unknown>>, runId: string, depth: number): Promise<RunResult> {
    const refused = refusal(rule, event, this.config.AUTOMATION_MAX_CHAIN_DEPTH);
    if (refused) return { outcome: 'failed', error: refused };
    try {
      const plan: Plan = await this.planner.plan(rule.workspaceId, rule.action, data);
      if (plan.kind === 'skip') return { outcome: 'skipped', reason: plan.reason };
      const cause: AutomationCause = { automationId: rule.id, runId, depth: depth + 1 };
      const { caused } = await withCausation({ causationId: event.id, correlationId: event.metadata.correlationId, metadata: { automation: cause } }, () =>
        plan.execute(rule.id),
      );
      return { outcome: 'succeeded', effect: plan.effect, caused: caused.map((c) => ({ id: publicEventId(c.id), type: c.type })) };
    } catch (error) {
      const recorded = runErrorOf(error);
      if (recorded.code === 'INTERNAL') this.logger.error(`automation ${rule.id} failed on ${event.id}`, error instanceof Error ? error.stack : error);
      return { outcome: 'failed', error: recorded };
    }
  }

  private async finish(streamId: string, metadata: { workspaceId: string; actor: string; causationId: string; correlationId?: string }, result: RunResult): Promise<void> {
    await handleCommand(this.events, streamId, automationRunAggregate, { type: 'FinishRun', result, now: this.clock.now() }, metadata);
  }
}
