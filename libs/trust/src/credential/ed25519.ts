// Ed25519 with @noble/ed25519 (audited, pure JS), and how its public keys are named: base64url of
// the raw 32 bytes, a JWK (RFC 8037: kty OKP, crv Ed25519), a Multikey (`z6Mk…`: base58btc of the
// multicodec 0xed01 prefix and the key) and a did:key whose fragment is the same multibase — a key
// id any verifier resolves offline.
import { createHash } from 'node:crypto';

import * as ed from '@noble/ed25519';

// noble's sync API needs a SHA-512; node:crypto's is the fastest at hand.
ed.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash('sha512').update(message).digest());

export interface PublicKeyForms {
  kid: string;
  publicKey: string;
  publicKeyMultibase: string;
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string; alg: 'EdDSA'; use: 'sig' };
}

export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  return ed.getPublicKey(secretKey);
}

export function newSecretKey(): Uint8Array {
  return ed.utils.randomSecretKey();
}

export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return ed.sign(message, secretKey);
}

export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return ed.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

const MULTICODEC_ED25519_PUB = [0xed, 0x01];

export function multibaseOf(publicKey: Uint8Array): string {
  return `z${base58btc(Uint8Array.from([...MULTICODEC_ED25519_PUB, ...publicKey]))}`;
}

/** The raw key a `z6Mk…` multibase names; null when it is not an Ed25519 Multikey. */
export function publicKeyFromMultibase(multibase: string): Uint8Array | null {
  if (!multibase.startsWith('z')) return null;
  const bytes = fromBase58btc(multibase.slice(1));
  if (!bytes || bytes.length !== 34 || bytes[0] !== 0xed || bytes[1] !== 0x01) return null;
  return bytes.slice(2);
}

export function keyForms(publicKey: Uint8Array): PublicKeyForms {
  const publicKeyMultibase = multibaseOf(publicKey);
  const kid = `did:key:${publicKeyMultibase}#${publicKeyMultibase}`;
  const x = Buffer.from(publicKey).toString('base64url');
  return { kid, publicKey: x, publicKeyMultibase, jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' } };
}

/** The DID a key id belongs to (`did:key:z…#z…` → `did:key:z…`). */
export const controllerOf = (kid: string): string => kid.split('#')[0];

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58btc(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  return '1'.repeat(zeros) + out;
}

export function fromBase58btc(text: string): Uint8Array | null {
  let n = 0n;
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  for (const c of text) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) return null;
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
}
