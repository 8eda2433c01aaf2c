// Issuing a seller's credential: the seller's outcome rows (trust's read model) become the
// canonical inputs document, scored by formula trust-v1, and — when the seller has at least one
// completed trade — a credential carrying the score, the factors and the inputs' hash is signed
// (both forms) with the active key and appended to the seller's trust record, beside
// trust.score_updated when the score or tier changed. The decider refuses what it has counted
// already, so the process manager and the timers may ask twice.
import { createHmac, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';

import { Inject, Injectable, Optional } from '@nestjs/common';

import { WorkspaceDirectory } from '@app/access';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, EVENT_STORE, type EventStore, READ_STORE, type ReadStore, SECRET_BOX, type SecretBox } from '@app/platform';
import { handleCommand } from '@app/platform/domain';

import { type CredentialSubject, signCredential } from './credential/credential';
import { TrustKeyring } from './keys/trust-keyring';
import { canonicalJson, inputsDocument, lastOutcomePosition, sha256Of } from './score/trust-inputs';
import { scoreInputs } from './score/trust-score';
import { sellerTrustAggregate } from './seller/seller-trust.aggregate';
import type { IssueCredential } from './seller/seller-trust.decider';
import { type IssueReason, sellerTrustStream } from './seller/seller-trust.events';
import { outcomeRowsOf } from './trust.projection';

const DAY = 86_400_000;

/** The status list of a seller's credentials, as named in them. */
export const statusListPath = (workspaceId: string) => `/api/v1/trust/status/${workspaceId}`;

@Injectable()
export class TrustRefs {
  // A KeyObject made once: createHmac with a raw Buffer builds one on every call, which was most of
  // a ref's cost (25 µs against 3.6 µs here), paid for every trade of a seller at each reissue.
  private readonly key: KeyObject;

  constructor(@Optional() @Inject(SECRET_BOX) box?: SecretBox) {
    // Without a SecretBox (tests of pure parts) the refs are still pseudonymous, just not keyed.
    this.key = createSecretKey(box ? box.deriveKey('trust-trade-ref') : Buffer.alloc(32));
  }

  /** A trade's pseudonymous reference in the public inputs: stable, unlinkable to its id without the service's key. */
  readonly refOf = (tradeId: string): string => `t_${createHmac('sha256', this.key).update(tradeId).digest('hex').slice(0, 24)}`;
}

@Injectable()
export class CredentialIssuer {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keyring: TrustKeyring,
    private readonly workspaces: WorkspaceDirectory,
    private readonly refs: TrustRefs,
  ) {}

  /** How long a credential is valid. */
  validityMs(): number {
    return this.config.TRUST_CREDENTIAL_VALIDITY_DAYS * DAY;
  }

  /** The public address signed credentials name (their status list). */
  baseUrl(): string {
    return this.config.PUBLIC_BASE_URL ?? `http://localhost:${this.config.PORT || 3000}`;
  }

  /**
   * Issues the seller's next credential when it is due for `reason`; returns its id, or null when
   * nothing was issued (no completed trade yet, inputs counted already, flagged, renewal not due).
   */
  async issue(workspaceId: string, reason: IssueReason, options: { renewIfDueBy?: string; causationId?: string; correlationId?: string } = {}): Promise<string | null> {
    const workspace = await this.workspaces.byId(workspaceId);
    if (!workspace) return null;
    const rows = await outcomeRowsOf(this.reads, workspaceId);
    if (!rows.some((r) => r.outcome === 'completed')) return null;
    const upTo = lastOutcomePosition(rows);
    const metadata = { workspaceId, actor: 'trust', causationId: options.causationId, correlationId: options.correlationId };
    const result = await handleCommand(
      this.events,
      sellerTrustStream(workspaceId),
      sellerTrustAggregate,
      async (state): Promise<IssueCredential | null> => {
        if (state.flag) return null;
        if (reason === 'inputs' && upTo <= state.inputsPosition) return null;
        const now = this.clock.now();
        const asOf = now.toISOString();
        const inputs = inputsDocument(rows, { seller: workspaceId, asOf, upTo, refOf: this.refs.refOf });
        const scored = scoreInputs(inputs);
        const key = await this.keyring.signingKey();
        const credentialId = `urn:uuid:${randomUUID()}`;
        const subject: CredentialSubject = {
          type: 'SellerTrustScore',
          credentialId,
          seller: { id: workspaceId, slug: workspace.slug, name: workspace.name },
          score: scored.score,
          tier: scored.tier,
          formula: inputs.formula,
          factors: scored.factors,
          inputsHash: sha256Of(canonicalJson(inputs)),
          inputsCount: inputs.trades.length,
          asOf,
        };
        const record = {
          credentialId,
          issuedAt: asOf,
          validUntil: new Date(now.getTime() + this.validityMs()).toISOString(),
          kid: key.kid,
          subject,
          statusListCredential: `${this.baseUrl()}${statusListPath(workspaceId)}`,
          statusListIndex: state.issued,
        };
        const signatures = signCredential(record, key.secretKey);
        return { type: 'IssueCredential', credential: { ...record, ...signatures, inputsPosition: upTo, reason }, renewIfDueBy: options.renewIfDueBy, now };
      },
      metadata,
    );
    const issued = result.events.find((e) => e.type === 'trust.credential_issued');
    return issued ? (issued.data as { credentialId: string }).credentialId : null;
  }
}
