// The automation run aggregate as the write path runs it.
import { automationRunDecider } from './automation-run.decider';
import { parseAutomationRunEvent } from './automation-run.events';

export const automationRunAggregate = { decider: automationRunDecider, parseEvent: parseAutomationRunEvent };
