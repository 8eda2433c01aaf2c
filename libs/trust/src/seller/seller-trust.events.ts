// Stored contract of a seller's trust record (stream `trust-<workspaceId>`): each credential issued
// (with both signatures, so the log alone rebuilds it), each change of score (public:
// trust.score_updated), and each flag (revocation) and its lifting. Public data is mapped in
// seller-trust.public.ts.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const TIERS = ['new_seller', 'developing', 'established', 'trusted', 'top_rated'] as const;
export const FLAGGERS = ['operator', 'seller'] as const;
export type Flagger = (typeof FLAGGERS)[number];
/** Why a credential was issued: new inputs, its renewal before expiry, a lifted flag, a new signing key. */
export const ISSUE_REASONS = ['inputs', 'renewal', 'reinstated', 'rotation'] as const;
export type IssueReason = (typeof ISSUE_REASONS)[number];

const factor = z.object({
  name: z.enum(['completion', 'cancellations', 'disputes', 'shipping_speed', 'volume', 'tenure']),
  value: z.number(),
  weight: z.number(),
  contribution: z.number(),
  reason: z.string(),
});

export const credentialSubject = z.object({
  type: z.literal('SellerTrustScore'),
  credentialId: z.string(),
  seller: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  score: z.number().int().nullable(),
  tier: z.enum(TIERS),
  formula: z.string(),
  factors: z.array(factor),
  inputsHash: z.string(),
  inputsCount: z.number().int(),
  asOf: z.string(),
});

export const credentialIssued = z.object({
  credentialId: z.string(),
  issuedAt: z.string(),
  validUntil: z.string(),
  kid: z.string(),
  subject: credentialSubject,
  statusListCredential: z.string(),
  statusListIndex: z.number().int(),
  jws: z.string(),
  proofValue: z.string(),
  /** The log position the inputs reach up to (the last trade outcome they count). */
  inputsPosition: z.number().int(),
  reason: z.enum(ISSUE_REASONS),
});
export type CredentialIssued = z.infer<typeof credentialIssued>;

export const scoreUpdated = z.object({
  sellerId: z.string(),
  sellerSlug: z.string(),
  score: z.number().int().nullable(),
  previousScore: z.number().int().nullable(),
  tier: z.enum(TIERS),
  previousTier: z.enum(TIERS).nullable(),
  credentialId: z.string(),
  at: z.string(),
});
export type ScoreUpdated = z.infer<typeof scoreUpdated>;

export const credentialRevoked = z.object({ credentialId: z.string(), by: z.enum(FLAGGERS), reason: z.string(), at: z.string() });
export type CredentialRevoked = z.infer<typeof credentialRevoked>;

export const sellerReinstated = z.object({ by: z.enum(FLAGGERS), at: z.string() });

export type SellerTrustEvent =
  | { type: 'trust.credential_issued'; data: CredentialIssued }
  | { type: 'trust.score_updated'; data: ScoreUpdated }
  | { type: 'trust.credential_revoked'; data: CredentialRevoked }
  | { type: 'trust.seller_reinstated'; data: z.infer<typeof sellerReinstated> };

export const SELLER_TRUST_EVENT_TYPES = ['trust.credential_issued', 'trust.score_updated', 'trust.credential_revoked', 'trust.seller_reinstated'] as const;

export const parseSellerTrustEvent = parseOnce((event: RecordedEvent): SellerTrustEvent => {
  switch (event.type) {
    case 'trust.credential_issued':
      return { type: event.type, data: credentialIssued.parse(event.data) };
    case 'trust.score_updated':
      return { type: event.type, data: scoreUpdated.parse(event.data) };
    case 'trust.credential_revoked':
      return { type: event.type, data: credentialRevoked.parse(event.data) };
    case 'trust.seller_reinstated':
      return { type: event.type, data: sellerReinstated.parse(event.data) };
    default:
      throw new Error(`Not a seller trust event: ${event.type}`);
  }
});

export const sellerTrustStream = (workspaceId: string) => `trust-${workspaceId}`;
