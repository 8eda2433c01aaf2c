// Seals secrets we must keep (webhook signing secrets, idempotent answers that carry a secret shown
// once) so that they never sit in clear in a database file, a backup or a log. AES-256-GCM with a
// random IV per seal; the optional context is authenticated (AAD), so a sealed value copied onto
// another record does not open. The key id in the sealed string names the key without revealing it,
// so "sealed with another key" is told apart from tampering.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** Nest injection token for the process-wide SecretBox (provided by PlatformModule). */
export const SECRET_BOX = Symbol('SECRET_BOX');

/** A sealed value could not be opened (malformed, another key, tampered or wrong context), or a bad key. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const FORMAT_VERSION = 'sb1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const KEY_ID = /^[0-9a-f]{8}$/;

export class SecretBox {
  /** First 8 hex chars of sha256(key): names the key without revealing it. */
  readonly keyId: string;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
      throw new SecretBoxError(
        `SecretBox key must be exactly ${KEY_BYTES} bytes (got ${Buffer.isBuffer(key) ? key.length : typeof key})`,
      );
    }
    this.#key = Buffer.from(key); // private copy: the caller may reuse or wipe its buffer
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  /** A 32-byte key for another purpose (HKDF-SHA256 with `purpose` as info): never this key itself. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), purpose, KEY_BYTES));
  }

  /** Returns 'sb1.<keyId>.<iv b64url>.<tag b64url>.<ciphertext b64url>'. */
  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      FORMAT_VERSION,
      this.keyId,
      iv.toString('base64url'),
      tag.toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.');
  }

  /** Opens a value sealed by seal() with the same key and context; throws SecretBoxError otherwise. */
  open(sealed: string, context = ''): string {
    if (typeof sealed !== 'string') {
      throw new SecretBoxError('malformed sealed value: not a string');
    }
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== FORMAT_VERSION) {
      throw new SecretBoxError(
        `malformed sealed value: expected '${FORMAT_VERSION}.<keyId>.<iv>.<tag>.<ciphertext>'`,
      );
    }
    const [, keyId, ivText, tagText, ciphertextText] = parts as [string, string, string, string, string];
    if (!KEY_ID.test(keyId)) {
      throw new SecretBoxError('malformed sealed value: bad key id');
    }
    if (keyId !== this.keyId) {
      throw new SecretBoxError(
        `sealed with another key: value names key ${keyId}, this server has key ${this.keyId}`,
      );
    }
    const iv = decodePart(ivText, 'iv');
    const tag = decodePart(tagText, 'tag');
    const ciphertext = decodePart(ciphertextText, 'ciphertext');
    if (iv.length !== IV_BYTES) throw new SecretBoxError(`malformed sealed value: iv must be ${IV_BYTES} bytes`);
    if (tag.length !== TAG_BYTES) throw new SecretBoxError(`malformed sealed value: tag must be ${TAG_BYTES} bytes`);

    const decipher = createDecipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('sealed value does not authenticate: tampered, or opened with the wrong context');
    }
  }
}

function decodePart(text: string, name: string): Buffer {
  if (!BASE64URL.test(text)) {
    throw new SecretBoxError(`malformed sealed value: ${name} is not base64url`);
  }
  const bytes = Buffer.from(text, 'base64url');
  // Reject non-canonical encodings (trailing bits) so one sealed value has exactly one spelling.
  if (bytes.toString('base64url') !== text) {
    throw new SecretBoxError(`malformed sealed value: ${name} is not canonical base64url`);
  }
  return bytes;
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}={0,1}$/;

/**
 * Reads a 32-byte key written as 64 hex characters or as base64 / base64url (padded or not).
 * Undefined for anything else; never echoes the text, which is a secret.
 */
export function decodeSecretKey(text: string): Buffer | undefined {
  if (HEX_KEY.test(text)) return Buffer.from(text, 'hex');
  if (!BASE64_KEY.test(text)) return undefined;
  const urlSafe = /[-_]/.test(text);
  if (urlSafe && /[+/]/.test(text)) return undefined; // one alphabet or the other, not both
  const bytes = Buffer.from(text.replace(/=$/, ''), 'base64url');
  if (bytes.length !== KEY_BYTES) return undefined;
  // Canonical only: the 43rd character's unused low bits must be zero.
  return bytes.toString('base64url') === text.replace(/=$/, '').replace(/\+/g, '-').replace(/\//g, '_') ? bytes : undefined;
}

/** What decodeSecretKey accepts, for error messages. */
export const SECRET_KEY_FORMAT = '64 hex characters, or base64/base64url of exactly 32 bytes (e.g. `openssl rand -hex 32`)';
