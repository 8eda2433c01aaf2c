// The portal's secrets: passwords (scrypt, a salt each, compared in constant time), and the
// high-entropy tokens of sessions and one-time sign-in links (stored only as SHA-256 hashes, like
// API keys). A user's id is derived from the workspace and the email with a keyed hash, so one
// email is one user per workspace (the stream's existence enforces it) and the id reveals neither.
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

import { base32, normalizeEmail } from '@app/platform';

/** scrypt's cost: N = 2^15, r = 8, p = 1 (OWASP's minimum for scrypt), 32-byte hash, 16-byte salt. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 };

/** Passwords are at least this long (NIST SP 800-63B) and at most 1,024 characters. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

const TOKEN = /^(pss|psl)_([0-9A-HJKMNP-TV-Z]{26})_([A-Za-z0-9_-]{43})$/;

export { normalizeEmail };

/** A plain email check (one @, a dotted domain, no spaces), the same as the widget's. */
export function isEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}

/** `usr_<26 Crockford base32 chars>` from HMAC(key, workspace | normalized email). */
export function userIdFor(key: Buffer, workspaceId: string, email: string): string {
  return `usr_${base32(createHmac('sha256', key).update(`${workspaceId}|${normalizeEmail(email)}`).digest(), 26)}`;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** A hash no password matches, in the stored format: verified against when there is no user, so both paths cost the same. */
export const NO_PASSWORD = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function scryptAsync(password: string, salt: Buffer, keylen: number, cost: { N: number; r: number; p: number } = SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keylen, { ...cost, maxmem: SCRYPT.maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** A new session (`pss_…`) or sign-in link (`psl_…`) token for the user. */
export function newToken(kind: 'session' | 'link', userId: string): string {
  return `${kind === 'session' ? 'pss' : 'psl'}_${userId.slice('usr_'.length)}_${randomBytes(32).toString('base64url')}`;
}

/** The user a well-formed token of that kind names, or undefined. */
export function tokenUser(kind: 'session' | 'link', token: string): string | undefined {
  const m = TOKEN.exec(token);
  return m && m[1] === (kind === 'session' ? 'pss' : 'psl') ? `usr_${m[2]}` : undefined;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time equality of two strings (false when their lengths differ). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The CSRF token of a session: an HMAC of its token, so it needs no storage and dies with it. */
export function csrfTokenFor(key: Buffer, sessionToken: string): string {
  return createHmac('sha256', key).update(sessionToken).digest('base64url');
}
