// Signing a delivery: the spec's `X-Service-Signature: sha256=<hex HMAC of the raw body>` keyed
// with the secret as given, plus the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
// `webhook-signature: v1,<base64 HMAC of "id.timestamp.body">`, keyed with the base64 part after
// `whsec_`), so stock verifier libraries work. During a rotation every signing secret signs: the
// spec's header lists them comma separated, the Standard Webhooks one space separated.
import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + 32 random bytes in base64 (the Standard Webhooks form). */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function standardKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** A secret's two HMAC keys, made once: building a key per signature costs more than the HMAC. */
export interface SigningKey {
  spec: KeyObject;
  standard: KeyObject;
}

export function signingKey(secret: string): SigningKey {
  return { spec: createSecretKey(Buffer.from(secret, 'utf8')), standard: createSecretKey(standardKey(secret)) };
}

/** The signature headers of one delivery of `body` (the exact bytes sent), by every key signing now. */
export function signatureHeaders(body: string, messageId: string, keys: readonly SigningKey[], timestampSeconds: number): Record<string, string> {
  const timestamp = String(Math.floor(timestampSeconds));
  return {
    'x-service-signature': keys.map((k) => `sha256=${createHmac('sha256', k.spec).update(body).digest('hex')}`).join(','),
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': keys
      .map((k) => `v1,${createHmac('sha256', k.standard).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`)
      .join(' '),
  };
}
