// The inventory item aggregate as the write path runs it (its handlers and intake pushes write it).
import { inventoryDecider } from './inventory.decider';
import { parseInventoryEvent } from './inventory.events';

export const inventoryAggregate = { decider: inventoryDecider, parseEvent: parseInventoryEvent };
