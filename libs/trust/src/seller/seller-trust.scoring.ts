// The scoring process manager: when a trade reaches an outcome (completed, or cancelled) its
// seller's score is recomputed from trust's read model — which the runner has brought up to the
// batch — and a fresh credential issued (trust.score_updated beside it when the score or tier
// moved); when a flag is lifted, a fresh credential at once. One issuance per seller per batch.
// Idempotent: the seller's record refuses inputs it has counted.
//
// A catch-up (the batch far behind the log's head: a restart after a long stop, a new process on an
// old log) issues nothing for outcomes: every issuance covers all the seller's rows (reads them once
// per process, then joins and hashes their texts: see TrustInputsLedger), so one per batch would make a
// catch-up quadratic in the seller's trades. The projection keeps who is owed a credential
// (trust_pending), and the first batch near the head issues one for each — the latest inputs, once.
// That record is in the read model, so a stop in the middle of a catch-up loses nothing.
import { Inject, Injectable } from '@nestjs/common';

import { EVENT_STORE, type EventStore, type ProcessManager, READ_STORE, type ReadStore, type RecordedEvent } from '@app/platform';

import { CredentialIssuer } from './seller-trust.issuer';
import { PENDING, type PendingDoc } from './seller-trust.projection';

const OUTCOMES = new Set(['completed', 'cancelled']);

/** A batch whose last event is further than this behind the log's head is a catch-up. */
export const CATCH_UP_GAP = 10_000;
/** Sellers owed a credential, issued per live batch at most (the rest follow in the next ones). */
const PENDING_PER_BATCH = 100;

@Injectable()
export class TrustScoring implements ProcessManager {
  readonly name = 'trust-scoring';
  readonly eventTypes = ['trade.status_changed', 'trust.seller_reinstated'];
  /** Pending sellers tried and refused (flagged, say) at this `upTo`: not tried again until it moves. */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly issuer: CredentialIssuer,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async handle(batch: readonly RecordedEvent[]): Promise<void> {
    const due = new Map<string, { reason: 'inputs' | 'reinstated'; event: RecordedEvent }>();
    for (const event of batch) {
      if (event.type === 'trust.seller_reinstated') due.set(event.metadata.workspaceId, { reason: 'reinstated', event });
      else if (OUTCOMES.has((event.data as { to?: string }).to ?? '') && !due.has(event.metadata.workspaceId)) {
        due.set(event.metadata.workspaceId, { reason: 'inputs', event });
      }
    }
    const last = batch[batch.length - 1]?.position ?? 0;
    const catchingUp = (await this.events.headPosition()) - last > CATCH_UP_GAP;
    for (const [workspaceId, { reason, event }] of due) {
      if (reason === 'inputs' && catchingUp) continue; // owed in trust_pending, issued near the head
      await this.issuer.issue(workspaceId, reason, { causationId: event.id, correlationId: event.metadata.correlationId });
    }
    if (!catchingUp) await this.issuePending(new Set(due.keys()));
  }

  /** A credential for each seller still owed one (after a catch-up, or a stop in the middle of one). */
  private async issuePending(done: ReadonlySet<string>): Promise<void> {
    const page = await this.reads.collection<PendingDoc>(PENDING).find({ upTo: { $gte: 0 } }, { sort: [['upTo', 1]], limit: PENDING_PER_BATCH });
    for (const pending of page.items) {
      if (done.has(pending.id) || this.refused.get(pending.id) === pending.upTo) continue;
      const issued = await this.issuer.issue(pending.id, 'inputs');
      if (issued === null) this.refused.set(pending.id, pending.upTo);
      else this.refused.delete(pending.id);
    }
  }
}
