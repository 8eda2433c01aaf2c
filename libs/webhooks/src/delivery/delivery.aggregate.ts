// The delivery aggregate as the write path runs it (the fan-out, the worker and replays write it).
import { deliveryDecider } from './delivery.decider';
import { parseDeliveryEvent } from './delivery.events';

export const deliveryAggregate = { decider: deliveryDecider, parseEvent: parseDeliveryEvent };
