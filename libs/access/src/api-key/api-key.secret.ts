// API key secrets: `sk_<key ulid>_<43 random base64url chars>` (256 bits). Only a SHA-256 hash is
// ever stored (a hash is enough for a high-entropy secret; it is not a password). The key id
// inside the secret finds the stored hash, which is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET = /^sk_([0-9A-HJKMNP-TV-Z]{26})_([A-Za-z0-9_-]{43})$/;

export function generateSecret(keyId: string): string {
  return `sk_${keyId.slice('key_'.length)}_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The key id a well-formed secret names, or undefined. */
export function keyIdOf(secret: string): string | undefined {
  const m = SECRET.exec(secret);
  return m ? `key_${m[1]}` : undefined;
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
