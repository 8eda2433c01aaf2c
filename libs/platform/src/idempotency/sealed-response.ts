// A stored idempotent answer of a sensitive route holds a secret shown once; it must not sit in
// clear in the read store (or its backups) for the key's lifetime. Its body is kept sealed with the
// SecretBox, bound to its record (context = workspace id + ':' + record id), and opened for replay.
import type { SecretBox } from '../crypto/secret-box';
import type { StoredResponse } from './idempotency.store';

/** Binds a sealed body to its record: one copied onto another record does not open. */
export function sealedResponseContext(workspaceId: string, recordId: string): string {
  return `${workspaceId}:${recordId}`;
}

/** The same response with its body sealed (`sealedBody`) and no clear `body`. */
export function sealResponse(box: SecretBox, response: StoredResponse, context: string): StoredResponse {
  const { body, ...rest } = response;
  // No body (a 204) has nothing to hide; JSON text otherwise, exactly what the client received.
  if (body === undefined) return rest;
  return { ...rest, sealedBody: box.seal(JSON.stringify(body), context) };
}

/**
 * The response as it was before sealing. A response stored in clear comes back unchanged; throws
 * SecretBoxError when the sealed body does not open (another key, tampered, another record).
 */
export function openResponse(box: SecretBox | undefined, response: StoredResponse, context: string): StoredResponse {
  const { sealedBody, ...rest } = response;
  if (sealedBody === undefined) return response;
  if (!box) throw new Error('a sealed idempotent answer needs the SecretBox (SECRET_BOX), which is not provided');
  return { ...rest, body: JSON.parse(box.open(sealedBody, context)) as unknown };
}
