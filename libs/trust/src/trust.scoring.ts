// The scoring process manager: when a trade reaches an outcome (completed, or cancelled) its
// seller's score is recomputed from trust's read model — which the runner has brought up to the
// batch — and a fresh credential issued (trust.score_updated beside it when the score or tier
// moved); when a flag is lifted, a fresh credential at once. One issuance per seller per batch.
// Idempotent: the seller's record refuses inputs it has counted.
import { Injectable } from '@nestjs/common';

import type { ProcessManager, RecordedEvent } from '@app/platform';

import { CredentialIssuer } from './trust.issuer';

const OUTCOMES = new Set(['completed', 'cancelled']);

@Injectable()
export class TrustScoring implements ProcessManager {
  readonly name = 'trust-scoring';
  readonly eventTypes = ['trade.status_changed', 'trust.seller_reinstated'];

  constructor(private readonly issuer: CredentialIssuer) {}

  async handle(batch: readonly RecordedEvent[]): Promise<void> {
    const due = new Map<string, { reason: 'inputs' | 'reinstated'; event: RecordedEvent }>();
    for (const event of batch) {
      if (event.type === 'trust.seller_reinstated') due.set(event.metadata.workspaceId, { reason: 'reinstated', event });
      else if (OUTCOMES.has((event.data as { to?: string }).to ?? '') && !due.has(event.metadata.workspaceId)) {
        due.set(event.metadata.workspaceId, { reason: 'inputs', event });
      }
    }
    for (const [workspaceId, { reason, event }] of due) {
      await this.issuer.issue(workspaceId, reason, { causationId: event.id, correlationId: event.metadata.correlationId });
    }
  }
}
