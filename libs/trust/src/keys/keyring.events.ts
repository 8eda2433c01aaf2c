// Stored contract of the service's signing keys (one stream, not a workspace's): each key added —
// its public key, and its secret sealed with the SecretBox (null when it lives in
// TRUST_SIGNING_KEY) — and each key retired by a rotation. A retired key no longer signs but stays
// listed while a credential it signed may still be valid.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const signingKeyAdded = z.object({
  kid: z.string(),
  /** base64url of the raw 32-byte Ed25519 public key. */
  publicKey: z.string(),
  /** The 32-byte secret, sealed (context `trust_signing_key:<kid>`); null for a key from TRUST_SIGNING_KEY. */
  sealedSecretKey: z.string().nullable(),
  source: z.enum(['generated', 'env']),
  addedAt: z.string(),
});
export type SigningKeyAdded = z.infer<typeof signingKeyAdded>;

export const signingKeyRetired = z.object({ kid: z.string(), retiredAt: z.string() });

export type KeyringEvent =
  | { type: 'trust.signing_key_added'; data: SigningKeyAdded }
  | { type: 'trust.signing_key_retired'; data: z.infer<typeof signingKeyRetired> };

export const KEYRING_EVENT_TYPES = ['trust.signing_key_added', 'trust.signing_key_retired'] as const;

export const parseKeyringEvent = parseOnce((event: RecordedEvent): KeyringEvent => {
  switch (event.type) {
    case 'trust.signing_key_added':
      return { type: event.type, data: signingKeyAdded.parse(event.data) };
    case 'trust.signing_key_retired':
      return { type: event.type, data: signingKeyRetired.parse(event.data) };
    default:
      throw new Error(`Not a keyring event: ${event.type}`);
  }
});

/** The keyring's stream, and the pseudo-workspace its events are recorded under (it is the service's). */
export const KEYRING_STREAM = 'trust_keyring-service';
export const SERVICE_WORKSPACE = 'service';
