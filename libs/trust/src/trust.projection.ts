// Trust's read models, one projection so they apply in log order together:
// - trust_trade_outcomes: each trade as trust reads it (folded from trading's stored events);
// - trust_sellers: each seller's current credential (as issued) and its flag;
// - trust_inputs: retired — it held each seller's current inputs document, rebuilt from every
//   outcome row of the seller's at each credential issued (a write as long as the seller's history);
//   the document is now made when asked, from the outcome rows (TrustReads, with a ledger kept as
//   they arrive). Still declared so that a rebuild empties what earlier versions left in it;
// - trust_credentials: the registry of every credential issued — its envelope (key, period,
//   status entry), supersession and revocation — which the status lists and POST /trust/verify read;
// - trust_scan_days: badge and QR scans counted per seller and UTC day;
// - trust_pending: the sellers whose outcome rows reach past their current credential's inputs —
//   what the scoring process manager still owes a credential (it coalesces a catch-up's batches
//   into one issuance per seller, and this record survives a restart in between).
// Idempotent on replay: a seller document remembers its stream revision, a scan day the last
// position it counted, and the other writes are puts of whole documents.
import {
  type CollectionSpec,
  type Doc,
  type Projection,
  type ReadStore,
  type RecordedEvent,
  streamEntityId,
} from '@app/platform';
import { parseTradeEvent } from '@app/trading';

import { type InputsView, SellerInputs } from './score/seller-inputs';
import { foldTradeRow, inCanonicalOrder, type TradeOutcomeRow } from './score/trust-inputs';
import { type CredentialIssued, parseSellerTrustEvent, SELLER_TRUST_EVENT_TYPES } from './seller/seller-trust.events';
import { parseScanEvent, SCAN_EVENT_TYPES } from './scan/scan.events';

export const TRADE_OUTCOMES: CollectionSpec = {
  name: 'trust_trade_outcomes',
  indexes: [{ name: 'by_workspace_outcome', fields: [['workspaceId', 1], ['outcomePosition', 1]] }],
};
export const SELLERS: CollectionSpec = { name: 'trust_sellers', indexes: [{ name: 'by_slug', fields: [['slug', 1]], unique: true }] };
export const CREDENTIALS: CollectionSpec = {
  name: 'trust_credentials',
  indexes: [{ name: 'by_workspace_index', fields: [['workspaceId', 1], ['statusListIndex', 1]] }],
};
/** Retired (see above): nothing writes or reads it. */
export const INPUTS: CollectionSpec = { name: 'trust_inputs', indexes: [] };
export const SCAN_DAYS: CollectionSpec = { name: 'trust_scan_days', indexes: [{ name: 'by_workspace_day', fields: [['workspaceId', 1], ['day', 1]] }] };
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

export interface ScanDayDoc extends Doc {
  workspaceId: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
  badge: number;
  qr: number;
  lastPosition: number;
}

const TRADE_TYPES = ['trade.initiated', 'trade.status_changed'];
const PAGE = 1000;

/** Every outcome row of a seller's (with an outcome after position `from`, at or before `upTo`), in outcome order. */
export async function outcomeRowsOf(store: ReadStore, workspaceId: string, upTo = Number.MAX_SAFE_INTEGER, from = -1): Promise<TradeOutcomeDoc[]> {
  const rows: TradeOutcomeDoc[] = [];
  let after: string | undefined;
  do {
    const page = await store
      .collection<TradeOutcomeDoc>(TRADE_OUTCOMES)
      .find({ workspaceId, outcomePosition: { $gt: from, $lte: upTo } }, { sort: [['outcomePosition', 1]], limit: PAGE, after });
    rows.push(...page.items);
    after = page.nextCursor ?? undefined;
  } while (after);
  return rows;
}

/** Rows kept by a ledger, all sellers together, before the least recently used sellers are dropped (≈ 0.3 KB a row). */
export const LEDGER_ROWS = 100_000;

/**
 * Sellers' inputs kept in memory as their outcome rows reach the read model (SellerInputs), so an
 * issuance reads only the rows since the last one: each read first checks that the last row it
 * took is still in the read model as it was (a rebuild clears it: the seller is then read again
 * from the start), then takes the rows past it. Rows are final once they have an outcome and come
 * in log order, so what was taken stays true. One ledger per reader (the issuer's, TrustReads'), each
 * reading committed rows.
 */
export class TrustInputsLedger {
  /** By seller, least recently used first. */
  private readonly sellers = new Map<string, SellerInputs>();
  /** Rows kept, all sellers together. */
  private rows = 0;

  constructor(
    private readonly refOf: (tradeId: string) => string,
    private readonly maxRows = LEDGER_ROWS,
  ) {}

  /** The seller's inputs as the read model holds them now. */
  async current(store: ReadStore, workspaceId: string): Promise<InputsView> {
    let inputs = this.sellers.get(workspaceId);
    if (inputs) {
      this.sellers.delete(workspaceId);
      this.rows -= inputs.size;
    }
    if (inputs?.lastId != null) {
      const last = await store.collection<TradeOutcomeDoc>(TRADE_OUTCOMES).get(inputs.lastId);
      if (last?.outcomePosition !== inputs.upTo) inputs = undefined; // the read model was cleared (a rebuild)
    }
    inputs ??= new SellerInputs(workspaceId, this.refOf);
    inputs.add(await outcomeRowsOf(store, workspaceId, Number.MAX_SAFE_INTEGER, inputs.upTo));
    const view = inputs.view();
    // Kept as the most recently used; the least recently used go beyond maxRows. (A call for the
    // same seller that ran meanwhile found none and read it all: the later one is kept.)
    const meanwhile = this.sellers.get(workspaceId);
    if (meanwhile) {
      this.sellers.delete(workspaceId);
      this.rows -= meanwhile.size;
    }
    for (const [id, other] of this.sellers) {
      if (this.rows + inputs.size <= this.maxRows) break;
      this.sellers.delete(id);
      this.rows -= other.size;
    }
    if (this.rows + inputs.size <= this.maxRows) {
      this.sellers.set(workspaceId, inputs);
      this.rows += inputs.size;
    }
    return view;
  }
}

/**
 * The trust projection. `changed` is told of each seller whose public answers changed (a new
 * credential, a flag), so this process's shared cache forgets them at once.
 */
export const TRUST_PROJECTION = 'trust';

export function trustProjection(changed: (seller: { slug: string; workspaceId: string }) => void = () => undefined): Projection {
  return {
    name: TRUST_PROJECTION,
    version: 5,
    collections: [TRADE_OUTCOMES, SELLERS, INPUTS, CREDENTIALS, SCAN_DAYS, PENDING],
    eventTypes: [...TRADE_TYPES, ...SELLER_TRUST_EVENT_TYPES, ...SCAN_EVENT_TYPES],
    async apply(event, store) {
      if (event.type.startsWith('trade.')) return applyTrade(event, store);
      if (event.type.startsWith('trust.scan')) return applyScan(event, store);
      return applySeller(event, store, changed);
    },
  };
}

async function applyTrade(event: RecordedEvent, store: ReadStore): Promise<void> {
  const rows = store.collection<TradeOutcomeDoc>(TRADE_OUTCOMES);
  const id = streamEntityId(event.streamId);
  const current = await rows.get(id);
  if (current && current.revision >= event.revision) return;
  const next = foldTradeRow(current, parseTradeEvent(event), { workspaceId: event.metadata.workspaceId, position: event.position });
  if (next && next !== current) await rows.put({ ...next, id, revision: event.revision });
  // A new outcome the seller's next credential must count: a completed trade, or any outcome once
  // the seller has a credential (never while flagged: no credential is issued then).
  if (next?.outcome && !current?.outcome && next.outcomePosition !== null) {
    const seller = await store.collection<SellerDoc>(SELLERS).get(next.workspaceId);
    if ((next.outcome === 'completed' || seller) && !seller?.flag) {
      await store.collection<PendingDoc>(PENDING).put({ id: next.workspaceId, upTo: next.outcomePosition });
    }
  }
}

async function applySeller(
  event: RecordedEvent,
  store: ReadStore,
  changed: (seller: { slug: string; workspaceId: string }) => void,
): Promise<void> {
  const sellers = store.collection<SellerDoc>(SELLERS);
  const credentials = store.collection<CredentialDoc>(CREDENTIALS);
  const workspaceId = event.metadata.workspaceId;
  const seller = await sellers.get(workspaceId);
  if (seller && seller.revision >= event.revision) return;
  const e = parseSellerTrustEvent(event);
  switch (e.type) {
    case 'trust.credential_issued': {
      const c = e.data;
      if (seller) await credentials.patch(seller.credential.credentialId, { supersededAt: c.issuedAt });
      await credentials.put({
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
      await sellers.put({ id: workspaceId, slug: c.subject.seller.slug, revision: event.revision, credential, flag: seller?.flag ?? null, updatedAt: c.issuedAt });
      const pending = await store.collection<PendingDoc>(PENDING).get(workspaceId);
      if (pending && pending.upTo <= c.inputsPosition) await store.collection<PendingDoc>(PENDING).delete(workspaceId);
      changed({ slug: c.subject.seller.slug, workspaceId });
      return;
    }
    case 'trust.credential_revoked': {
      // Flagged, nothing is owed: reinstating issues a fresh credential at once.
      await store.collection<PendingDoc>(PENDING).delete(workspaceId);
      if (!seller) return;
      // Every credential of the seller's that could still verify is revoked with the flag.
      const page = await credentials.find({ workspaceId, revokedAt: null }, { limit: 100_000 });
      for (const doc of page.items) await credentials.patch(doc.id, { revokedAt: e.data.at, revokedReason: e.data.reason });
      await sellers.put({ ...seller, revision: event.revision, flag: { by: e.data.by, reason: e.data.reason, at: e.data.at }, updatedAt: e.data.at });
      changed({ slug: seller.slug, workspaceId });
      return;
    }
    case 'trust.seller_reinstated':
      if (seller) await sellers.put({ ...seller, revision: event.revision, flag: null, updatedAt: e.data.at });
      return;
    case 'trust.score_updated':
      if (seller) await sellers.patch(workspaceId, { revision: event.revision });
      return;
  }
}

async function applyScan(event: RecordedEvent, store: ReadStore): Promise<void> {
  const days = store.collection<ScanDayDoc>(SCAN_DAYS);
  const scan = parseScanEvent(event).data;
  const workspaceId = event.metadata.workspaceId;
  const day = scan.at.slice(0, 10);
  const id = `${workspaceId}:${day}`;
  const current = await days.get(id);
  if (current && current.lastPosition >= event.position) return;
  const base = current ?? { id, workspaceId, day, count: 0, badge: 0, qr: 0, lastPosition: -1 };
  await days.put({
    ...base,
    count: base.count + 1,
    badge: base.badge + (scan.via === 'badge' ? 1 : 0),
    qr: base.qr + (scan.via === 'qr' ? 1 : 0),
    lastPosition: event.position,
  });
}
