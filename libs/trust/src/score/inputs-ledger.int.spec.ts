// The inputs kept incrementally (SellerInputs, TrustInputsLedger) against the computation they
// replace — every outcome row read again, the document built, canonicalized and scored per
// issuance (the reference computation below, the plain reading of the definitions) — over a generated history of real trade
// events (three sellers, disputes, cancels by either side or unstated, open trades, closing times
// that tie and arrive out of order, one unparseable date), applied through the trust projection on
// a real read store. At each checkpoint: the inputs text, count, position and score agree, and so
// does the credential the issuer signs — subject (kept in RFC 8785 key order in the log and the
// read model), both signatures — and the inputs text served for
// it (then, and later once superseded). Also after the read model is cleared and rebuilt under the
// ledgers.
import { SecretBox } from '@app/platform';
import type { AppConfig, Clock, RecordedEvent, ReadStore } from '@app/platform';
import type { WorkspaceDirectory } from '@app/access';
import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';
import { mulberry32 } from '@app/testing/support/random';

import { signCredential } from '../credential/credential';
import { keyForms, publicKeyOf } from '../credential/ed25519';
import type { TrustKeyring } from '../keys/trust-keyring';
import { ReinstateSellerTrustCommand, ReinstateSellerTrustHandler, RevokeSellerTrustCommand, RevokeSellerTrustHandler } from '../seller/seller-trust.handlers';
import { CredentialIssuer, statusListPath, TrustRefs } from '../seller/seller-trust.issuer';
import { SELLERS as SELLER_DOCS, type SellerDoc, sellerTrustProjection, TRADE_OUTCOMES, type TradeOutcomeDoc } from '../seller/seller-trust.projection';
import { SellerTrustReadModel } from '../seller/seller-trust.queries';
import { TrustInputsLedger } from './inputs-ledger';
import { canonicalJson, type InputRow, type InputsDocument, sha256Of, TRUST_FORMULA, type TradeOutcomeRow } from './trust-inputs';
import { sellerCausedCancel, tierOf, type TrustFactor, type TrustScore, MIN_OUTCOMES } from './trust-score';

// ——— the reference computation: every row read and the document built again per issuance ———

async function oldOutcomeRowsOf(store: ReadStore, workspaceId: string, upTo = Number.MAX_SAFE_INTEGER): Promise<TradeOutcomeDoc[]> {
  const rows: TradeOutcomeDoc[] = [];
  let after: string | undefined;
  do {
    const page = await store
      .collection<TradeOutcomeDoc>(TRADE_OUTCOMES)
      .find({ workspaceId, outcomePosition: { $gte: 0, $lte: upTo } }, { sort: [['outcomePosition', 1]], limit: 1000, after });
    rows.push(...page.items);
    after = page.nextCursor ?? undefined;
  } while (after);
  return rows;
}

function oldInputsDocument(rows: readonly TradeOutcomeRow[], options: { seller: string; asOf: string; upTo: number; refOf: (tradeId: string) => string }): InputsDocument {
  const trades: InputRow[] = [];
  for (const row of rows) {
    if (row.outcome === null || row.closedAt === null || row.outcomePosition === null || row.outcomePosition > options.upTo) continue;
    trades.push({
      ref: options.refOf(row.tradeId),
      initiatedAt: row.initiatedAt,
      paidAt: row.paidAt,
      shippedAt: row.shippedAt,
      closedAt: row.closedAt,
      outcome: row.outcome,
      cancelledBy: row.cancelledBy,
      dispute: row.dispute === 'open' ? null : row.dispute,
      amountMinor: row.amountMinor,
      currency: row.currency,
    });
  }
  trades.sort((a, b) => (a.closedAt < b.closedAt ? -1 : a.closedAt > b.closedAt ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  return { formula: TRUST_FORMULA, seller: options.seller, asOf: options.asOf, trades };
}

function oldLastOutcomePosition(rows: readonly TradeOutcomeRow[]): number {
  let last = -1;
  for (const row of rows) if (row.outcomePosition !== null && row.outcomePosition > last) last = row.outcomePosition;
  return last;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function oldScoreInputs(inputs: InputsDocument): TrustScore {
  const rows = inputs.trades;
  const outcomes = rows.length;
  const completed = rows.filter((r) => r.outcome === 'completed').length;
  const sellerCancels = rows.filter(sellerCausedCancel).length;
  const refunded = rows.filter((r) => r.dispute === 'refund').length;
  const released = rows.filter((r) => r.dispute === 'release').length;
  const judged = completed + sellerCancels + refunded;
  const shipHours = rows
    .filter((r) => r.paidAt !== null && r.shippedAt !== null)
    .map((r) => Math.max(0, Date.parse(r.shippedAt as string) - Date.parse(r.paidAt as string)) / HOUR);
  const medianShip = median(shipHours);
  const first = rows.reduce<string | null>((min, r) => (min === null || r.initiatedAt < min ? r.initiatedAt : min), null);
  const tenureDays = first === null ? 0 : Math.max(0, (Date.parse(inputs.asOf) - Date.parse(first)) / DAY);
  const factors: TrustFactor[] = [
    factor('completion', judged === 0 ? 1 : completed / judged, 35, `${completed} of ${judged} trades the seller answered for completed`),
    factor('cancellations', outcomes === 0 ? 1 : 1 - sellerCancels / outcomes, 15, `${sellerCancels} of ${outcomes} trades cancelled by the seller`),
    factor(
      'disputes',
      outcomes === 0 ? 1 : Math.max(0, 1 - (4 * (refunded + released / 4)) / outcomes),
      20,
      `${refunded + released} disputed of ${outcomes}: ${refunded} refunded to the buyer, ${released} released to the seller`,
    ),
    factor(
      'shipping_speed',
      medianShip === null ? 0.5 : clamp01((168 - medianShip) / (168 - 24)),
      15,
      medianShip === null ? 'no trade shipped yet' : `median ${round(medianShip, 1)} h from payment to shipment over ${shipHours.length} trades`,
    ),
    factor('volume', Math.min(1, Math.log10(1 + completed) / 2), 10, `${completed} completed trades (100 count fully)`),
    factor('tenure', Math.min(1, tenureDays / 365), 5, `${Math.floor(tenureDays)} days since the first trade (a year counts fully)`),
  ];
  const hundredths = factors.reduce((sum, f) => sum + Math.round(f.contribution * 100), 0);
  const score = outcomes < MIN_OUTCOMES ? null : Math.round(hundredths / 100);
  return { score, tier: tierOf(score), factors, outcomes };
}

function factor(name: TrustFactor['name'], raw: number, weight: number, reason: string): TrustFactor {
  const value = round(clamp01(raw), 4);
  return { name, value, weight, contribution: round(value * weight, 2), reason };
}
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** What the reference computation makes of a seller's rows in the read model: the document, its text, its score. */
async function oldInputs(store: ReadStore, refOf: (id: string) => string, seller: string, asOf: string) {
  const rows = await oldOutcomeRowsOf(store, seller);
  const upTo = oldLastOutcomePosition(rows);
  const doc = oldInputsDocument(rows, { seller, asOf, upTo, refOf });
  return { upTo, anyCompleted: rows.some((r) => r.outcome === 'completed'), doc, text: canonicalJson(doc), scored: oldScoreInputs(doc) };
}

/** The projection's text of 1f4859e (inputsTextOf): the rows up to a credential's inputs position. */
async function oldInputsText(store: ReadStore, refOf: (id: string) => string, seller: string, inputsPosition: number, asOf: string): Promise<string> {
  const rows = await oldOutcomeRowsOf(store, seller, inputsPosition);
  return canonicalJson(oldInputsDocument(rows, { seller, asOf, upTo: inputsPosition, refOf }));
}

// ——— a generated history ———


type Status = 'initiated' | 'paid' | 'shipped' | 'delivered' | 'disputed' | 'completed' | 'settled' | 'cancelled';
interface Step {
  type: 'trade.initiated' | 'trade.status_changed';
  data: Record<string, unknown>;
}

const SELLERS = ['ws_a', 'ws_b', 'ws_c'];
const BASE = Date.parse('2026-01-01T00:00:00.000Z');

/** Each trade's events in order; closing instants on a coarse grid (ties), trades interleaved at random. */
function history(random: () => number, trades: number): Array<{ seller: string; tradeId: string; step: Step }> {
  const plans: Array<{ seller: string; tradeId: string; steps: Step[] }> = [];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  for (let n = 0; n < trades; n += 1) {
    const seller = pick(SELLERS);
    const tradeId = `trd_${String(n).padStart(4, '0')}`;
    let t = BASE + Math.floor(random() * 60) * DAY + Math.floor(random() * 24) * HOUR;
    const iso = () => new Date(t).toISOString();
    const later = (maxHours: number) => {
      t += Math.floor(random() * maxHours) * HOUR;
      return iso();
    };
    const steps: Step[] = [
      {
        type: 'trade.initiated',
        data: {
          tradeId, inventoryItemId: `inv_${n}`, buyerRequestId: null, matchId: null, offerId: null, holdId: null, reservationId: tradeId,
          quantity: 1, amountMinor: 100 + Math.floor(random() * 100_000), currency: pick(['USD', 'EUR']), depositMinor: 0, initiatedAt: iso(),
        },
      },
    ];
    let from: Status = 'initiated';
    const move = (to: Status, at: string, extra: Record<string, unknown> = {}) => {
      steps.push({
        type: 'trade.status_changed',
        data: { tradeId, from, to, reason: null, reference: null, carrier: null, trackingNumber: null, refundDue: false, resolution: null, by: 'client', at, ...extra },
      });
      from = to;
    };
    const cancelledBy = () => {
      const r = random();
      return r < 0.4 ? { cancelledBy: 'seller' } : r < 0.8 ? { cancelledBy: 'buyer' } : r < 0.9 ? { cancelledBy: null } : {};
    };
    const r = random();
    // One trade of ws_c's has a payment date that does not parse: its shipping hours are NaN.
    const paidAt = seller === 'ws_c' && n % 97 === 13 ? 'not-a-date' : later(48);
    if (r < 0.5) {
      move('paid', paidAt);
      move('shipped', later(200));
      move('delivered', later(96));
      move('completed', later(72));
      if (random() < 0.7) move('settled', later(24));
    } else if (r < 0.6) {
      move('paid', paidAt);
      move('shipped', later(200));
      move('delivered', later(96));
      move('disputed', later(48));
      move('completed', later(72), { resolution: 'release' });
    } else if (r < 0.67) {
      move('paid', paidAt);
      move('shipped', later(100));
      move('disputed', later(48));
      move('cancelled', later(72), { resolution: 'refund', refundDue: true, ...cancelledBy() });
    } else if (r < 0.8) {
      move('paid', paidAt);
      move('cancelled', later(72), { refundDue: true, ...cancelledBy() });
    } else if (r < 0.9) {
      move('cancelled', later(72), cancelledBy());
    } else if (r < 0.95) {
      move('paid', paidAt); // still open
    } // else: initiated only
    plans.push({ seller, tradeId, steps });
  }
  // Interleave: a few trades open at a time, each advancing at random.
  const out: Array<{ seller: string; tradeId: string; step: Step }> = [];
  const open: Array<{ seller: string; tradeId: string; steps: Step[] }> = [];
  let next = 0;
  while (next < plans.length || open.length > 0) {
    if (next < plans.length && (open.length < 8 || random() < 0.3)) open.push(plans[next++]);
    const i = Math.floor(random() * open.length);
    const plan = open[i];
    out.push({ seller: plan.seller, tradeId: plan.tradeId, step: plan.steps.shift() as Step });
    if (plan.steps.length === 0) open.splice(i, 1);
  }
  return out;
}

// ——— the test ———

describe('trust inputs kept incrementally = the computation they replace', () => {
  let stores: TempStores;
  const secretKey = new Uint8Array(32).fill(5);
  const kid = keyForms(publicKeyOf(secretKey)).kid;
  const refs = new TrustRefs(new SecretBox(Buffer.alloc(32, 7)));
  const config = { TRUST_CREDENTIAL_VALIDITY_DAYS: 90, PUBLIC_BASE_URL: 'https://trust.example', PORT: 3000 } as unknown as AppConfig;
  let now = Date.parse('2026-06-01T12:00:00.000Z');
  const clock: Clock = { now: () => new Date(now) };

  beforeEach(() => {
    stores = openTempStores('trust-ledger-');
  });
  afterEach(() => closeTempStores(stores));

  it('over a generated history: text, count, position, score, the signed credential and the kept inputs are the same', async () => {
    const random = mulberry32(20_2611_25);
    const projection = sellerTrustProjection;
    const keyring = { signingKey: async () => ({ kid, secretKey }) } as unknown as TrustKeyring;
    const workspaces = { byId: async (id: string) => ({ id, slug: `slug-${id}`, name: `Seller ${id}` }) } as unknown as WorkspaceDirectory;
    const issuer = new CredentialIssuer(stores.events, stores.reads, clock, config, keyring, workspaces, refs);
    const ledger = new TrustInputsLedger(refs.refOf); // beside the issuer's own, to look at views directly
    const trustReads = new SellerTrustReadModel(stores.reads, workspaces, refs);
    /** Every credential issued: its inputs must stay servable as they were (a superseded one, to POST /trust/verify). */
    const served: Array<{ seller: string; asOf: string; inputsPosition: number; text: string }> = [];
    const types = new Set(projection.eventTypes);
    let applied = 0;
    const project = async () => {
      const events = (await stores.events.readAll({ fromPosition: applied, limit: 100_000 })).filter((e) => e.position > applied);
      await stores.reads.transaction(async () => {
        for (const e of events) if (types.has(e.type)) await projection.apply(e, stores.reads);
      });
      if (events.length) applied = events[events.length - 1].position;
      return events;
    };

    const steps = history(random, 700);
    let issued = 0;
    let compared = 0;
    let nanSeen = false;
    const check = async () => {
      await project();
      for (const seller of SELLERS) {
        now += 37 * 60_000;
        const asOf = new Date(now).toISOString();
        const old = await oldInputs(stores.reads, refs.refOf, seller, asOf);
        const view = await ledger.current(stores.reads, seller);
        expect(view.upTo).toBe(old.upTo);
        expect(view.anyCompleted).toBe(old.anyCompleted);
        expect(view.count).toBe(old.doc.trades.length);
        expect(view.text(asOf)).toBe(old.text);
        expect(view.score(asOf)).toEqual(old.scored);
        if (old.doc.trades.some((t) => t.paidAt === 'not-a-date' && t.shippedAt !== null)) nanSeen = true;
        // A past position, as the projection asks for a credential issued before later outcomes.
        if (old.upTo > 0) {
          const past = Math.floor(random() * old.upTo);
          expect(view.text(asOf, past)).toBe(await oldInputsText(stores.reads, refs.refOf, seller, past, asOf));
        }
        compared += 1;

        // The credential the issuer signs, against one built from the old computation.
        const credentialId = await issuer.issue(seller, 'inputs');
        if (!old.anyCompleted) {
          expect(credentialId).toBeNull();
          continue;
        }
        const trust = (await project()).filter((e) => e.type === 'trust.credential_issued');
        if (credentialId === null) {
          expect(trust).toHaveLength(0); // nothing new since the last one
          continue;
        }
        issued += 1;
        expect(trust).toHaveLength(1);
        const data = trust[0].data as Record<string, unknown> & { statusListIndex: number; issuedAt: string; validUntil: string };
        const subject = {
          type: 'SellerTrustScore' as const,
          credentialId,
          seller: { id: seller, slug: `slug-${seller}`, name: `Seller ${seller}` },
          score: old.scored.score,
          tier: old.scored.tier,
          formula: old.doc.formula,
          factors: old.scored.factors,
          inputsHash: sha256Of(old.text),
          inputsCount: old.doc.trades.length,
          asOf,
        };
        const record = {
          credentialId,
          issuedAt: asOf,
          validUntil: new Date(now + 90 * DAY).toISOString(),
          kid,
          subject,
          statusListCredential: `https://trust.example${statusListPath(seller)}`,
          statusListIndex: data.statusListIndex,
        };
        expect(data).toEqual({ ...record, ...signCredential(record, secretKey), inputsPosition: old.upTo, reason: 'inputs' });
        expect(canonicalJson(data)).toBe(canonicalJson({ ...record, ...signCredential(record, secretKey), inputsPosition: old.upTo, reason: 'inputs' }));
        // The inputs served for it (GET …/inputs, the audit, POST /trust/verify): the old text.
        const sellerDoc = (await stores.reads.collection<SellerDoc>(SELLER_DOCS).get(seller)) as SellerDoc;
        expect(sellerDoc.credential.credentialId).toBe(credentialId);
        // Stored as served, the subject's keys in RFC 8785 order: in the log and in the read model.
        expect(JSON.stringify(data.subject)).toBe(canonicalJson(subject));
        expect(JSON.stringify(sellerDoc.credential.subject)).toBe(canonicalJson(subject));
        expect(await trustReads.currentInputs(sellerDoc)).toBe(old.text);
        served.push({ seller, asOf, inputsPosition: old.upTo, text: old.text });
      }
    };

    // Trades go into the log in chunks of random size; each chunk is a checkpoint.
    const half = Math.floor(steps.length / 2);
    let i = 0;
    const appendUpTo = async (end: number) => {
      while (i < end) {
        const chunk = steps.slice(i, Math.min(end, i + 1 + Math.floor(random() * 30)));
        i += chunk.length;
        for (const { seller, tradeId, step } of chunk) {
          await stores.events.append(`trade-${tradeId}`, [{ type: step.type, data: step.data, metadata: { workspaceId: seller, schemaVersion: 1 } }], { expectedRevision: 'any' });
        }
        await check();
      }
    };
    await appendUpTo(half);

    // The read model cleared and rebuilt (a projection rebuild) under the ledgers: first only part
    // of the log, then all of it. Each ledger sees its last row gone and reads the seller again.
    const tradeOutcomes = stores.reads.collection(TRADE_OUTCOMES);
    await tradeOutcomes.clear();
    const trades = (await stores.events.readAll({ limit: 100_000 })).filter((e) => e.type.startsWith('trade.'));
    const replay = async (events: RecordedEvent[]) => stores.reads.transaction(async () => {
      for (const e of events) await projection.apply(e, stores.reads);
    });
    await replay(trades.slice(0, Math.floor(trades.length / 3)));
    for (const seller of SELLERS) {
      const asOf = new Date(now).toISOString();
      const old = await oldInputs(stores.reads, refs.refOf, seller, asOf);
      const view = await ledger.current(stores.reads, seller);
      expect([view.upTo, view.count, view.text(asOf)]).toEqual([old.upTo, old.doc.trades.length, old.text]);
    }
    await replay(trades.slice(Math.floor(trades.length / 3)));
    await appendUpTo(steps.length);

    // Superseded credentials' inputs, as issued: by another reader (a new process) and by this one.
    const fresh = new SellerTrustReadModel(stores.reads, workspaces, refs);
    for (const c of served.filter((_, k) => k % 7 === 0)) {
      expect(await fresh.inputsText({ workspaceId: c.seller, asOf: c.asOf, inputsPosition: c.inputsPosition })).toBe(c.text);
      expect(await trustReads.inputsText({ workspaceId: c.seller, asOf: c.asOf, inputsPosition: c.inputsPosition })).toBe(c.text);
    }
    expect(compared).toBeGreaterThan(100);
    expect(issued).toBeGreaterThan(50);
    expect(nanSeen).toBe(true);
  });

  it("the issuer's kept trust record follows what others append to it (a flag, its lifting)", async () => {
    const projection = sellerTrustProjection;
    const keyring = { signingKey: async () => ({ kid, secretKey }) } as unknown as TrustKeyring;
    const workspaces = { byId: async (id: string) => ({ id, slug: `slug-${id}`, name: `Seller ${id}` }) } as unknown as WorkspaceDirectory;
    const issuer = new CredentialIssuer(stores.events, stores.reads, clock, config, keyring, workspaces, refs);
    const revoke = new RevokeSellerTrustHandler(stores.events, clock);
    const reinstate = new ReinstateSellerTrustHandler(stores.events, clock);
    const steps = history(mulberry32(11), 60).filter((s) => s.seller === 'ws_a');
    let cut = 0;
    const more = async (n: number) => {
      for (const { seller, tradeId, step } of steps.slice(cut, cut + n)) {
        const { position } = await stores.events.append(`trade-${tradeId}`, [{ type: step.type, data: step.data, metadata: { workspaceId: seller, schemaVersion: 1 } }], { expectedRevision: 'any' });
        const [event] = await stores.events.readAll({ fromPosition: position - 1, limit: 1 });
        await projection.apply(event, stores.reads);
      }
      cut += n;
    };
    const indexOf = async (id: string | null) => {
      const events = await stores.events.readStream('trust-ws_a');
      return (events.find((e) => (e.data as { credentialId?: string }).credentialId === id && e.type === 'trust.credential_issued')?.data as { statusListIndex: number } | undefined)?.statusListIndex;
    };
    await more(40);
    const first = await issuer.issue('ws_a', 'inputs');
    expect(await indexOf(first)).toBe(0);
    await revoke.execute(new RevokeSellerTrustCommand('ws_a', 'operator', 'checking', 'test'));
    await more(20);
    expect(await issuer.issue('ws_a', 'inputs')).toBeNull(); // flagged: the kept record saw the flag
    await reinstate.execute(new ReinstateSellerTrustCommand('ws_a', 'operator', 'test'));
    const second = await issuer.issue('ws_a', 'reinstated');
    expect(await indexOf(second)).toBe(1);
    // Another issuer (another process) appends; this one's kept record catches up before deciding.
    await more(steps.length);
    const other = new CredentialIssuer(stores.events, stores.reads, clock, config, keyring, workspaces, refs);
    expect(await indexOf(await other.issue('ws_a', 'inputs'))).toBe(2);
    expect(await issuer.issue('ws_a', 'inputs')).toBeNull(); // counted already
    expect(await indexOf(await issuer.issue('ws_a', 'rotation'))).toBe(3);
  });

  it('a small ledger drops the least recently used sellers and reads them again when asked', async () => {
    const projection = sellerTrustProjection;
    const steps = history(mulberry32(7), 120);
    for (const { seller, tradeId, step } of steps) {
      const { position } = await stores.events.append(`trade-${tradeId}`, [{ type: step.type, data: step.data, metadata: { workspaceId: seller, schemaVersion: 1 } }], { expectedRevision: 'any' });
      const [event] = await stores.events.readAll({ fromPosition: position - 1, limit: 1 });
      await projection.apply(event, stores.reads);
    }
    const ledger = new TrustInputsLedger(refs.refOf, 30);
    for (let round = 0; round < 3; round += 1) {
      for (const seller of SELLERS) {
        const old = await oldInputs(stores.reads, refs.refOf, seller, '2026-07-01T00:00:00.000Z');
        expect((await ledger.current(stores.reads, seller)).text('2026-07-01T00:00:00.000Z')).toBe(old.text);
      }
    }
  });
});
