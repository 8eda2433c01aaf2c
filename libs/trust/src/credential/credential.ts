// The seller trust credential (W3C Verifiable Credentials Data Model 2.0) in its two forms, built
// from what `trust.credential_issued` records — so the log alone rebuilds every credential, byte
// for byte — and how each form is signed and checked:
// - the spec's form: `proof.jws` is the base64url Ed25519 signature of the RFC 8785 serialization
//   of `credentialSubject`. It signs the subject only: the subject names its credential
//   (`credentialId`), and the issuer's registry (POST /trust/verify) vouches for the envelope
//   around it — issuer, id, type, period and status entry, as issued (envelope.ts). The subject is served with its keys in RFC 8785 order, so
//   `JSON.stringify` of the parsed subject — the interface taken literally — is the signed text;
// - the standard form: a `DataIntegrityProof` with cryptosuite `eddsa-jcs-2022` over the whole
//   credential (period and status included), as W3C Data Integrity EdDSA specifies it: the
//   signature covers SHA-256(JCS(proof configuration)) ‖ SHA-256(JCS(credential without proof)),
//   and `proofValue` is its base58btc multibase. The proof carries the document's `@context`, so
//   the configuration a verifier hashes is the same whether it takes the proof as attached or sets
//   the document's context on it (the specification's two test vectors do one each; both verify
//   here, and our signer reproduces its signed vector byte for byte). Stock verifiers accept it
//   offline: the key id is a did:key.
import { createHash } from 'node:crypto';

import { canonicalJson, inCanonicalOrder } from '../score/trust-inputs';
import type { TrustFactor, TrustTier } from '../score/trust-score';
import { base58btc, controllerOf, fromBase58btc, sign, verify } from './ed25519';

export const VC_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
export const CREDENTIAL_TYPES = ['VerifiableCredential', 'SellerTrustCredential'] as const;
export const SPEC_PROOF_TYPE = 'Ed25519CredentialSubjectSignature';
export const ISSUER_NAME = 'Collectibles Commerce API';

export interface CredentialSubject {
  type: 'SellerTrustScore';
  /** The credential this subject was signed for (`urn:uuid:…`): its period and status are the issuer's record of it. */
  credentialId: string;
  seller: { id: string; slug: string; name: string };
  score: number | null;
  tier: TrustTier;
  formula: string;
  factors: TrustFactor[];
  inputsHash: string;
  inputsCount: number;
  asOf: string;
}

/** What an issued credential is made of (the data of `trust.credential_issued`, less bookkeeping). */
export interface CredentialRecord {
  credentialId: string;
  issuedAt: string;
  validUntil: string;
  kid: string;
  subject: CredentialSubject;
  statusListCredential: string;
  statusListIndex: number;
  /** The spec form's signature (base64url). */
  jws: string;
  /** The standard form's proof value (multibase base58btc). */
  proofValue: string;
}

export type CredentialForm = 'spec' | 'data-integrity';
type Json = Record<string, unknown>;

/** What the envelope around the subject is made of: the registry keeps it for each credential issued. */
export type EnvelopeRecord = Pick<CredentialRecord, 'credentialId' | 'issuedAt' | 'validUntil' | 'kid' | 'statusListCredential' | 'statusListIndex'>;

/**
 * The credential as issued, less its subject and proof — what POST /trust/verify compares a
 * presented credential with, since the spec form's jws does not cover it.
 */
export function issuedEnvelope(record: EnvelopeRecord): Json {
  return {
    '@context': [VC_CONTEXT],
    id: record.credentialId,
    type: [...CREDENTIAL_TYPES],
    issuer: issuerOf(record.kid),
    validFrom: record.issuedAt,
    validUntil: record.validUntil,
    credentialStatus: {
      id: `${record.statusListCredential}#${record.statusListIndex}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(record.statusListIndex),
      statusListCredential: record.statusListCredential,
    },
  };
}

/** The issuer a credential signed with `kid` names: this service, by that key's DID. */
export function issuerOf(kid: string): { id: string; name: string } {
  return { id: controllerOf(kid), name: ISSUER_NAME };
}

/** The spec form's proof as issued, less its jws. */
export function specProofOptions(record: Pick<CredentialRecord, 'issuedAt' | 'kid'>): Json {
  return { type: SPEC_PROOF_TYPE, created: record.issuedAt, verificationMethod: record.kid, proofPurpose: 'assertionMethod' };
}

/** The credential without any proof: what the data-integrity proof covers. */
export function unsecuredCredential(record: Omit<CredentialRecord, 'jws' | 'proofValue'>): Json {
  const { credentialStatus, ...head } = issuedEnvelope(record);
  return { ...head, credentialSubject: inCanonicalOrder(record.subject), credentialStatus };
}

/** The data-integrity proof's options (the proof without its value) for a document. */
function proofOptions(unsecured: Json, kid: string, created: string): Json {
  const options: Json = { type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022', created, verificationMethod: kid, proofPurpose: 'assertionMethod' };
  return unsecured['@context'] === undefined ? options : { ...options, '@context': unsecured['@context'] };
}

/** The credential as served in one form. */
export function credentialDocument(record: CredentialRecord, form: CredentialForm): Json {
  const unsecured = unsecuredCredential(record);
  if (form === 'data-integrity') return { ...unsecured, proof: { ...proofOptions(unsecured, record.kid, record.issuedAt), proofValue: record.proofValue } };
  return { ...unsecured, proof: { ...specProofOptions(record), jws: record.jws } };
}

/** Both signatures of a credential about to be issued. */
export function signCredential(record: Omit<CredentialRecord, 'jws' | 'proofValue'>, secretKey: Uint8Array): { jws: string; proofValue: string } {
  const jws = Buffer.from(sign(utf8(canonicalJson(record.subject)), secretKey)).toString('base64url');
  const proofValue = signDataIntegrity(unsecuredCredential(record), record.kid, record.issuedAt, secretKey);
  return { jws, proofValue };
}

/** eddsa-jcs-2022's proof value over a document (the credential, or a status list credential). */
export function signDataIntegrity(unsecured: Json, kid: string, created: string, secretKey: Uint8Array): string {
  return `z${base58btc(sign(dataIntegrityHash(unsecured, proofOptions(unsecured, kid, created)), secretKey))}`;
}

function dataIntegrityHash(unsecured: Json, config: Json): Uint8Array {
  return Buffer.concat([sha256(canonicalJson(config)), sha256(canonicalJson(unsecured))]);
}

/** A data-integrity proof attached to a document, as served. */
export function withDataIntegrityProof(unsecured: Json, kid: string, created: string, secretKey: Uint8Array): Json {
  return { ...unsecured, proof: { ...proofOptions(unsecured, kid, created), proofValue: signDataIntegrity(unsecured, kid, created, secretKey) } };
}

export interface SignatureCheck {
  ok: boolean;
  form: CredentialForm | null;
  kid: string | null;
  detail: string;
}

/** Checks a credential's proof (either form) against the keys known by id. */
export function checkSignature(credential: unknown, keyOf: (kid: string) => Uint8Array | null): SignatureCheck {
  if (!isObject(credential) || !isObject(credential.proof)) return { ok: false, form: null, kid: null, detail: 'the credential has no proof' };
  const proof = credential.proof;
  const kid = typeof proof.verificationMethod === 'string' ? proof.verificationMethod : null;
  const key = kid ? keyOf(kid) : null;
  if (!kid || !key) return { ok: false, form: null, kid, detail: `the proof's verificationMethod is not a key of this issuer${kid ? ` (${kid})` : ''}` };
  if (typeof proof.jws === 'string') {
    const signature = Buffer.from(proof.jws, 'base64url');
    let message: Uint8Array;
    try {
      message = utf8(canonicalJson(credential.credentialSubject));
    } catch {
      return { ok: false, form: 'spec', kid, detail: 'credentialSubject cannot be canonicalized' };
    }
    const ok = signature.length === 64 && verify(signature, message, key);
    return { ok, form: 'spec', kid, detail: ok ? 'Ed25519 signature over the JCS of credentialSubject verifies' : 'the signature does not match credentialSubject' };
  }
  if (proof.type === 'DataIntegrityProof' && proof.cryptosuite === 'eddsa-jcs-2022' && typeof proof.proofValue === 'string') {
    const signature = proof.proofValue.startsWith('z') ? fromBase58btc(proof.proofValue.slice(1)) : null;
    const { proof: _proof, ...unsecured } = credential;
    const { proofValue: _value, ...options } = proof;
    // The configuration as attached; a proof without `@context` may also have been signed with the document's.
    const configs = options['@context'] === undefined && unsecured['@context'] !== undefined ? [options, { ...options, '@context': unsecured['@context'] }] : [options];
    let ok = false;
    try {
      ok = signature !== null && signature.length === 64 && configs.some((config) => verify(signature, dataIntegrityHash(unsecured, config), key));
    } catch {
      ok = false;
    }
    return { ok, form: 'data-integrity', kid, detail: ok ? 'eddsa-jcs-2022 proof over the whole credential verifies' : 'the data-integrity proof does not match the credential' };
  }
  return { ok: false, form: null, kid, detail: 'the proof is neither a jws nor an eddsa-jcs-2022 DataIntegrityProof' };
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
