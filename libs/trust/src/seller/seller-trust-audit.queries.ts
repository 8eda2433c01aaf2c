// The audit of a credential's inputs (`npm run cli -- trust audit --seller <slug>`): the seller's
// trades are folded again straight from the event log — not from any read model — up to the
// position the credential's inputs reached, as of its issue time; the inputs document is rebuilt,
// hashed and scored, and compared with what the credential states. It also checks the signature
// and that the inputs the public route serves are the same bytes.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { ApiError, EVENT_STORE, type EventStore } from '@app/platform';
import { parseTradeEvent } from '@app/trading';

import { checkSignature, credentialDocument } from '../credential/credential';
import { TrustKeyring } from '../keys/trust-keyring';
import { canonicalJson, foldTradeRow, inputsDocument, sha256Of, type TradeOutcomeRow } from '../score/trust-inputs';
import { scoreInputs } from '../score/trust-score';
import { TrustRefs } from './seller-trust.issuer';
import { SellerTrustReadModel } from './seller-trust.queries';

const PAGE = 5000;

export interface AuditReport {
  seller: string;
  credentialId: string;
  issuedAt: string;
  inputsPosition: number;
  agrees: boolean;
  checks: Array<{ name: string; ok: boolean; stated: unknown; recomputed: unknown }>;
}

/** The audit of the seller's current credential; 404 for a seller without one. */
export class AuditSellerTrustQuery extends Query<AuditReport> {
  constructor(readonly slug: string) {
    super();
  }
}

@QueryHandler(AuditSellerTrustQuery)
export class AuditSellerTrustHandler implements IQueryHandler<AuditSellerTrustQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly reads: SellerTrustReadModel,
    private readonly keyring: TrustKeyring,
    private readonly refs: TrustRefs,
  ) {}

  async execute({ slug }: AuditSellerTrustQuery): Promise<AuditReport> {
    const seller = await this.reads.sellerBySlug(slug);
    if (!seller) throw new ApiError(404, 'NOT_FOUND', `No trust credential for seller "${slug}"`);
    const c = seller.credential;
    const workspaceId = seller.id;
    const rows = new Map<string, TradeOutcomeRow | null>();
    let from: number | undefined;
    read: for (;;) {
      const page = await this.events.readAll({ fromPosition: from, limit: PAGE, filter: { types: ['trade.initiated', 'trade.status_changed'], streamPrefixes: ['trade-'] } });
      for (const event of page) {
        if (event.position > c.inputsPosition) break read;
        if (event.metadata.workspaceId !== workspaceId) continue;
        const trade = parseTradeEvent(event);
        const id = trade.data.tradeId;
        rows.set(id, foldTradeRow(rows.get(id) ?? null, trade, { workspaceId, position: event.position }));
      }
      if (page.length < PAGE) break;
      from = page[page.length - 1].position;
    }
    const outcomes = [...rows.values()].filter((r): r is TradeOutcomeRow => r !== null);
    const inputs = inputsDocument(outcomes, { seller: workspaceId, asOf: c.subject.asOf, upTo: c.inputsPosition, refOf: this.refs.refOf });
    const text = canonicalJson(inputs);
    const scored = scoreInputs(inputs);
    const served = await this.reads.currentInputs(seller);
    const keys = await this.keyring.listed();
    const signature = checkSignature(credentialDocument(c, 'spec'), (kid) => {
      const key = keys.find((k) => k.kid === kid);
      return key ? new Uint8Array(Buffer.from(key.publicKey, 'base64url')) : null;
    });
    const checks = [
      { name: 'inputsHash', ok: sha256Of(text) === c.subject.inputsHash, stated: c.subject.inputsHash, recomputed: sha256Of(text) },
      { name: 'inputsCount', ok: inputs.trades.length === c.subject.inputsCount, stated: c.subject.inputsCount, recomputed: inputs.trades.length },
      { name: 'score', ok: scored.score === c.subject.score, stated: c.subject.score, recomputed: scored.score },
      { name: 'tier', ok: scored.tier === c.subject.tier, stated: c.subject.tier, recomputed: scored.tier },
      { name: 'factors', ok: canonicalJson(scored.factors) === canonicalJson(c.subject.factors), stated: c.subject.factors.map((f) => f.contribution), recomputed: scored.factors.map((f) => f.contribution) },
      { name: 'servedInputs', ok: served === text, stated: sha256Of(served), recomputed: sha256Of(text) },
      { name: 'signature', ok: signature.ok, stated: c.kid, recomputed: signature.detail },
    ];
    return { seller: slug, credentialId: c.credentialId, issuedAt: c.issuedAt, inputsPosition: c.inputsPosition, agrees: checks.every((k) => k.ok), checks };
  }
}
