// The service's signing keys: one active key signs; adding a key retires the active one (a
// rotation). Adding the key that is already active changes nothing (two processes generating the
// first key at once: the loser adopts the winner's); a key once retired never signs again. Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { KeyringEvent, SigningKeyAdded } from './keyring.events';

export interface KeyringKey extends SigningKeyAdded {
  retiredAt: string | null;
}

export interface KeyringState {
  keys: KeyringKey[];
  active: string | null;
}

export type KeyringCommand =
  | { type: 'AddKey'; key: SigningKeyAdded; /** Only when there is no active key yet (the first key). */ ifNone?: boolean; now: Date };

export const keyringDecider: Decider<KeyringCommand, KeyringEvent, KeyringState> = {
  initialState: { keys: [], active: null },

  decide(command, state) {
    const { key } = command;
    if (state.active === key.kid) return [];
    if (command.ifNone && state.active !== null) return [];
    if (state.keys.some((k) => k.kid === key.kid)) {
      throw new DomainError('CONFLICT', `Signing key ${key.kid} was retired: a retired key never signs again`);
    }
    const events: KeyringEvent[] = [];
    if (state.active !== null) events.push({ type: 'trust.signing_key_retired', data: { kid: state.active, retiredAt: command.now.toISOString() } });
    events.push({ type: 'trust.signing_key_added', data: key });
    return events;
  },

  evolve(state, event) {
    switch (event.type) {
      case 'trust.signing_key_added':
        return { keys: [...state.keys, { ...event.data, retiredAt: null }], active: event.data.kid };
      case 'trust.signing_key_retired':
        return {
          keys: state.keys.map((k) => (k.kid === event.data.kid ? { ...k, retiredAt: event.data.retiredAt } : k)),
          active: state.active === event.data.kid ? null : state.active,
        };
      default:
        return state;
    }
  },
};
