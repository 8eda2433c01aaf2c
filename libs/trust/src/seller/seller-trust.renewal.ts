// Renewal: a credential is renewed when four fifths of its validity have passed, so a seller with
// no new trades still always has a current credential. A durable timer per seller, scheduled by
// each credential issued (the next one replaces it); the renewal itself is judged by the seller's
// record (due, not flagged), so a late or repeated firing issues once.
import { Injectable } from '@nestjs/common';

import type { DueTimer, TimerHandler, TimerSource } from '@app/platform';

import { credentialIssued } from './seller-trust.events';
import { CredentialIssuer } from './seller-trust.issuer';

export const RENEW_AT = 0.8;

export const renewalSource: TimerSource = {
  name: 'trust-renewal',
  eventTypes: ['trust.credential_issued'],
  timersOf(event) {
    const c = credentialIssued.parse(event.data);
    const from = Date.parse(c.issuedAt);
    const dueAt = new Date(from + RENEW_AT * (Date.parse(c.validUntil) - from)).toISOString();
    const workspaceId = event.metadata.workspaceId;
    return { schedule: [{ timerId: `trust-renewal:${workspaceId}`, kind: 'trust.renewal', dueAt, workspaceId, subjectId: workspaceId }] };
  },
};

@Injectable()
export class TrustRenewalHandler implements TimerHandler {
  readonly kind = 'trust.renewal';

  constructor(private readonly issuer: CredentialIssuer) {}

  async fire(timers: readonly DueTimer[], now: Date): Promise<void> {
    // Renew what expires within the last fifth of a validity from now (with a minute's slack for clock skew).
    const validity = this.issuer.validityMs();
    for (const t of timers) {
      await this.issuer.issue(t.workspaceId, 'renewal', { renewIfDueBy: new Date(now.getTime() + (1 - RENEW_AT) * validity + 60_000).toISOString() });
    }
  }
}
