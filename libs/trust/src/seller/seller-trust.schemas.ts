// Request and response schemas of a seller's own trust routes (its score, its flag), and the slug
// every trust route names a seller by.
import { z } from 'zod';

import { factor, factorsExample, subjectExample } from '../credential/credential.schemas';
import { TIERS } from './seller-trust.events';

const slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'a workspace slug: lowercase letters, digits and hyphens')
  .meta({ description: 'The seller\'s slug (its workspace\'s).', examples: ['acme-cards'] });

export const sellerParams = z.object({ slug });

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

export const trustFlagResponse = z
  .strictObject({
    sellerId: z.string(),
    slug: z.string(),
    credentialId: z.string().nullable().meta({ description: 'Your current credential (revoked while flagged); null before your first completed trade.' }),
    flag: z.strictObject({ by: z.enum(['operator', 'seller']), reason: z.string(), at: z.string() }).nullable().meta({ description: 'Set while your credentials are revoked.' }),
  })
  .meta({ id: 'TrustFlag' });


// Examples (checked against their schemas by the OpenAPI tests).
export const trustScoreExample = {
  sellerId: subjectExample.seller.id,
  slug: 'acme-cards',
  score: 88,
  tier: 'trusted' as const,
  factors: factorsExample,
  inputsCount: 17,
  credentialId: subjectExample.credentialId,
  issuedAt: '2026-11-25T10:00:00.000Z',
  validUntil: '2027-02-23T10:00:00.000Z',
  flag: null,
};
export const trustFlagExample = { sellerId: subjectExample.seller.id, slug: 'acme-cards', credentialId: subjectExample.credentialId, flag: null };
