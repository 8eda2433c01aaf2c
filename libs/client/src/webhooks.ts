// The `./webhooks` entry, for Node servers that receive deliveries: verify a delivery's signature
// on the raw body — synchronously, with node:crypto — then parse the envelope. The package's main
// entry stays browser-safe without this file; there, `api.webhooks.verifySignature` and
// `verifyWebhookSignatureAsync` do the same checks with WebCrypto (webhook-signatures.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';

import {
  assertVerifiable,
  hexSignatures,
  type RawBody,
  standardHeaders,
  type StandardWebhookHeaders,
  type StandardWebhookOptions,
  standardSignatures,
  timestampIsFresh,
} from './webhook-signatures';

export {
  parseWebhookEvent,
  type RawBody,
  type StandardWebhookHeaders,
  type StandardWebhookOptions,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhook-signatures';

function bytesOf(body: RawBody): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks `X-Service-Signature`: the hex HMAC-SHA256 of the raw request body keyed with the
 * webhook's secret. Accepts the value with or without `sha256=`, and a comma-separated list (while
 * a secret is being rotated both signatures are sent; one matching is enough). Compares in
 * constant time. Returns false for a wrong signature; throws for a misuse that can never verify
 * (a parsed body, an empty secret), so the mistake shows at once.
 */
export function verifyWebhookSignature(rawBody: RawBody, signatureHeader: string | null | undefined, secret: string): boolean {
  assertVerifiable(rawBody, secret);
  if (!signatureHeader) return false;
  const expected = createHmac('sha256', secret).update(bytesOf(rawBody)).digest();
  return hexSignatures(signatureHeader).some((hex) => sameBytes(Buffer.from(hex, 'hex'), expected));
}

/**
 * Checks the Standard Webhooks headers instead (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>` …): the HMAC of `${id}.${timestamp}.${body}`, and a timestamp
 * within `toleranceSeconds` of now so that a captured delivery cannot be replayed later. The
 * headers as a plain object with lower-case names (Node's `req.headers`) or a fetch `Headers`.
 */
export function verifyStandardWebhook(rawBody: RawBody, headers: StandardWebhookHeaders, secret: string, options: StandardWebhookOptions = {}): boolean {
  assertVerifiable(rawBody, secret);
  const { id, timestamp, signature } = standardHeaders(headers);
  if (!id || !timestamp || !signature || !timestampIsFresh(timestamp, options)) return false;
  // As the Standard Webhooks libraries do: the key is the base64 part after `whsec_`.
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), bytesOf(rawBody)]))
    .digest();
  return standardSignatures(signature).some((value) => sameBytes(Buffer.from(value, 'base64'), expected));
}
