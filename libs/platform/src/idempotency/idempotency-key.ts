// The pure parts of idempotency: what a valid key is, where a key's record lives, and the
// fingerprint that tells "the same request again" from "another request reusing the key".
import { createHash } from 'node:crypto';

import { ApiError } from '../http/api-error';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Printable ASCII (space allowed inside), 1–255 characters, as Stripe accepts. */
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

/** The header's value, or undefined when absent. A present but unusable value is a 400. */
export function readIdempotencyKey(headers: Readonly<Record<string, string | string[] | undefined>>, rawHeaders: readonly string[]): string | undefined {
  // Node joins repeated unknown headers with ", ", which would silently make a different key.
  const occurrences = rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === IDEMPOTENCY_HEADER).length;
  if (occurrences > 1) throw invalidKey('send the Idempotency-Key header once');
  const value = headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !VALID_KEY.test(value) || value.trim() !== value) {
    throw invalidKey('use 1 to 255 printable ASCII characters, without leading or trailing spaces');
  }
  return value;
}

function invalidKey(hint: string): ApiError {
  return ApiError.validation(`Invalid Idempotency-Key header: ${hint}`, [{ path: 'Idempotency-Key', message: hint }]);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The record id: keys are scoped per workspace, and only the key's hash is stored (a key may be
 * chosen by the client from something it considers private).
 */
export function idempotencyRecordId(workspaceId: string, key: string): string {
  return `${workspaceId}:${sha256(key)}`;
}

/**
 * JSON with object keys sorted at every depth, so bodies that differ only in key order or
 * whitespace count as the same request. `undefined` (no body) stays distinct from `null`.
 */
export function canonicalJson(value: unknown): string {
  const chunks: string[] = [];
  writeCanonical(value, (chunk) => chunks.push(chunk));
  return chunks.join('');
}

/** What makes two requests "the same": method, path with query string, and canonical body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  // Self-delimiting: a JSON array, then a newline, which JSON never holds unescaped.
  return sha256(`${JSON.stringify([method.toUpperCase(), url])}\n${canonicalJson(body)}`);
}

type Pending = { literal: string } | { value: unknown };

/**
 * Iterative, not recursive: Fastify parses JSON nested thousands deep, which would overflow the
 * stack of a recursive walk (JSON.stringify's included) and turn a bad request into a 500.
 */
function writeCanonical(root: unknown, write: (chunk: string) => void): void {
  if (root === undefined) return;
  const stack: Pending[] = [{ value: root }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if ('literal' in next) {
      write(next.literal);
      continue;
    }
    const { value } = next;
    if (value === null || typeof value !== 'object') {
      write(JSON.stringify(value) ?? 'null');
      continue;
    }
    // Pushed in reverse, so they pop in order.
    if (Array.isArray(value)) {
      write('[');
      stack.push({ literal: ']' });
      for (let i = value.length - 1; i >= 0; i -= 1) {
        const item: unknown = value[i];
        stack.push({ value: item ?? null });
        if (i > 0) stack.push({ literal: ',' });
      }
    } else {
      write('{');
      stack.push({ literal: '}' });
      const keys = Object.keys(value).filter((key) => Reflect.get(value, key) !== undefined).sort();
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        stack.push({ value: Reflect.get(value, keys[i]) }, { literal: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` });
      }
    }
  }
}
