// Receiving webhooks: verify a delivery's signature on the raw body, then parse the envelope.
// No dependencies beyond node:crypto, so a receiver can copy this file as it is.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The envelope every delivery carries (the spec's fields, snake_case). */
export interface WebhookEvent<TData = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  data: TData;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type RawBody = string | Uint8Array;

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
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError('Pass the raw request body (string or Buffer), not the parsed JSON: re-serializing changes the bytes');
  }
  if (secret.trim() !== secret || secret.length === 0) {
    throw new WebhookVerificationError('The secret is empty or has surrounding whitespace: copy it exactly as shown at creation');
  }
  if (!signatureHeader) return false;
  const expected = createHmac('sha256', secret).update(bytesOf(rawBody)).digest();
  return signatureHeader
    .split(',')
    .map((part) => part.trim().replace(/^sha256=/i, ''))
    .some((hex) => /^[0-9a-f]{64}$/i.test(hex) && sameBytes(Buffer.from(hex, 'hex'), expected));
}

/**
 * Checks the Standard Webhooks headers instead (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>` …): the HMAC of `${id}.${timestamp}.${body}`, and a timestamp
 * within `toleranceSeconds` of now so that a captured delivery cannot be replayed later.
 */
export function verifyStandardWebhook(
  rawBody: RawBody,
  headers: { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string },
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
  // As the Standard Webhooks libraries do: the key is the base64 part after `whsec_`.
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), bytesOf(rawBody)]))
    .digest();
  return signatures
    .split(' ')
    .map((s) => s.split(','))
    .some(([version, value]) => version === 'v1' && value !== undefined && sameBytes(Buffer.from(value, 'base64'), expected));
}

/** Parses a verified body into the envelope, checking its shape; throws on anything else. */
export function parseWebhookEvent<TData = Record<string, unknown>>(rawBody: RawBody): WebhookEvent<TData> {
  let value: unknown;
  try {
    value = JSON.parse(bytesOf(rawBody).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('The body is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new WebhookVerificationError('The body is not an event envelope');
  const e = value as Record<string, unknown>;
  const ok =
    typeof e.id === 'string' &&
    e.id.startsWith('evt_') &&
    typeof e.type === 'string' &&
    typeof e.created_at === 'string' &&
    typeof e.workspace_id === 'string' &&
    e.data !== null &&
    typeof e.data === 'object' &&
    !Array.isArray(e.data);
  if (!ok) throw new WebhookVerificationError('The body is not an event envelope {id, type, created_at, workspace_id, data}');
  return { id: e.id as string, type: e.type as string, created_at: e.created_at as string, workspace_id: e.workspace_id as string, data: e.data as TData };
}
