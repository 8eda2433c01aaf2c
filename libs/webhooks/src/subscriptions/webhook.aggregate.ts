// The webhook subscription aggregate as handleCommand runs it.
import { webhookDecider } from './webhook.decider';
import { parseWebhookSubscriptionEvent } from './webhook.events';

export const webhookAggregate = { decider: webhookDecider, parseEvent: parseWebhookSubscriptionEvent };
