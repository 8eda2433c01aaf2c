// An independent verifier of the service's trust credentials, written from the specifications
// with node's built-ins only — none of the project's code: RFC 8785 (JCS) serialization, Ed25519
// (RFC 8032) through node:crypto with the key as an RFC 8037 JWK, W3C Data Integrity eddsa-jcs-2022
// and the Bitstring Status List. If the service signs what it claims, this accepts it; one changed
// character, another key, an expired or a revoked credential, and it refuses.
import { createHash, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { gunzipSync } from 'node:zlib';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** RFC 8785: object keys sorted by UTF-16 code units, ECMAScript number and string serialization. */
export function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('JCS: not a finite number');
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => jcs(v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jcs(v)}`).join(',')}}`;
  }
  throw new Error(`JCS: cannot serialize ${typeof value}`);
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export function base58Decode(text: string): Buffer {
  let n = 0n;
  for (const c of text) {
    const d = B58.indexOf(c);
    if (d < 0) throw new Error('base58: bad character');
    n = n * 58n + BigInt(d);
  }
  const hex = n === 0n ? '' : n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** An Ed25519 public key from base64url of its raw 32 bytes (as a JWK, RFC 8037). */
function keyFrom(rawBase64url: string) {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: rawBase64url }, format: 'jwk' });
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export interface VerifierKey {
  kid: string;
  publicKey: string;
}

export interface Verdict {
  ok: boolean;
  failures: string[];
}

/** Signature only: the spec form (proof.jws over JCS(credentialSubject)) or eddsa-jcs-2022. */
export function signatureValid(credential: Record<string, Json>, keys: readonly VerifierKey[]): boolean {
  const proof = credential.proof as Record<string, Json> | undefined;
  if (!proof || typeof proof.verificationMethod !== 'string') return false;
  const key = keys.find((k) => k.kid === proof.verificationMethod);
  if (!key) return false;
  const publicKey = keyFrom(key.publicKey);
  if (typeof proof.jws === 'string') {
    return cryptoVerify(null, Buffer.from(jcs(credential.credentialSubject), 'utf8'), publicKey, Buffer.from(proof.jws, 'base64url'));
  }
  if (proof.type !== 'DataIntegrityProof' || proof.cryptosuite !== 'eddsa-jcs-2022' || typeof proof.proofValue !== 'string' || !proof.proofValue.startsWith('z')) return false;
  const { proof: _p, ...unsecured } = credential;
  const { proofValue, ...options } = proof;
  const config = { ...options, '@context': unsecured['@context'] };
  const hashData = Buffer.concat([sha256(jcs(config)), sha256(jcs(unsecured))]);
  return cryptoVerify(null, hashData, publicKey, base58Decode((proofValue as string).slice(1)));
}

/** Whether bit `index` of a Bitstring Status List credential is set (most significant bit first). */
export function statusBit(listCredential: Record<string, Json>, index: number): boolean {
  const subject = listCredential.credentialSubject as Record<string, Json>;
  const encoded = subject.encodedList as string;
  if (!encoded.startsWith('u')) throw new Error('status list: not multibase base64url');
  const bits = gunzipSync(Buffer.from(encoded.slice(1), 'base64url'));
  if (bits.length * 8 < 131_072) throw new Error('status list: shorter than 131,072 bits');
  return (bits[index >> 3] & (0x80 >> (index & 7))) !== 0;
}

/** The whole verdict: signature, validity period at `now`, and (given the list) status. */
export function verifyCredential(
  credential: Record<string, Json>,
  options: { keys: readonly VerifierKey[]; now?: Date; statusList?: Record<string, Json> },
): Verdict {
  const failures: string[] = [];
  if (!signatureValid(credential, options.keys)) failures.push('signature');
  const now = (options.now ?? new Date()).getTime();
  if (!(Date.parse(credential.validFrom as string) <= now && now < Date.parse(credential.validUntil as string))) failures.push('validity');
  if (options.statusList) {
    const status = credential.credentialStatus as Record<string, Json>;
    if (statusBit(options.statusList, Number(status.statusListIndex))) failures.push('status');
  }
  return { ok: failures.length === 0, failures };
}
