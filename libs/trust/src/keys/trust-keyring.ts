// The service's signing keys as the rest of trust uses them: the active key (its secret opened
// from the SecretBox, or taken from TRUST_SIGNING_KEY), the first one generated on first need, a
// rotation, and the keys still listed for verifiers. The keyring lives in the log (one small
// stream), so every process — API, worker, CLI — and every machine sees the same keys, and a
// rotation is an event. The secret is never logged; what is kept of it is sealed.
import { Inject, Injectable, Optional } from '@nestjs/common';

import { APP_CONFIG, type AppConfig, CLOCK, type Clock, decodeSecretKey, EVENT_STORE, type EventStore, SECRET_BOX, type SecretBox } from '@app/platform';
import { DomainError, handleCommand, loadStream } from '@app/platform/domain';

import { keyForms, newSecretKey, type PublicKeyForms, publicKeyOf } from '../credential/ed25519';
import { keyringAggregate } from './keyring.aggregate';
import type { KeyringKey, KeyringState } from './keyring.decider';
import { KEYRING_STREAM, SERVICE_WORKSPACE, type SigningKeyAdded } from './keyring.events';

export interface SigningKey {
  kid: string;
  secretKey: Uint8Array;
}

export interface ListedKey extends PublicKeyForms {
  status: 'active' | 'retired';
  addedAt: string;
  retiredAt: string | null;
}

const METADATA = { workspaceId: SERVICE_WORKSPACE, actor: 'trust-keyring' };
const sealContext = (kid: string) => `trust_signing_key:${kid}`;

@Injectable()
export class TrustKeyring {
  private readonly envKey: Uint8Array | null;
  private listedCache: { at: number; keys: ListedKey[] } | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(SECRET_BOX) private readonly box?: SecretBox,
  ) {
    const env = config.TRUST_SIGNING_KEY ? decodeSecretKey(config.TRUST_SIGNING_KEY) : undefined;
    this.envKey = env ? new Uint8Array(env) : null;
  }

  /** The key that signs now; the first use makes one (or records TRUST_SIGNING_KEY's). */
  async signingKey(): Promise<SigningKey> {
    let state = await this.load();
    if (this.envKey) {
      const kid = keyForms(publicKeyOf(this.envKey)).kid;
      if (state.active !== kid) state = await this.add(this.envKey, 'env', false);
      return { kid, secretKey: this.envKey };
    }
    if (state.active === null) state = await this.add(newSecretKey(), 'generated', true);
    const active = state.keys.find((k) => k.kid === state.active) as KeyringKey;
    if (active.sealedSecretKey === null) {
      throw new Error('The active trust signing key came from TRUST_SIGNING_KEY, which is no longer set: set it again, or rotate the key');
    }
    return { kid: active.kid, secretKey: new Uint8Array(Buffer.from(this.secretBox().open(active.sealedSecretKey, sealContext(active.kid)), 'base64url')) };
  }

  /** A new generated key signs from now on; the old one is retired (still listed while its credentials may be valid). */
  async rotate(): Promise<{ kid: string; retired: string | null }> {
    if (this.envKey) {
      throw new DomainError('CONFLICT', 'The signing key comes from TRUST_SIGNING_KEY: to rotate it, set a new TRUST_SIGNING_KEY and restart');
    }
    const before = (await this.load()).active;
    const after = await this.add(newSecretKey(), 'generated', false);
    this.listedCache = null;
    return { kid: after.active as string, retired: before };
  }

  /** The keys a verifier needs: the active one, and every retired one a still-valid credential may name. */
  async listed(): Promise<ListedKey[]> {
    const now = this.clock.now().getTime();
    if (this.listedCache && now - this.listedCache.at < 2000) return this.listedCache.keys;
    const state = await this.load();
    const longest = this.config.TRUST_CREDENTIAL_VALIDITY_DAYS * 86_400_000;
    const keys = state.keys
      .filter((k) => k.retiredAt === null || Date.parse(k.retiredAt) + longest > now)
      .map((k) => ({ ...keyForms(new Uint8Array(Buffer.from(k.publicKey, 'base64url'))), status: k.retiredAt === null ? ('active' as const) : ('retired' as const), addedAt: k.addedAt, retiredAt: k.retiredAt }))
      .sort((a, b) => (a.status === b.status ? (a.addedAt < b.addedAt ? 1 : -1) : a.status === 'active' ? -1 : 1));
    this.listedCache = { at: now, keys };
    return keys;
  }

  /** The raw public key of a listed key id, or null. */
  async publicKey(kid: string): Promise<Uint8Array | null> {
    const key = (await this.listed()).find((k) => k.kid === kid);
    return key ? new Uint8Array(Buffer.from(key.publicKey, 'base64url')) : null;
  }

  private async load(): Promise<KeyringState> {
    return (await loadStream(this.events, KEYRING_STREAM, keyringAggregate, { workspaceId: SERVICE_WORKSPACE, anyWorkspace: true })).state;
  }

  private async add(secretKey: Uint8Array, source: SigningKeyAdded['source'], ifNone: boolean): Promise<KeyringState> {
    const forms = keyForms(publicKeyOf(secretKey));
    const key: SigningKeyAdded = {
      kid: forms.kid,
      publicKey: forms.publicKey,
      sealedSecretKey: source === 'env' ? null : this.secretBox().seal(Buffer.from(secretKey).toString('base64url'), sealContext(forms.kid)),
      source,
      addedAt: this.clock.now().toISOString(),
    };
    const result = await handleCommand(this.events, KEYRING_STREAM, keyringAggregate, { type: 'AddKey', key, ifNone, now: this.clock.now() }, METADATA, { anyWorkspace: true });
    this.listedCache = null;
    return result.state;
  }

  private secretBox(): SecretBox {
    if (!this.box) throw new Error('trust signing keys are sealed with the SecretBox (SECRET_BOX), which is not provided');
    return this.box;
  }
}
