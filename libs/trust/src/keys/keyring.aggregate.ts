// The keyring aggregate as the write path runs it.
import { keyringDecider } from './keyring.decider';
import { parseKeyringEvent } from './keyring.events';

export const keyringAggregate = { decider: keyringDecider, parseEvent: parseKeyringEvent };
