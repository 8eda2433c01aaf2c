// The automation rule aggregate as the write path runs it.
import { automationDecider } from './automation.decider';
import { parseAutomationEvent } from './automation.events';

export const automationAggregate = { decider: automationDecider, parseEvent: parseAutomationEvent };
