// The seller's trust record: credentials issued with the next status list index, a score change
// recorded beside the credential that carries it, idempotent issues (inputs already counted, a
// renewal not yet due, a flagged seller), and flags (revocation) lifted only by whoever may.
import { fold } from '@app/platform/domain';
import { deciderSpec } from '@app/testing/support/decider-spec';

import { type SellerTrustCommand, sellerTrustDecider } from './seller-trust.decider';
import type { CredentialIssued, SellerTrustEvent } from './seller-trust.events';

const spec = deciderSpec(sellerTrustDecider);
const now = new Date('2026-11-24T12:00:00.000Z');
const at = now.toISOString();

function credential(n: number, extra: Partial<CredentialIssued> = {}, subject: Partial<CredentialIssued['subject']> = {}): CredentialIssued {
  const credentialId = `urn:uuid:00000000-0000-4000-8000-00000000000${n}`;
  return {
    credentialId,
    issuedAt: `2026-1${n % 2}-0${n + 1}T00:00:00.000Z`,
    validUntil: `2027-0${n + 1}-01T00:00:00.000Z`,
    kid: 'did:key:z6Mk1#z6Mk1',
    subject: {
      type: 'SellerTrustScore',
      credentialId,
      seller: { id: 'ws_1', slug: 'acme', name: 'Acme Cards' },
      score: 84,
      tier: 'trusted',
      formula: 'trust-v1',
      factors: [],
      inputsHash: `sha256:${'0'.repeat(64)}`,
      inputsCount: 7,
      asOf: `2026-1${n % 2}-0${n + 1}T00:00:00.000Z`,
      ...subject,
    },
    statusListCredential: 'https://api.example/trust/status/1',
    statusListIndex: n,
    jws: `jws-${n}`,
    proofValue: `z${n}`,
    inputsPosition: 10 * (n + 1),
    reason: 'inputs',
    ...extra,
  };
}

const issued = (c: CredentialIssued): SellerTrustEvent => ({ type: 'trust.credential_issued', data: c });
const issue = (c: CredentialIssued, renewIfDueBy?: string): SellerTrustCommand => ({ type: 'IssueCredential', credential: c, now, ...(renewIfDueBy ? { renewIfDueBy } : {}) });
const revoked = (c: CredentialIssued, by: 'operator' | 'seller', reason = 'fraud report'): SellerTrustEvent => ({
  type: 'trust.credential_revoked',
  data: { credentialId: c.credentialId, by, reason, at },
});
const reinstated = (by: 'operator' | 'seller'): SellerTrustEvent => ({ type: 'trust.seller_reinstated', data: { by, at } });

const c0 = credential(0);
const c1 = credential(1);

describe('seller trust decider', () => {
  describe('IssueCredential', () => {
    it('issues the first credential and records the first score (no previous score or tier)', () => {
      spec
        .given([])
        .when(issue(c0))
        .then([
          issued(c0),
          {
            type: 'trust.score_updated',
            data: {
              sellerId: 'ws_1',
              sellerSlug: 'acme',
              score: 84,
              previousScore: null,
              tier: 'trusted',
              previousTier: null,
              credentialId: c0.credentialId,
              at: c0.issuedAt,
            },
          },
        ]);
    });

    it('records a first credential without a number (new_seller) as a score update too', () => {
      const fresh = credential(0, {}, { score: null, tier: 'new_seller' });
      const events = sellerTrustDecider.decide(issue(fresh), sellerTrustDecider.initialState);
      expect(events.map((e) => e.type)).toEqual(['trust.credential_issued', 'trust.score_updated']);
      expect(events[1].data).toMatchObject({ score: null, previousScore: null, tier: 'new_seller', previousTier: null });
    });

    it('issues only the credential when the score and tier are unchanged', () => {
      spec.given([issued(c0)]).when(issue(c1)).then([issued(c1)]);
    });

    it('records a changed score with the previous score and tier', () => {
      const lower = credential(1, {}, { score: 72, tier: 'established' });
      spec
        .given([issued(c0)])
        .when(issue(lower))
        .then([
          issued(lower),
          {
            type: 'trust.score_updated',
            data: {
              sellerId: 'ws_1',
              sellerSlug: 'acme',
              score: 72,
              previousScore: 84,
              tier: 'established',
              previousTier: 'trusted',
              credentialId: lower.credentialId,
              at: lower.issuedAt,
            },
          },
        ]);
    });

    it('records a change of score within the same tier', () => {
      const higher = credential(1, {}, { score: 85 });
      const events = sellerTrustDecider.decide(issue(higher), fold(sellerTrustDecider, [issued(c0)]));
      expect(events[1]).toEqual({
        type: 'trust.score_updated',
        data: expect.objectContaining({ score: 85, previousScore: 84, tier: 'trusted', previousTier: 'trusted' }),
      });
    });

    it('issues nothing for inputs the record has already counted (at or before its inputs position)', () => {
      // c0 counted inputs up to position 10.
      spec.given([issued(c0)]).when(issue(credential(1, { inputsPosition: 10 }))).then([]);
      spec.given([issued(c0)]).when(issue(credential(1, { inputsPosition: 3 }))).then([]);
      spec.given([issued(c0)]).when(issue(credential(1, { inputsPosition: 11 }))).then([issued(credential(1, { inputsPosition: 11 }))]);
    });

    it('renews only when the current credential is due (validUntil at or before renewIfDueBy)', () => {
      const renewal = credential(1, { reason: 'renewal', inputsPosition: 10 });
      // c0 is valid until 2027-01-01.
      spec.given([issued(c0)]).when(issue(renewal, '2026-12-31T23:59:59.999Z')).then([]);
      spec.given([issued(c0)]).when(issue(renewal, '2027-01-01T00:00:00.000Z')).then([issued(renewal)]);
      spec.given([issued(c0)]).when(issue(renewal, '2027-02-01T00:00:00.000Z')).then([issued(renewal)]);
      // No due-by instant, or nothing to renew: nothing.
      spec.given([issued(c0)]).when(issue(renewal)).then([]);
      spec.given([]).when(issue(credential(0, { reason: 'renewal' }), '2030-01-01T00:00:00.000Z')).then([]);
    });

    it('refuses a status list index other than the next one', () => {
      spec.given([]).when(issue(credential(1))).thenThrows('CONFLICT', 'status list index 1 is not the next one (0)');
      spec.given([issued(c0)]).when(issue(credential(0, { inputsPosition: 99 }))).thenThrows('CONFLICT', '(1)');
      spec.given([issued(c0)]).when(issue(credential(2))).thenThrows('CONFLICT', 'status list index 2');
    });

    it('issues nothing while the seller is flagged, whatever the reason', () => {
      for (const reason of ['inputs', 'renewal', 'reinstated', 'rotation'] as const) {
        spec.given([issued(c0), revoked(c0, 'operator')]).when(issue(credential(1, { reason, inputsPosition: 99 }), '2030-01-01T00:00:00.000Z')).then([]);
        spec.given([issued(c0), revoked(c0, 'seller')]).when(issue(credential(1, { reason, inputsPosition: 99 }), '2030-01-01T00:00:00.000Z')).then([]);
      }
    });

    it('issues again after a reinstatement, with the next index', () => {
      const again = credential(1, { reason: 'reinstated', inputsPosition: 10 });
      spec.given([issued(c0), revoked(c0, 'operator'), reinstated('operator')]).when(issue(again)).then([issued(again)]);
      spec.given([issued(c0), revoked(c0, 'seller'), reinstated('seller')]).when(issue(again)).then([issued(again)]);
    });
  });

  describe('RevokeCredential', () => {
    const revoke = (by: 'operator' | 'seller', reason = 'fraud report'): SellerTrustCommand => ({ type: 'RevokeCredential', by, reason, now });

    it('has nothing to revoke before a credential', () => {
      spec.given([]).when(revoke('operator')).thenThrows('NOT_FOUND');
    });

    it('revokes the current credential (the latest issued), reason trimmed', () => {
      spec.given([issued(c0)]).when(revoke('operator', '  fraud report ')).then([revoked(c0, 'operator')]);
      spec.given([issued(c0), issued(c1)]).when(revoke('seller', 'closing shop')).then([revoked(c1, 'seller', 'closing shop')]);
    });

    it('revokes nothing a second time (already flagged)', () => {
      spec.given([issued(c0), revoked(c0, 'operator')]).when(revoke('operator')).then([]);
      spec.given([issued(c0), revoked(c0, 'operator')]).when(revoke('operator', ' fraud report ')).then([]);
      spec.given([issued(c0), revoked(c0, 'seller')]).when(revoke('operator')).then([]);
      spec.given([issued(c0), revoked(c0, 'operator')]).when(revoke('seller', 'closing shop')).then([]);
    });

    it('refuses a second revocation by the same party that gives another reason (409 naming the field)', () => {
      spec.given([issued(c0), revoked(c0, 'seller')]).when(revoke('seller', 'closing shop')).thenThrows('CONFLICT', 'reason "fraud report"');
      expect(() => sellerTrustDecider.decide(revoke('seller', 'closing shop'), fold(sellerTrustDecider, [issued(c0), revoked(c0, 'seller')]))).toThrow(
        expect.objectContaining({ details: { field: 'reason', recorded: 'fraud report', given: 'closing shop' } }),
      );
    });

    it('needs a reason', () => {
      spec.given([issued(c0)]).when(revoke('operator', '')).thenThrows('VALIDATION_FAILED', 'reason');
      spec.given([issued(c0)]).when(revoke('seller', '   \n\t')).thenThrows('VALIDATION_FAILED', 'reason');
    });
  });

  describe('ReinstateSeller', () => {
    const reinstate = (by: 'operator' | 'seller'): SellerTrustCommand => ({ type: 'ReinstateSeller', by, now });

    it('does nothing when the seller is not flagged', () => {
      spec.given([]).when(reinstate('operator')).then([]);
      spec.given([issued(c0)]).when(reinstate('seller')).then([]);
      spec.given([issued(c0), revoked(c0, 'seller'), reinstated('seller')]).when(reinstate('seller')).then([]);
    });

    it("refuses the seller lifting the operator's flag", () => {
      spec.given([issued(c0), revoked(c0, 'operator')]).when(reinstate('seller')).thenThrows('CONFLICT', 'only the operator');
    });

    it("lets the operator lift its own flag, and the seller's", () => {
      spec.given([issued(c0), revoked(c0, 'operator')]).when(reinstate('operator')).then([reinstated('operator')]);
      spec.given([issued(c0), revoked(c0, 'seller')]).when(reinstate('operator')).then([reinstated('operator')]);
    });

    it('lets the seller lift its own flag', () => {
      spec.given([issued(c0), revoked(c0, 'seller')]).when(reinstate('seller')).then([reinstated('seller')]);
    });
  });

  describe('evolve', () => {
    it('counts the credentials issued, follows the current one and the inputs reached', () => {
      const c2 = credential(2, {}, { score: 91, tier: 'top_rated' });
      expect(fold(sellerTrustDecider, [])).toEqual({ issued: 0, inputsPosition: -1, score: null, tier: null, current: null, flag: null });
      expect(fold(sellerTrustDecider, [issued(c0)])).toEqual({
        issued: 1,
        inputsPosition: 10,
        score: 84,
        tier: 'trusted',
        current: { credentialId: c0.credentialId, issuedAt: c0.issuedAt, validUntil: c0.validUntil, kid: c0.kid },
        flag: null,
      });
      const state = fold(sellerTrustDecider, [issued(c0), issued(c1), issued(c2)]);
      expect(state).toEqual({
        issued: 3,
        inputsPosition: 30,
        score: 91,
        tier: 'top_rated',
        current: { credentialId: c2.credentialId, issuedAt: c2.issuedAt, validUntil: c2.validUntil, kid: c2.kid },
        flag: null,
      });
    });

    it('never lowers the inputs position (a renewal over older inputs)', () => {
      const renewal = credential(1, { reason: 'renewal', inputsPosition: 4 });
      expect(fold(sellerTrustDecider, [issued(c0), issued(renewal)]).inputsPosition).toBe(10);
    });

    it('keeps the flag with who set it, and clears it on reinstatement', () => {
      expect(fold(sellerTrustDecider, [issued(c0), revoked(c0, 'operator')]).flag).toEqual({ by: 'operator', reason: 'fraud report', at, credentialId: c0.credentialId });
      expect(fold(sellerTrustDecider, [issued(c0), revoked(c0, 'operator'), reinstated('operator')]).flag).toBeNull();
    });

    it('ignores score updates (the credential carries the score)', () => {
      const before = fold(sellerTrustDecider, [issued(c0)]);
      const after = sellerTrustDecider.evolve(before, {
        type: 'trust.score_updated',
        data: { sellerId: 'ws_1', sellerSlug: 'acme', score: 1, previousScore: 84, tier: 'developing', previousTier: 'trusted', credentialId: 'x', at },
      });
      expect(after).toEqual(before);
    });
  });
});
