// The SecretBox's promises: what it seals it opens, with the same key and context only, and any
// change to a sealed value is refused with a message saying which of these went wrong.
import { createHash, randomBytes } from 'node:crypto';

import { decodeSecretKey, SecretBox, SecretBoxError } from './secret-box';

const key = Buffer.alloc(32, 7);
const box = new SecretBox(key);

/** Replaces one dot-separated part of a sealed value. */
function withPart(sealed: string, index: number, change: (part: string) => string): string {
  const parts = sealed.split('.');
  parts[index] = change(parts[index] ?? '');
  return parts.join('.');
}

/** Flips the low bit of the first byte of a base64url part. */
function flipFirstByte(part: string): string {
  const bytes = Buffer.from(part, 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  return bytes.toString('base64url');
}

function openError(open: () => string): SecretBoxError {
  try {
    open();
  } catch (error) {
    if (error instanceof SecretBoxError) return error;
    throw error;
  }
  throw new Error('expected open() to throw');
}

describe('SecretBox', () => {
  it.each([
    ['a plain secret', 'whsec_0123456789abcdef'],
    ['the empty string', ''],
    ['unicode', 'clé 🔑 秘密 — ñ'],
    ['a large JSON body', JSON.stringify({ secret: 'x'.repeat(100_000) })],
  ])('opens what it sealed: %s', (_label, plaintext) => {
    expect(box.open(box.seal(plaintext))).toBe(plaintext);
    expect(box.open(box.seal(plaintext, 'ws_A:rec'), 'ws_A:rec')).toBe(plaintext);
  });

  it("names its key by sha256's first 8 hex chars, without revealing it", () => {
    expect(box.keyId).toBe(createHash('sha256').update(key).digest('hex').slice(0, 8));
    expect(box.keyId).toMatch(/^[0-9a-f]{8}$/);
  });

  it("writes 'sb1.<keyId>.<iv>.<tag>.<ciphertext>' with a 12-byte IV and a 16-byte tag", () => {
    const sealed = box.seal('secret');
    const [version, keyId, iv, tag, ciphertext] = sealed.split('.');
    expect(version).toBe('sb1');
    expect(keyId).toBe(box.keyId);
    expect(Buffer.from(iv ?? '', 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext ?? '', 'base64url')).toHaveLength(6);
    expect(sealed).not.toContain('secret');
  });

  it('uses a random IV: sealing the same text twice gives two different values', () => {
    const a = box.seal('same', 'ctx');
    const b = box.seal('same', 'ctx');
    expect(a).not.toBe(b);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
    expect([box.open(a, 'ctx'), box.open(b, 'ctx')]).toEqual(['same', 'same']);
  });

  it('keeps its own copy of the key: wiping the caller\'s buffer changes nothing', () => {
    const mine = randomBytes(32);
    const own = new SecretBox(mine);
    const sealed = own.seal('secret');
    mine.fill(0);
    expect(own.open(sealed)).toBe('secret');
  });

  it.each([
    ['IV', 2],
    ['tag', 3],
    ['ciphertext', 4],
  ])('refuses a value whose %s was changed (tampered)', (_label, index) => {
    const sealed = box.seal('secret', 'ctx');
    const error = openError(() => box.open(withPart(sealed, index, flipFirstByte), 'ctx'));
    expect(error.message).toMatch(/tampered/);
  });

  it('refuses a value with a byte cut off the ciphertext, or another value\'s tag', () => {
    const sealed = box.seal('secret', 'ctx');
    expect(() => box.open(withPart(sealed, 4, (p) => Buffer.from(p, 'base64url').subarray(1).toString('base64url')), 'ctx')).toThrow(/tampered/);
    const other = box.seal('secret', 'ctx');
    expect(() => box.open(withPart(sealed, 3, () => other.split('.')[3] ?? ''), 'ctx')).toThrow(/tampered/);
  });

  it('refuses the right value opened with the wrong context (moved to another record)', () => {
    const sealed = box.seal('secret', 'ws_A:rec-1');
    expect(() => box.open(sealed, 'ws_A:rec-2')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'ws_A:rec-2')).toThrow(/wrong context/);
    expect(() => box.open(sealed)).toThrow(/wrong context/);
    expect(() => box.open(box.seal('secret'), 'ws_A:rec-1')).toThrow(/wrong context/);
  });

  it('says which keys differ when a value was sealed with another key', () => {
    const other = new SecretBox(Buffer.alloc(32, 9));
    const error = openError(() => other.open(box.seal('secret')));
    expect(error.message).toMatch(/another key/);
    expect(error.message).toContain(box.keyId);
    expect(error.message).toContain(other.keyId);
  });

  it('refuses a changed key id as another key, before any decryption', () => {
    const sealed = box.seal('secret');
    expect(() => box.open(withPart(sealed, 1, () => '00000000'))).toThrow(/another key.*00000000/);
  });

  it.each([
    ['an empty string', ''],
    ['plain text', 'not sealed'],
    ['too few parts', 'sb1.abcdef01.AAAA.BBBB'],
    ['too many parts', 'sb1.abcdef01.AAAA.BBBB.CCCC.DDDD'],
    ['another version', 'sb2.abcdef01.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA'],
  ])('refuses %s as malformed', (_label, sealed) => {
    expect(openError(() => box.open(sealed)).message).toMatch(/malformed/);
  });

  it('refuses parts that are not base64url, or of the wrong size, as malformed', () => {
    const sealed = box.seal('secret');
    expect(() => box.open(withPart(sealed, 1, () => 'XYZ'))).toThrow(/malformed.*key id/);
    expect(() => box.open(withPart(sealed, 2, (p) => `${p}+`))).toThrow(/malformed.*iv/);
    expect(() => box.open(withPart(sealed, 2, (p) => p.slice(4)))).toThrow(/malformed.*iv must be 12 bytes/);
    expect(() => box.open(withPart(sealed, 3, (p) => p.slice(4)))).toThrow(/malformed.*tag must be 16 bytes/);
    expect(() => box.open(withPart(sealed, 4, () => 'ab!'))).toThrow(/malformed.*ciphertext/);
  });

  it.each([
    ['31 bytes', Buffer.alloc(31)],
    ['33 bytes', Buffer.alloc(33)],
    ['no bytes', Buffer.alloc(0)],
  ])('refuses a key of %s', (_label, badKey) => {
    expect(() => new SecretBox(badKey)).toThrow(SecretBoxError);
    expect(() => new SecretBox(badKey)).toThrow(/exactly 32 bytes/);
  });
});

describe('decodeSecretKey', () => {
  const bytes = randomBytes(32);

  it.each([
    ['hex', bytes.toString('hex')],
    ['upper-case hex', bytes.toString('hex').toUpperCase()],
    ['base64', bytes.toString('base64')],
    ['base64 without padding', bytes.toString('base64').replace(/=$/, '')],
    ['base64url', bytes.toString('base64url')],
  ])('reads %s', (_label, text) => {
    expect(decodeSecretKey(text)?.equals(bytes)).toBe(true);
  });

  it.each([
    ['63 hex characters', 'a'.repeat(63)],
    ['hex of 31 bytes', randomBytes(31).toString('hex')],
    ['base64 of 31 bytes', randomBytes(31).toString('base64')],
    ['base64 of 33 bytes', randomBytes(33).toString('base64')],
    ['a passphrase', 'correct horse battery staple'],
    ['surrounding spaces', ` ${bytes.toString('hex')} `],
    ['non-canonical base64 (unused bits set)', `${bytes.toString('base64url').slice(0, 42)}B`],
  ])('refuses %s', (_label, text) => {
    expect(decodeSecretKey(text)).toBeUndefined();
  });
});
