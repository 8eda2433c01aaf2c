// The service's signing keys: the first key, a rotation (retire the active key, add the new one),
// idempotent re-adds of the active key, and a retired key that never comes back.
import { fold } from '@app/platform/domain';
import { deciderSpec } from '@app/testing/support/decider-spec';

import { type KeyringCommand, keyringDecider } from './keyring.decider';
import type { KeyringEvent, SigningKeyAdded } from './keyring.events';

const spec = deciderSpec(keyringDecider);
const now = new Date('2026-11-24T12:00:00.000Z');

const key = (n: number, source: SigningKeyAdded['source'] = 'generated'): SigningKeyAdded => ({
  kid: `did:key:z6Mk${n}#z6Mk${n}`,
  publicKey: `pk${n}`,
  sealedSecretKey: source === 'env' ? null : `sealed${n}`,
  source,
  addedAt: `2026-0${n}-01T00:00:00.000Z`,
});
const add = (k: SigningKeyAdded, ifNone?: boolean): KeyringCommand => ({ type: 'AddKey', key: k, now, ...(ifNone === undefined ? {} : { ifNone }) });
const added = (k: SigningKeyAdded): KeyringEvent => ({ type: 'trust.signing_key_added', data: k });
const retired = (k: SigningKeyAdded, retiredAt = now.toISOString()): KeyringEvent => ({ type: 'trust.signing_key_retired', data: { kid: k.kid, retiredAt } });

const k1 = key(1);
const k2 = key(2);
const k3 = key(3, 'env');

describe('keyring decider', () => {
  it('adds the first key', () => {
    spec.given([]).when(add(k1)).then([added(k1)]);
    spec.given([]).when(add(k1, true)).then([added(k1)]);
  });

  it('adds nothing with ifNone when a key is already active (the loser of a race adopts the winner)', () => {
    spec.given([added(k1)]).when(add(k2, true)).then([]);
  });

  it('adds nothing when the key is the active one already', () => {
    spec.given([added(k1)]).when(add(k1)).then([]);
    spec.given([added(k1)]).when(add(k1, true)).then([]);
    spec.given([added(k1), retired(k1), added(k2)]).when(add(k2)).then([]);
  });

  it('rotates: a new key retires the active one, then is added', () => {
    spec.given([added(k1)]).when(add(k2)).then([retired(k1), added(k2)]);
    spec.given([added(k1), retired(k1), added(k2)]).when(add(k3)).then([retired(k2), added(k3)]);
  });

  it('refuses a retired key', () => {
    spec.given([added(k1), retired(k1), added(k2)]).when(add(k1)).thenThrows('CONFLICT', `Signing key ${k1.kid} was retired`);
    // Even when no key is active any more, and with ifNone.
    spec.given([added(k1), retired(k1)]).when(add(k1)).thenThrows('CONFLICT', 'retired');
    spec.given([added(k1), retired(k1)]).when(add(k1, true)).thenThrows('CONFLICT', 'retired');
  });

  it('adds a key after the active one was retired, with nothing more to retire', () => {
    spec.given([added(k1), retired(k1)]).when(add(k2)).then([added(k2)]);
  });

  describe('evolve', () => {
    it('lists every key, keeps when each was retired, and follows the active one', () => {
      expect(fold(keyringDecider, [])).toEqual({ keys: [], active: null });
      expect(fold(keyringDecider, [added(k1)])).toEqual({ keys: [{ ...k1, retiredAt: null }], active: k1.kid });
      const state = fold(keyringDecider, [added(k1), retired(k1, '2026-03-01T00:00:00.000Z'), added(k2), retired(k2, '2026-06-01T00:00:00.000Z'), added(k3)]);
      expect(state).toEqual({
        keys: [
          { ...k1, retiredAt: '2026-03-01T00:00:00.000Z' },
          { ...k2, retiredAt: '2026-06-01T00:00:00.000Z' },
          { ...k3, retiredAt: null },
        ],
        active: k3.kid,
      });
    });

    it('leaves no active key when the active one is retired, and keeps it when another is', () => {
      expect(fold(keyringDecider, [added(k1), retired(k1)]).active).toBeNull();
      expect(fold(keyringDecider, [added(k1), retired(k1), added(k2), retired(k1, '2027-01-01T00:00:00.000Z')]).active).toBe(k2.kid);
    });
  });
});
