// Request and response schemas of the trust routes (they validate requests and document the API).
import { z } from 'zod';

import { isoInstant } from '@app/platform';

import { TIERS } from './seller/seller-trust.events';

const slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'a workspace slug: lowercase letters, digits and hyphens')
  .meta({ description: 'The seller\'s slug (its workspace\'s).', examples: ['acme-cards'] });

export const sellerParams = z.object({ slug });
export const listParams = z.object({ listId: z.string().min(1).max(64).meta({ description: 'The status list id (the seller\'s workspace id).', examples: ['ws_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }) });

export const credentialQuery = z.object({
  proof: z
    .enum(['jws', 'data-integrity'])
    .optional()
    .meta({ description: '`jws` (default): the spec\'s form, `proof.jws` over credentialSubject. `data-integrity`: a DataIntegrityProof (eddsa-jcs-2022) over the whole credential (also chosen by `Accept: application/vc+ld+json`).' }),
});

const factor = z.strictObject({
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

export const verifyResponse = z
  .strictObject({
    valid: z.boolean().meta({ description: 'True only when every check passed.' }),
    credentialId: z.string().nullable(),
    seller: z.string().nullable(),
    checks: z.array(z.strictObject({ name: z.enum(['signature', 'validity', 'status', 'inputs']), ok: z.boolean(), detail: z.string() })),
  })
  .meta({ id: 'CredentialVerification' });

export const revokeBody = z
  .strictObject({ reason: z.string().trim().min(1).max(500).meta({ description: 'Why (kept in the registry).' }) })
  .meta({ id: 'RevokeCredential' });

export const trustScoreResponse = z
  .strictObject({
    sellerId: z.string(),
    slug: z.string(),
    score: z.number().int().nullable(),
    tier: z.enum(TIERS),
    factors: z.array(factor),
    inputsCount: z.number().int(),
    credentialId: z.string(),
    issuedAt: z.string(),
    validUntil: z.string(),
    flag: z.strictObject({ by: z.enum(['operator', 'seller']), reason: z.string(), at: z.string() }).nullable().meta({ description: 'Set while the credential is revoked.' }),
  })
  .meta({ id: 'TrustScore' });

export const scansQuery = z.object({
  from: isoInstant.optional().meta({ description: 'First day (its UTC date counts); default 30 days ago.' }),
  to: isoInstant.optional().meta({ description: 'Last day (its UTC date counts); default today.' }),
});

export const scansResponse = z
  .strictObject({
    from: z.string().meta({ description: 'YYYY-MM-DD.' }),
    to: z.string(),
    total: z.number().int(),
    data: z.array(z.strictObject({ date: z.string(), count: z.number().int(), badge: z.number().int(), qr: z.number().int() })).meta({ description: 'Days with scans, oldest first.' }),
  })
  .meta({ id: 'TrustScans' });

export const badgeQuery = z.object({ theme: z.enum(['light', 'dark']).optional().meta({ description: 'Default light.' }) });
export const scanQuery = z.object({ via: z.enum(['badge', 'qr']).optional().meta({ description: 'Where the visitor came from (default badge).' }) });
export const verifyAssetParams = z.object({ file: z.enum(['verify.js', 'verify.css']).meta({ description: 'The page\'s script or stylesheet.' }) });
