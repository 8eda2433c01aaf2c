// The automation rule and run aggregates as the write path runs them.
import { automationRunDecider } from './automation-run.decider';
import { parseAutomationRunEvent } from './automation-run.events';
import { automationDecider } from './automation.decider';
import { parseAutomationEvent } from './automation.events';

export const automationAggregate = { decider: automationDecider, parseEvent: parseAutomationEvent };
export const automationRunAggregate = { decider: automationRunDecider, parseEvent: parseAutomationRunEvent };
