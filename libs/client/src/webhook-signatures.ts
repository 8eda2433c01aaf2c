// Receiving webhooks anywhere fetch runs (browsers, workers, Deno, Node ≥ 20): the delivery
// envelope, its parser, and the two signature checks done with WebCrypto (`crypto.subtle`, HMAC
// SHA-256; `subtle.verify` compares in constant time), so async. Node servers may use the
// synchronous node:crypto versions of the `./webhooks` entry instead; both agree on every input
// (a test checks them against each other on the same deliveries).

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

/** The request body exactly as received: text, or its bytes (a Buffer is a Uint8Array). */
export type RawBody = string | Uint8Array;

/** The Standard Webhooks headers: a plain object with lower-case names, or a fetch `Headers`. */
export type StandardWebhookHeaders = { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string } | { get(name: string): string | null };

export interface StandardWebhookOptions {
  /** How far the timestamp may be from now, in seconds; 300 by default. */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Throws for a misuse that can never verify — a parsed body, an empty secret or one with spaces
 * around it — so the mistake shows at once instead of as "invalid signature".
 */
export function assertVerifiable(rawBody: unknown, secret: unknown): asserts rawBody is RawBody {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError('Pass the raw request body (string or Buffer), not the parsed JSON: re-serializing changes the bytes');
  }
  if (typeof secret !== 'string' || secret.trim() !== secret || secret.length === 0) {
    throw new WebhookVerificationError('The secret is empty or has surrounding whitespace: copy it exactly as shown at creation');
  }
}

/** The values of `X-Service-Signature` (comma-separated while a secret rotates), without `sha256=`, that are 64 hex digits. */
export function hexSignatures(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.trim().replace(/^sha256=/i, ''))
    .filter((hex) => /^[0-9a-f]{64}$/i.test(hex));
}

/** The `v1` signatures of `webhook-signature` (space-separated `v1,<base64>`). */
export function standardSignatures(header: string): string[] {
  return header
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && value !== undefined && value !== '')
    .map(([, value]) => value);
}

/** The Standard Webhooks headers, read from either form. */
export function standardHeaders(headers: StandardWebhookHeaders): { id?: string; timestamp?: string; signature?: string } {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const read = (name: string) => (headers as { get(name: string): string | null }).get(name) ?? undefined;
    return { id: read('webhook-id'), timestamp: read('webhook-timestamp'), signature: read('webhook-signature') };
  }
  const plain = headers as { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string };
  return { id: plain['webhook-id'], timestamp: plain['webhook-timestamp'], signature: plain['webhook-signature'] };
}

/** Whether the timestamp is whole seconds within the tolerance of now (a captured delivery cannot be replayed later). */
export function timestampIsFresh(timestamp: string, options: StandardWebhookOptions): boolean {
  if (!/^\d+$/.test(timestamp)) return false;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return Math.abs(nowSeconds - Number(timestamp)) <= (options.toleranceSeconds ?? 300);
}

/** Parses a verified body into the envelope, checking its shape; throws on anything else. */
export function parseWebhookEvent<TData = Record<string, unknown>>(rawBody: RawBody): WebhookEvent<TData> {
  let value: unknown;
  try {
    value = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
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

// ——— WebCrypto ———

/** What of `crypto.subtle` the checks use (typed here: the client's types need no DOM library). */
interface SubtleLike {
  importKey(format: 'raw', keyData: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: false, usages: ['verify']): Promise<unknown>;
  verify(algorithm: 'HMAC', key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

function subtle(): SubtleLike {
  const subtleCrypto = (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto?.subtle;
  if (!subtleCrypto) {
    throw new WebhookVerificationError('WebCrypto (globalThis.crypto.subtle) is not available here: browsers offer it in secure contexts only');
  }
  return subtleCrypto;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytesOf = (body: RawBody): Uint8Array => (typeof body === 'string' ? utf8(body) : body);

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Standard base64 (and base64url) to bytes; null when it is not base64. */
function base64Bytes(text: string): Uint8Array | null {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return null;
  try {
    const binary = (globalThis as unknown as { atob(data: string): string }).atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

async function anyVerifies(key: Uint8Array, data: Uint8Array, signatures: readonly Uint8Array[]): Promise<boolean> {
  if (signatures.length === 0) return false;
  const crypto = subtle();
  const cryptoKey = await crypto.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const verdicts = await Promise.all(signatures.map((signature) => crypto.verify('HMAC', cryptoKey, signature, data)));
  return verdicts.some(Boolean);
}

/**
 * Checks `X-Service-Signature` with WebCrypto: the hex HMAC-SHA256 of the raw body keyed with the
 * webhook's secret; with or without `sha256=`; a comma-separated list (while a secret rotates)
 * passes when one matches. Resolves false for a wrong or missing signature; throws for a misuse
 * that can never verify (a parsed body, an empty secret).
 */
export async function verifyWebhookSignatureAsync(rawBody: RawBody, signatureHeader: string | null | undefined, secret: string): Promise<boolean> {
  assertVerifiable(rawBody, secret);
  if (!signatureHeader) return false;
  return anyVerifies(utf8(secret), bytesOf(rawBody), hexSignatures(signatureHeader).map(hexBytes));
}

/**
 * Checks the Standard Webhooks headers with WebCrypto: `webhook-signature` (`v1,<base64>`, space
 * separated) is the HMAC of `${webhook-id}.${webhook-timestamp}.${body}` keyed with the base64
 * after `whsec_`, and the timestamp is within `toleranceSeconds` (300) of now.
 */
export async function verifyStandardWebhookAsync(rawBody: RawBody, headers: StandardWebhookHeaders, secret: string, options: StandardWebhookOptions = {}): Promise<boolean> {
  assertVerifiable(rawBody, secret);
  const { id, timestamp, signature } = standardHeaders(headers);
  if (!id || !timestamp || !signature || !timestampIsFresh(timestamp, options)) return false;
  const key = secret.startsWith('whsec_') ? base64Bytes(secret.slice('whsec_'.length)) : utf8(secret);
  if (key === null || key.length === 0) throw new WebhookVerificationError('The secret after `whsec_` is not base64');
  const prefix = utf8(`${id}.${timestamp}.`);
  const body = bytesOf(rawBody);
  const data = new Uint8Array(prefix.length + body.length);
  data.set(prefix);
  data.set(body, prefix.length);
  const signatures = standardSignatures(signature)
    .map(base64Bytes)
    .filter((bytes): bytes is Uint8Array => bytes !== null);
  return anyVerifies(key, data, signatures);
}
