// Trust's read model of sellers, given/when/then: trades become outcome rows, an outcome is owed a
// credential (trust_pending) unless the seller is flagged, a credential supersedes the previous one
// in the registry and pays what was owed, a flag revokes every credential that could still verify,
// and applying an event twice is applying it once.
import type { RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import type { CredentialIssued } from './seller-trust.events';
import { CREDENTIALS, type CredentialDoc, PENDING, sellerChangedBy, SELLERS, type SellerDoc, sellerTrustProjection, TRADE_OUTCOMES, type TradeOutcomeDoc } from './seller-trust.projection';

const WS = 'ws_1';
const spec = viewSpec(sellerTrustProjection);
const recorded = (type: string, data: unknown, streamId: string, revision: number, position: number): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  type,
  data,
  metadata: { workspaceId: WS, correlationId: 'c', actor: 'test', schemaVersion: 1 },
  streamId,
  revision,
  position,
  createdAt: '2026-11-24T12:00:00.000Z',
});

const initiated = (trade: string, position: number) =>
  recorded(
    'trade.initiated',
    {
      tradeId: trade,
      inventoryItemId: 'inv_1',
      buyerRequestId: null,
      matchId: null,
      offerId: null,
      holdId: null,
      reservationId: 'res_1',
      quantity: 1,
      amountMinor: 2500,
      currency: 'USD',
      depositMinor: 0,
      initiatedAt: '2026-11-01T10:00:00.000Z',
    },
    `trade-${trade}`,
    0,
    position,
  );
const moved = (trade: string, revision: number, position: number, from: string, to: string, at: string, extra: Record<string, unknown> = {}) =>
  recorded(
    'trade.status_changed',
    { tradeId: trade, from, to, reason: null, reference: null, carrier: null, trackingNumber: null, refundDue: false, resolution: null, by: 'client', at, ...extra },
    `trade-${trade}`,
    revision,
    position,
  );

const row = (trade: string, revision: number, changes: Partial<TradeOutcomeDoc> = {}): TradeOutcomeDoc => ({
  id: trade,
  revision,
  tradeId: trade,
  workspaceId: WS,
  initiatedAt: '2026-11-01T10:00:00.000Z',
  paidAt: null,
  shippedAt: null,
  closedAt: null,
  outcome: null,
  cancelledBy: null,
  dispute: null,
  amountMinor: 2500,
  currency: 'USD',
  outcomePosition: null,
  ...changes,
});

function credential(n: number, inputsPosition: number): CredentialIssued {
  const credentialId = `urn:uuid:00000000-0000-4000-8000-00000000000${n}`;
  return {
    credentialId,
    issuedAt: `2026-11-2${n}T00:00:00.000Z`,
    validUntil: `2027-02-2${n}T00:00:00.000Z`,
    kid: 'did:key:z6Mk1#z6Mk1',
    subject: {
      type: 'SellerTrustScore',
      credentialId,
      seller: { id: WS, slug: 'acme', name: 'Acme Cards' },
      score: null,
      tier: 'new_seller',
      formula: 'trust-v1',
      factors: [],
      inputsHash: `sha256:${String(n).repeat(64)}`,
      inputsCount: 1,
      asOf: `2026-11-2${n}T00:00:00.000Z`,
    },
    statusListCredential: `https://api.example/api/v1/trust/status/${WS}`,
    statusListIndex: n,
    jws: `jws-${n}`,
    proofValue: `z${n}`,
    inputsPosition,
    reason: 'inputs',
  };
}
const issued = (c: CredentialIssued, revision: number, position: number) => recorded('trust.credential_issued', c, `trust-${WS}`, revision, position);
const revoked = (c: CredentialIssued, revision: number, position: number) =>
  recorded('trust.credential_revoked', { credentialId: c.credentialId, by: 'operator', reason: 'fraud report', at: '2026-11-25T00:00:00.000Z' }, `trust-${WS}`, revision, position);
const reinstated = (revision: number, position: number) => recorded('trust.seller_reinstated', { by: 'operator', at: '2026-11-26T00:00:00.000Z' }, `trust-${WS}`, revision, position);

const registryEntry = (c: CredentialIssued, changes: Partial<CredentialDoc> = {}): CredentialDoc => ({
  id: c.credentialId,
  workspaceId: WS,
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
  ...changes,
});
const sellerDoc = (c: CredentialIssued, revision: number, changes: Partial<SellerDoc> = {}): SellerDoc => ({
  id: WS,
  slug: 'acme',
  revision,
  credential: c,
  flag: null,
  updatedAt: c.issuedAt,
  ...changes,
});

const c0 = credential(0, 3);
const c1 = credential(1, 6);

describe('seller trust projection', () => {
  it('folds a trade into its outcome row; a completed trade is owed a credential', () => {
    spec
      .given()
      .when(initiated('tr_1', 1), moved('tr_1', 1, 2, 'initiated', 'paid', '2026-11-02T10:00:00.000Z'), moved('tr_1', 2, 3, 'paid', 'completed', '2026-11-03T10:00:00.000Z'))
      .then({
        [TRADE_OUTCOMES.name]: [row('tr_1', 2, { paidAt: '2026-11-02T10:00:00.000Z', closedAt: '2026-11-03T10:00:00.000Z', outcome: 'completed', outcomePosition: 3 })],
        [PENDING.name]: [{ id: WS, upTo: 3 }],
      });
  });

  it('a cancel before any credential is owed nothing; once the seller has one, it is', () => {
    const cancel = [initiated('tr_2', 4), moved('tr_2', 1, 5, 'initiated', 'cancelled', '2026-11-04T10:00:00.000Z', { cancelledBy: 'buyer' })];
    spec.given().when(...cancel).then({ [PENDING.name]: [] });
    spec
      .given({ [SELLERS.name]: [sellerDoc(c0, 0)] })
      .when(...cancel)
      .then({ [PENDING.name]: [{ id: WS, upTo: 5 }] });
  });

  it('a flagged seller is owed nothing', () => {
    spec
      .given({ [SELLERS.name]: [sellerDoc(c0, 1, { flag: { by: 'operator', reason: 'fraud report', at: '2026-11-25T00:00:00.000Z' } })] })
      .when(initiated('tr_1', 1), moved('tr_1', 1, 2, 'initiated', 'completed', '2026-11-03T10:00:00.000Z'))
      .then({ [PENDING.name]: [] });
  });

  it('a move after the outcome changes nothing (the outcome is final)', () => {
    const done = row('tr_1', 1, { closedAt: '2026-11-03T10:00:00.000Z', outcome: 'completed', outcomePosition: 2 });
    spec
      .given({ [TRADE_OUTCOMES.name]: [done] })
      .when(moved('tr_1', 2, 9, 'completed', 'settled', '2026-11-10T10:00:00.000Z'))
      .then({ [TRADE_OUTCOMES.name]: [done], [PENDING.name]: [] });
  });

  it('a credential is registered, kept as the seller\'s current one, and pays what it counts', () => {
    spec
      .given({ [PENDING.name]: [{ id: WS, upTo: 3 }] })
      .when(issued(c0, 0, 4))
      .then({ [CREDENTIALS.name]: [registryEntry(c0)], [SELLERS.name]: [sellerDoc(c0, 0)], [PENDING.name]: [] });
  });

  it('an outcome past the credential\'s inputs stays owed', () => {
    spec
      .given({ [PENDING.name]: [{ id: WS, upTo: 5 }] })
      .when(issued(c0, 0, 6))
      .then({ [PENDING.name]: [{ id: WS, upTo: 5 }] });
  });

  it('the next credential supersedes the previous one in the registry', () => {
    spec
      .given()
      .when(issued(c0, 0, 4), issued(c1, 1, 7))
      .then({
        [CREDENTIALS.name]: [registryEntry(c0, { supersededAt: c1.issuedAt }), registryEntry(c1)],
        [SELLERS.name]: [sellerDoc(c1, 1)],
      });
  });

  it('a flag revokes every credential that could still verify and drops what was owed; lifting it clears the flag', () => {
    const flag = { by: 'operator' as const, reason: 'fraud report', at: '2026-11-25T00:00:00.000Z' };
    const revokedEntry = { revokedAt: flag.at, revokedReason: flag.reason };
    spec
      .given({ [PENDING.name]: [{ id: WS, upTo: 9 }] })
      .when(issued(c0, 0, 4), issued(c1, 1, 7), revoked(c1, 2, 10))
      .then({
        [CREDENTIALS.name]: [registryEntry(c0, { supersededAt: c1.issuedAt, ...revokedEntry }), registryEntry(c1, revokedEntry)],
        [SELLERS.name]: [sellerDoc(c1, 2, { flag, updatedAt: flag.at })],
        [PENDING.name]: [],
      });
    spec
      .given({ [SELLERS.name]: [sellerDoc(c1, 2, { flag, updatedAt: flag.at })] })
      .when(reinstated(3, 11))
      .then({ [SELLERS.name]: [sellerDoc(c1, 3, { updatedAt: '2026-11-26T00:00:00.000Z' })] });
  });

  it('a score change only moves the seller\'s revision', () => {
    const scoreUpdated = recorded(
      'trust.score_updated',
      { sellerId: WS, sellerSlug: 'acme', score: null, previousScore: null, tier: 'new_seller', previousTier: null, credentialId: c0.credentialId, at: c0.issuedAt },
      `trust-${WS}`,
      1,
      5,
    );
    spec
      .given({ [SELLERS.name]: [sellerDoc(c0, 0)] })
      .when(scoreUpdated)
      .then({ [SELLERS.name]: [sellerDoc(c0, 1)] });
  });

  it('applied twice is applied once', () => {
    const events = [initiated('tr_1', 1), moved('tr_1', 1, 2, 'initiated', 'completed', '2026-11-03T10:00:00.000Z'), issued(c0, 0, 4), issued(c1, 1, 7)];
    const once = spec.given().when(...events).documents();
    expect(spec.given().when(...events, ...events).documents()).toEqual(once);
  });

  it('names the seller whose public answers an event changed', () => {
    const run = (event: RecordedEvent, seller: SellerDoc | null) => {
      const step = sellerChangedBy(event);
      let next = step.next();
      while (!next.done) next = step.next(seller);
      return next.value;
    };
    expect(run(issued(c0, 0, 4), null)).toEqual({ slug: 'acme', workspaceId: WS });
    expect(run(revoked(c0, 1, 5), sellerDoc(c0, 1))).toEqual({ slug: 'acme', workspaceId: WS });
    expect(run(revoked(c0, 1, 5), null)).toBeNull();
    expect(run(reinstated(2, 6), sellerDoc(c0, 1))).toBeNull();
  });
});
