// Trust's read model of sellers, one view so that its collections change in log order together
// (whether a new outcome is owed a credential depends on the seller's flag, applied just before):
// - trust_trade_outcomes: each trade as trust reads it (folded from trading's stored events);
// - trust_sellers: each seller's current credential (as issued) and its flag;
// - trust_credentials: the registry of every credential issued — its envelope (key, period,
//   status entry), supersession and revocation — which the status lists and POST /trust/verify read;
// - trust_pending: the sellers whose outcome rows reach past their current credential's inputs —
//   what the scoring process manager still owes a credential (it coalesces a catch-up's batches
//   into one issuance per seller, and this record survives a restart in between);
// - trust_inputs: written by nothing; declared so that a rebuild clears what older versions of
//   this view left in it. A seller's inputs document is made when asked, from the outcome rows
//   (see TrustInputsLedger): kept here, each issuance would rewrite the seller's whole history.
// Pure: `evolve` yields its reads and writes (see viewProjection). Idempotent on replay: a seller
// document and an outcome row remember their stream revision, and the other writes are puts of
// whole documents.
import { type CollectionSpec, type Doc, type RecordedEvent, streamEntityId, view, type ViewStep, viewProjection } from '@app/platform';
import { parseTradeEvent } from '@app/trading';

import { foldTradeRow, inCanonicalOrder, type TradeOutcomeRow } from '../score/trust-inputs';
import { type CredentialIssued, credentialIssued, parseSellerTrustEvent, SELLER_TRUST_EVENT_TYPES } from './seller-trust.events';

export const TRADE_OUTCOMES: CollectionSpec = {
  name: 'trust_trade_outcomes',
  indexes: [{ name: 'by_workspace_outcome', fields: [['workspaceId', 1], ['outcomePosition', 1]] }],
};
export const SELLERS: CollectionSpec = { name: 'trust_sellers', indexes: [{ name: 'by_slug', fields: [['slug', 1]], unique: true }] };
export const CREDENTIALS: CollectionSpec = {
  name: 'trust_credentials',
  indexes: [{ name: 'by_workspace_index', fields: [['workspaceId', 1], ['statusListIndex', 1]] }],
};
/** Written by nothing (see above). */
export const INPUTS: CollectionSpec = { name: 'trust_inputs', indexes: [] };
/** Sellers owed a credential: `upTo` is the last outcome position their next one must count. */
export const PENDING: CollectionSpec = { name: 'trust_pending', indexes: [{ name: 'by_up_to', fields: [['upTo', 1]] }] };

export interface PendingDoc extends Doc {
  /** The workspace id (the seller). */
  id: string;
  upTo: number;
}

export interface TradeOutcomeDoc extends TradeOutcomeRow, Doc {
  revision: number;
}

export interface SellerDoc extends Doc {
  /** The workspace id. */
  id: string;
  slug: string;
  revision: number;
  credential: CredentialIssued;
  flag: { by: 'operator' | 'seller'; reason: string; at: string } | null;
  updatedAt: string;
}

export interface CredentialDoc extends Doc {
  /** The credential id (`urn:uuid:…`). */
  id: string;
  workspaceId: string;
  statusListIndex: number;
  /** The status list the credential names (the service's public address at issuance). */
  statusListCredential: string;
  issuedAt: string;
  validUntil: string;
  kid: string;
  inputsPosition: number;
  asOf: string;
  inputsHash: string;
  supersededAt: string | null;
  revokedAt: string | null;
  revokedReason: string | null;
}

const TRADE_TYPES = ['trade.initiated', 'trade.status_changed'];

/** The projection's name: what a route waits for to show a seller's flag. */
export const TRUST_PROJECTION = 'trust';

export const sellerTrustProjection = viewProjection({
  name: TRUST_PROJECTION,
  version: 5,
  collections: [TRADE_OUTCOMES, SELLERS, INPUTS, CREDENTIALS, PENDING],
  eventTypes: [...TRADE_TYPES, ...SELLER_TRUST_EVENT_TYPES],
  *evolve(event) {
    if (event.type.startsWith('trade.')) yield* evolveTrade(event);
    else yield* evolveSeller(event);
  },
});

function* evolveTrade(event: RecordedEvent): ViewStep {
  const id = streamEntityId(event.streamId);
  const current = yield* view.get<TradeOutcomeDoc>(TRADE_OUTCOMES, id);
  if (current && current.revision >= event.revision) return;
  const next = foldTradeRow(current, parseTradeEvent(event), { workspaceId: event.metadata.workspaceId, position: event.position });
  if (next && next !== current) yield* view.put<TradeOutcomeDoc>(TRADE_OUTCOMES, { ...next, id, revision: event.revision });
  // A new outcome the seller's next credential must count: a completed trade, or any outcome once
  // the seller has a credential (never while flagged: no credential is issued then).
  if (next?.outcome && !current?.outcome && next.outcomePosition !== null) {
    const seller = yield* view.get<SellerDoc>(SELLERS, next.workspaceId);
    if ((next.outcome === 'completed' || seller) && !seller?.flag) {
      yield* view.put<PendingDoc>(PENDING, { id: next.workspaceId, upTo: next.outcomePosition });
    }
  }
}

function* evolveSeller(event: RecordedEvent): ViewStep {
  const workspaceId = event.metadata.workspaceId;
  const seller = yield* view.get<SellerDoc>(SELLERS, workspaceId);
  if (seller && seller.revision >= event.revision) return;
  const e = parseSellerTrustEvent(event);
  switch (e.type) {
    case 'trust.credential_issued': {
      const c = e.data;
      if (seller) {
        const previous = yield* view.get<CredentialDoc>(CREDENTIALS, seller.credential.credentialId);
        if (previous) yield* view.put<CredentialDoc>(CREDENTIALS, { ...previous, supersededAt: c.issuedAt });
      }
      yield* view.put<CredentialDoc>(CREDENTIALS, {
        id: c.credentialId,
        workspaceId,
        statusListIndex: c.statusListIndex,
        statusListCredential: c.statusListCredential,
        issuedAt: c.issuedAt,
        validUntil: c.validUntil,
        kid: c.kid,
        inputsPosition: c.inputsPosition,
        asOf: c.subject.asOf,
        inputsHash: c.subject.inputsHash,
        supersededAt: null,
        revokedAt: null,
        revokedReason: null,
      });
      // The subject kept in RFC 8785 key order, as it is served (parsing puts it in the schema's).
      const credential = { ...c, subject: inCanonicalOrder(c.subject) };
      yield* view.put<SellerDoc>(SELLERS, { id: workspaceId, slug: c.subject.seller.slug, revision: event.revision, credential, flag: seller?.flag ?? null, updatedAt: c.issuedAt });
      const pending = yield* view.get<PendingDoc>(PENDING, workspaceId);
      if (pending && pending.upTo <= c.inputsPosition) yield* view.delete(PENDING, workspaceId);
      return;
    }
    case 'trust.credential_revoked': {
      // Flagged, nothing is owed: reinstating issues a fresh credential at once.
      yield* view.delete(PENDING, workspaceId);
      if (!seller) return;
      // Every credential of the seller's that could still verify is revoked with the flag.
      const page = yield* view.find<CredentialDoc>(CREDENTIALS, { workspaceId, revokedAt: null }, { limit: 100_000 });
      for (const doc of page.items) yield* view.put<CredentialDoc>(CREDENTIALS, { ...doc, revokedAt: e.data.at, revokedReason: e.data.reason });
      yield* view.put<SellerDoc>(SELLERS, { ...seller, revision: event.revision, flag: { by: e.data.by, reason: e.data.reason, at: e.data.at }, updatedAt: e.data.at });
      return;
    }
    case 'trust.seller_reinstated':
      if (seller) yield* view.put<SellerDoc>(SELLERS, { ...seller, revision: event.revision, flag: null, updatedAt: e.data.at });
      return;
    case 'trust.score_updated':
      if (seller) yield* view.put<SellerDoc>(SELLERS, { ...seller, revision: event.revision });
      return;
  }
}

/**
 * The seller whose public answers (credential, badge, QR code, status list) an event of this view
 * changed — a new credential, a flag — read once the event is applied; null for any other event.
 * The module forgets those answers in this process's shared cache at once.
 */
export function* sellerChangedBy(event: RecordedEvent): ViewStep<{ slug: string; workspaceId: string } | null> {
  const workspaceId = event.metadata.workspaceId;
  if (event.type === 'trust.credential_issued') return { slug: credentialIssued.parse(event.data).subject.seller.slug, workspaceId };
  if (event.type !== 'trust.credential_revoked') return null;
  const seller = yield* view.get<SellerDoc>(SELLERS, workspaceId);
  return seller ? { slug: seller.slug, workspaceId } : null;
}
