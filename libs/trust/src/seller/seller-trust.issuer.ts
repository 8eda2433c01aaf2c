// Issuing a seller's credential: the seller's outcome rows (trust's read model, kept in a ledger
// as they arrive, so an issuance costs what the rows since the last one cost) become the canonical
// inputs document, scored by formula trust-v1, and — when the seller has at least one
// completed trade — a credential carrying the score, the factors and the inputs' hash is signed
// (both forms) with the active key and appended to the seller's trust record, beside
// trust.score_updated when the score or tier changed. The decider refuses what it has counted
// already, so the process manager and the timers may ask twice.
import { createHmac, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';

import { Inject, Injectable, Optional } from '@nestjs/common';

import { WorkspaceDirectory } from '@app/access';
import { APP_CONFIG, type AppConfig, CLOCK, publicBaseUrl as platformPublicBaseUrl, type Clock, EVENT_STORE, type EventStore, READ_STORE, type ReadStore, SECRET_BOX, type SecretBox } from '@app/platform';
import { handleCommand, loadStream } from '@app/platform/domain';

import { type CredentialSubject, signCredential } from '../credential/credential';
import { TrustKeyring } from '../keys/trust-keyring';
import { TrustInputsLedger } from '../score/inputs-ledger';
import { inCanonicalOrder, sha256Of, TRUST_FORMULA } from '../score/trust-inputs';
import { sellerTrustAggregate } from './seller-trust.aggregate';
import type { IssueCredential, SellerTrustState } from './seller-trust.decider';
import { type IssueReason, sellerTrustStream } from './seller-trust.events';

const DAY = 86_400_000;
/** Sellers' trust records kept (the state is a few fields each). */
const RECORDS_KEPT = 10_000;

/** A seller's trust record as last read or written: its folded state at a revision. */
interface KnownRecord {
  state: SellerTrustState;
  revision: number;
  position: number | null;
}

/** The status list of a seller's credentials, as named in them. */
export const statusListPath = (workspaceId: string) => `/api/v1/trust/status/${workspaceId}`;

/**
 * The public address credentials, status lists and QR codes name: the platform's one answer
 * (PUBLIC_BASE_URL, else the running server's own URL, else http://localhost:PORT).
 */
export const publicBaseUrl = (config: AppConfig): string => platformPublicBaseUrl(config);

@Injectable()
export class TrustRefs {
  // A KeyObject made once: createHmac with a raw Buffer builds one on every call, most of a ref's
  // cost, which every trade of a seller pays at each reissue.
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
  /** The sellers' inputs, kept as their rows arrive: an issuance reads the rows since the last one. */
  private readonly ledger: TrustInputsLedger;
  /**
   * The sellers' trust records as this issuer last saw them. The record grows by a credential per
   * issuance, so reading and folding all of it each time cost what the seller's history is long;
   * instead the events after the revision kept are read and folded onto its state (the same fold,
   * so the same state), and the append still expects that revision.
   */
  private readonly records = new Map<string, KnownRecord>();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keyring: TrustKeyring,
    private readonly workspaces: WorkspaceDirectory,
    private readonly refs: TrustRefs,
  ) {
    this.ledger = new TrustInputsLedger(this.refs.refOf);
  }

  /** How long a credential is valid. */
  validityMs(): number {
    return this.config.TRUST_CREDENTIAL_VALIDITY_DAYS * DAY;
  }

  /** The public address signed credentials name (their status list). */
  baseUrl(): string {
    return publicBaseUrl(this.config);
  }

  /**
   * Issues the seller's next credential when it is due for `reason`; returns its id, or null when
   * nothing was issued (no completed trade yet, inputs counted already, flagged, renewal not due).
   */
  async issue(workspaceId: string, reason: IssueReason, options: { renewIfDueBy?: string; causationId?: string; correlationId?: string } = {}): Promise<string | null> {
    const workspace = await this.workspaces.byId(workspaceId);
    if (!workspace) return null;
    const inputs = await this.ledger.current(this.reads, workspaceId);
    if (!inputs.anyCompleted) return null;
    const upTo = inputs.upTo;
    const metadata = { workspaceId, actor: 'trust', causationId: options.causationId, correlationId: options.correlationId };
    const known = await this.record(workspaceId);
    const result = await handleCommand(
      this.events,
      sellerTrustStream(workspaceId),
      sellerTrustAggregate,
      async (state): Promise<IssueCredential | null> => {
        if (state.flag) return null;
        if (reason === 'inputs' && upTo <= state.inputsPosition) return null;
        const now = this.clock.now();
        const asOf = now.toISOString();
        const inputsBytes = inputs.bytes(asOf);
        const scored = inputs.score(asOf);
        const key = await this.keyring.signingKey();
        const credentialId = `urn:uuid:${randomUUID()}`;
        const subject: CredentialSubject = {
          type: 'SellerTrustScore',
          credentialId,
          seller: { id: workspaceId, slug: workspace.slug, name: workspace.name },
          score: scored.score,
          tier: scored.tier,
          formula: TRUST_FORMULA,
          factors: scored.factors,
          inputsHash: sha256Of(inputsBytes),
          inputsCount: inputs.count,
          asOf,
        };
        const record = {
          credentialId,
          issuedAt: asOf,
          validUntil: new Date(now.getTime() + this.validityMs()).toISOString(),
          kid: key.kid,
          // Recorded as served: keys in RFC 8785 order.
          subject: inCanonicalOrder(subject),
          statusListCredential: `${this.baseUrl()}${statusListPath(workspaceId)}`,
          statusListIndex: state.issued,
        };
        const signatures = signCredential(record, key.secretKey);
        return { type: 'IssueCredential', credential: { ...record, ...signatures, inputsPosition: upTo, reason }, renewIfDueBy: options.renewIfDueBy, now };
      },
      metadata,
      { known },
    );
    this.keep(workspaceId, { state: result.state, revision: result.revision, position: result.streamPosition });
    const issued = result.events.find((e) => e.type === 'trust.credential_issued');
    return issued ? (issued.data as { credentialId: string }).credentialId : null;
  }

  /** The seller's trust record now: the one kept brought up to date, or read whole the first time. */
  private async record(workspaceId: string): Promise<KnownRecord> {
    const streamId = sellerTrustStream(workspaceId);
    const kept = this.records.get(workspaceId);
    if (!kept || kept.revision === -1) {
      // (loadStream also sees a stream begun by another workspace as absent.)
      const loaded = await loadStream(this.events, streamId, sellerTrustAggregate, { workspaceId });
      return { state: loaded.state, revision: loaded.revision, position: loaded.position };
    }
    const after = await this.events.readStream(streamId, { fromRevision: kept.revision + 1 });
    if (after.length === 0) return kept;
    const { decider, parseEvent } = sellerTrustAggregate;
    const last = after[after.length - 1];
    return { state: after.map(parseEvent).reduce(decider.evolve, kept.state), revision: last.revision, position: last.position };
  }

  private keep(workspaceId: string, record: KnownRecord): void {
    this.records.delete(workspaceId);
    if (this.records.size >= RECORDS_KEPT) this.records.delete(this.records.keys().next().value as string);
    this.records.set(workspaceId, record);
  }
}
