// The one-click unsubscribe token in a buyer's emails: it names the workspace and the buyer's
// pseudonymous id (nothing personal) and is signed with an HMAC-SHA256 under a key only the server
// holds (derived from the SecretBox master key for this purpose alone, so it is never stored, never
// logged, and rotates with the master key). Format:
//
//   u1.<workspaceId>.<buyerId>.<base64url(first 16 bytes of HMAC-SHA256(key, "u1.<workspaceId>.<buyerId>"))>
//
// (128 bits of the MAC, as RFC 2104 allows: the token stays under 100 characters, the longest
// path parameter the router takes.)
// It does not expire: an unsubscribe link must work for as long as the email may be read. Verified
// in constant time (the MAC compared with timingSafeEqual, after a length check that reveals
// nothing about the expected value).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const UNSUBSCRIBE_KEY_PURPOSE = 'buyer-unsubscribe:v1';
const VERSION = 'u1';
const WORKSPACE_ID = /^ws_[0-9A-Za-z]{10,40}$/;
const BUYER_ID = /^buyer_[a-z2-7]{26}$/;
const MAC = /^[A-Za-z0-9_-]{22}$/;
const MAC_BYTES = 16;

export interface UnsubscribeSubject {
  workspaceId: string;
  buyerId: string;
}

function mac(key: Buffer, workspaceId: string, buyerId: string): Buffer {
  return createHmac('sha256', key).update(`${VERSION}.${workspaceId}.${buyerId}`).digest().subarray(0, MAC_BYTES);
}

export function unsubscribeToken(key: Buffer, subject: UnsubscribeSubject): string {
  return `${VERSION}.${subject.workspaceId}.${subject.buyerId}.${mac(key, subject.workspaceId, subject.buyerId).toString('base64url')}`;
}

/** The subject of a genuine token, or null (malformed, or a MAC that does not verify). */
export function verifyUnsubscribeToken(key: Buffer, token: string): UnsubscribeSubject | null {
  if (token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [version, workspaceId, buyerId, given] = parts;
  if (version !== VERSION || !WORKSPACE_ID.test(workspaceId) || !BUYER_ID.test(buyerId) || !MAC.test(given)) return null;
  const expected = mac(key, workspaceId, buyerId);
  const actual = Buffer.from(given, 'base64url');
  if (actual.length !== expected.length) return null;
  return timingSafeEqual(actual, expected) ? { workspaceId, buyerId } : null;
}
