// A seller's trust record: issues credentials (each with the next index of the seller's status
// list), records a change of score beside the credential that carries it, and flags (revokes) and
// reinstates. Idempotent where a process manager or a timer drives it: inputs the record has
// already counted issue nothing, and a renewal of a credential that is not due issues nothing.
// While flagged, no credential is issued; a flag the operator set is lifted only by the operator.
// Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { CredentialIssued, Flagger, SellerTrustEvent } from './seller-trust.events';

type Tier = CredentialIssued['subject']['tier'];

export interface IssueCredential {
  type: 'IssueCredential';
  credential: CredentialIssued;
  /** A renewal issues only when the current credential's validUntil is at or before this instant. */
  renewIfDueBy?: string;
  now: Date;
}
export interface RevokeCredential {
  type: 'RevokeCredential';
  by: Flagger;
  reason: string;
  now: Date;
}
export interface ReinstateSeller {
  type: 'ReinstateSeller';
  by: Flagger;
  now: Date;
}
export type SellerTrustCommand = IssueCredential | RevokeCredential | ReinstateSeller;

export interface SellerTrustState {
  /** Credentials issued so far: the next one's status list index. */
  issued: number;
  inputsPosition: number;
  score: number | null;
  tier: Tier | null;
  current: { credentialId: string; issuedAt: string; validUntil: string; kid: string } | null;
  flag: { by: Flagger; reason: string; at: string; credentialId: string } | null;
}

export const sellerTrustDecider: Decider<SellerTrustCommand, SellerTrustEvent, SellerTrustState> = {
  initialState: { issued: 0, inputsPosition: -1, score: null, tier: null, current: null, flag: null },

  decide(command, state) {
    switch (command.type) {
      case 'IssueCredential': {
        const c = command.credential;
        if (state.flag) return [];
        if (c.reason === 'inputs' && c.inputsPosition <= state.inputsPosition) return [];
        if (c.reason === 'renewal' && (state.current === null || command.renewIfDueBy === undefined || state.current.validUntil > command.renewIfDueBy)) return [];
        if (c.statusListIndex !== state.issued) {
          throw new DomainError('CONFLICT', `The credential's status list index ${c.statusListIndex} is not the next one (${state.issued})`);
        }
        const events: SellerTrustEvent[] = [{ type: 'trust.credential_issued', data: c }];
        if (state.tier === null || c.subject.score !== state.score || c.subject.tier !== state.tier) {
          events.push({
            type: 'trust.score_updated',
            data: {
              sellerId: c.subject.seller.id,
              sellerSlug: c.subject.seller.slug,
              score: c.subject.score,
              previousScore: state.score,
              tier: c.subject.tier,
              previousTier: state.tier,
              credentialId: c.credentialId,
              at: c.issuedAt,
            },
          });
        }
        return events;
      }
      case 'RevokeCredential': {
        if (state.current === null) throw new DomainError('NOT_FOUND', 'This seller has no credential to revoke');
        const reason = command.reason.trim();
        if (state.flag) {
          // Revoking again is a no-op, as long as it is the same revocation: the party that flagged
          // giving another reason is not (the other party's flag simply stands).
          if (state.flag.by === command.by && reason && reason !== state.flag.reason) {
            throw new DomainError('CONFLICT', `The credential is revoked already, with reason ${JSON.stringify(state.flag.reason)}; this revocation gives ${JSON.stringify(reason)}`, {
              field: 'reason',
              recorded: state.flag.reason,
              given: reason,
            });
          }
          return [];
        }
        if (!reason) throw DomainError.validation('A revocation needs a reason', [{ path: 'reason', message: 'required' }]);
        return [{ type: 'trust.credential_revoked', data: { credentialId: state.current.credentialId, by: command.by, reason, at: command.now.toISOString() } }];
      }
      case 'ReinstateSeller': {
        if (!state.flag) return [];
        if (state.flag.by === 'operator' && command.by !== 'operator') {
          throw new DomainError('CONFLICT', 'The service\'s operator flagged this seller: only the operator can reinstate it', { flaggedBy: 'operator' });
        }
        return [{ type: 'trust.seller_reinstated', data: { by: command.by, at: command.now.toISOString() } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'trust.credential_issued': {
        const c = event.data;
        return {
          ...state,
          issued: Math.max(state.issued, c.statusListIndex + 1),
          inputsPosition: Math.max(state.inputsPosition, c.inputsPosition),
          score: c.subject.score,
          tier: c.subject.tier,
          current: { credentialId: c.credentialId, issuedAt: c.issuedAt, validUntil: c.validUntil, kid: c.kid },
        };
      }
      case 'trust.credential_revoked':
        return { ...state, flag: { by: event.data.by, reason: event.data.reason, at: event.data.at, credentialId: event.data.credentialId } };
      case 'trust.seller_reinstated':
        return { ...state, flag: null };
      default:
        return state;
    }
  },
};
