// Request and response schemas of the public credential routes (they validate requests and
// document the API): the credential in either form, the signing keys, the status lists, a verifier.
import { z } from 'zod';

import { TIERS } from '../seller/seller-trust.events';

export const listParams = z.object({ listId: z.string().min(1).max(64).meta({ description: 'The status list id (the seller\'s workspace id).', examples: ['ws_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }) });

export const credentialQuery = z.object({
  proof: z
    .enum(['jws', 'data-integrity'])
    .optional()
    .meta({ description: '`jws` (default): the spec\'s form, `proof.jws` over credentialSubject. `data-integrity`: a DataIntegrityProof (eddsa-jcs-2022) over the whole credential (also chosen by `Accept: application/vc+ld+json`).' }),
});

export const factor = z.strictObject({
  name: z.string(),
  value: z.number().meta({ description: '0..1.' }),
  weight: z.number().meta({ description: 'Its share of 100.' }),
  contribution: z.number().meta({ description: 'value × weight: what it adds to the score.' }),
  reason: z.string(),
});

const subject = z
  .looseObject({
    type: z.literal('SellerTrustScore'),
    credentialId: z.string(),
    seller: z.strictObject({ id: z.string(), slug: z.string(), name: z.string() }),
    score: z.number().int().nullable().meta({ description: '0..100; null for a `new_seller` (too little history for a number).' }),
    tier: z.enum(TIERS),
    formula: z.string(),
    factors: z.array(factor),
    inputsHash: z.string().meta({ description: '`sha256:<hex>` of the canonical inputs document (GET …/inputs).' }),
    inputsCount: z.number().int(),
    asOf: z.string(),
  })
  .meta({ id: 'TrustCredentialSubject' });

export const credentialResponse = z
  .looseObject({
    '@context': z.array(z.string()),
    id: z.string(),
    type: z.array(z.string()),
    issuer: z.looseObject({ id: z.string(), name: z.string() }),
    validFrom: z.string(),
    validUntil: z.string(),
    credentialSubject: subject,
    credentialStatus: z.looseObject({ id: z.string(), type: z.literal('BitstringStatusListEntry'), statusPurpose: z.string(), statusListIndex: z.string(), statusListCredential: z.string() }),
    proof: z.looseObject({ type: z.string(), created: z.string(), verificationMethod: z.string(), proofPurpose: z.string(), jws: z.string().optional(), proofValue: z.string().optional(), cryptosuite: z.string().optional() }),
  })
  .meta({ id: 'TrustCredential' });

const jwk = z.strictObject({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), kid: z.string(), alg: z.literal('EdDSA'), use: z.literal('sig') });
const keyForms = {
  kid: z.string().meta({ description: 'The key id: a did:key URL (resolvable offline), as proofs name it in `verificationMethod`.' }),
  publicKey: z.string().meta({ description: 'base64url of the raw 32-byte Ed25519 public key.' }),
  publicKeyMultibase: z.string().meta({ description: 'The Multikey form (`z6Mk…`).' }),
  jwk: jwk.meta({ description: 'RFC 8037 JWK.' }),
};
export const publicKeyResponse = z
  .strictObject({
    ...keyForms,
    keys: z
      .array(z.strictObject({ ...keyForms, status: z.enum(['active', 'retired']), addedAt: z.string(), retiredAt: z.string().nullable() }))
      .meta({ description: 'Every key a still-valid credential may name: the active one first, then the retired ones.' }),
  })
  .meta({ id: 'TrustPublicKey' });

export const verifyBody = z
  .strictObject({ credential: z.record(z.string(), z.unknown()).meta({ description: 'A credential as served (either form).' }) })
  .meta({ id: 'VerifyCredential' });

/** The checks of POST /trust/verify, in the order answered. */
export const VERIFY_CHECKS = ['signature', 'issuer', 'id', 'type', 'validity', 'status', 'inputs'] as const;
export type VerifyCheckName = (typeof VERIFY_CHECKS)[number];

export const verifyResponse = z
  .strictObject({
    valid: z.boolean().meta({ description: 'True only when every check passed.' }),
    credentialId: z.string().nullable().meta({ description: 'The credential the subject names (its `credentialId`, else the credential\'s `id`).' }),
    seller: z.string().nullable(),
    checks: z
      .array(z.strictObject({ name: z.enum(VERIFY_CHECKS), ok: z.boolean(), detail: z.string().meta({ description: 'Why it passed or failed, naming what was stated and what was issued.' }) }))
      .meta({
        description:
          'Every check, in this order, each against what this service issued: `signature` (jws or data-integrity, by a listed key; for the jws form also the proof\'s other fields), ' +
          '`issuer` (this service\'s DID and name), `id` (the credential issued for this subject, which names it), `type` (`@context` and `type`, and no field the service did not issue), ' +
          '`validity` (the period issued, now inside it), `status` (the status entry issued, neither revoked nor superseded beyond the grace period), `inputs` (the inputs recomputed from the trades hash to `inputsHash`).',
      }),
  })
  .meta({ id: 'CredentialVerification' });

// Examples (checked against their schemas by the OpenAPI tests).
const KID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK#z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
export const factorsExample = [
  { name: 'completion', value: 0.9375, weight: 35, contribution: 32.81, reason: '15 of 16 trades the seller answered for completed' },
  { name: 'cancellations', value: 0.9412, weight: 15, contribution: 14.12, reason: '1 of 17 trades cancelled by the seller' },
  { name: 'disputes', value: 0.9412, weight: 20, contribution: 18.82, reason: '1 disputed of 17: 0 refunded to the buyer, 1 released to the seller' },
  { name: 'shipping_speed', value: 0.9444, weight: 15, contribution: 14.17, reason: 'median 32 h from payment to shipment over 16 trades' },
  { name: 'volume', value: 0.6021, weight: 10, contribution: 6.02, reason: '15 completed trades (100 count fully)' },
  { name: 'tenure', value: 0.3315, weight: 5, contribution: 1.66, reason: '121 days since the first trade (a year counts fully)' },
];
export const subjectExample = {
  type: 'SellerTrustScore' as const,
  credentialId: 'urn:uuid:8fed2586-e073-4764-bfcd-c690d425aeba',
  seller: { id: 'ws_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', slug: 'acme-cards', name: 'Acme Cards' },
  score: 88,
  tier: 'trusted' as const,
  formula: 'trust-v1',
  factors: factorsExample,
  inputsHash: 'sha256:3a1f0c7b9e2d4a6f8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d1f3a',
  inputsCount: 17,
  asOf: '2026-11-25T10:00:00.000Z',
};
export const credentialExample = {
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  id: subjectExample.credentialId,
  type: ['VerifiableCredential', 'SellerTrustCredential'],
  issuer: { id: KID.split('#')[0], name: 'Collectibles Commerce API' },
  validFrom: '2026-11-25T10:00:00.000Z',
  validUntil: '2027-02-23T10:00:00.000Z',
  credentialSubject: subjectExample,
  credentialStatus: {
    id: 'https://api.example.com/api/v1/trust/status/ws_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3#3',
    type: 'BitstringStatusListEntry' as const,
    statusPurpose: 'revocation',
    statusListIndex: '3',
    statusListCredential: 'https://api.example.com/api/v1/trust/status/ws_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  },
  proof: { type: 'Ed25519CredentialSubjectSignature', created: '2026-11-25T10:00:00.000Z', verificationMethod: KID, proofPurpose: 'assertionMethod', jws: 'q3Rk…base64url…Zw' },
};
const keyFormsExample = {
  kid: KID,
  publicKey: 'Lm_M42cB3HkUiODQsXRcweM6TByfzEHGO9ND274JcOY',
  publicKeyMultibase: 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
  jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: 'Lm_M42cB3HkUiODQsXRcweM6TByfzEHGO9ND274JcOY', kid: KID, alg: 'EdDSA' as const, use: 'sig' as const },
};
export const publicKeyExample = { ...keyFormsExample, keys: [{ ...keyFormsExample, status: 'active' as const, addedAt: '2026-11-01T00:00:00.000Z', retiredAt: null }] };
export const verifyExample = {
  valid: true,
  credentialId: subjectExample.credentialId,
  seller: 'acme-cards',
  checks: [
    { name: 'signature' as const, ok: true, detail: 'Ed25519 signature over the JCS of credentialSubject verifies' },
    { name: 'issuer' as const, ok: true, detail: `Collectibles Commerce API (${KID.split('#')[0]}), this service` },
    { name: 'id' as const, ok: true, detail: `${subjectExample.credentialId}, issued by this service for this subject` },
    { name: 'type' as const, ok: true, detail: 'VerifiableCredential, SellerTrustCredential, as issued' },
    { name: 'validity' as const, ok: true, detail: 'valid from 2026-11-25T10:00:00.000Z until 2027-02-23T10:00:00.000Z' },
    { name: 'status' as const, ok: true, detail: 'not revoked (the current credential)' },
    { name: 'inputs' as const, ok: true, detail: `the inputs recomputed from the trades hash to ${subjectExample.inputsHash}` },
  ],
};
