// A trade's row as trust reads it (folded from trading's real events), the inputs document the
// credential's inputsHash covers (outcomes up to a log position, pseudonymous, in a stable order),
// and its RFC 8785 serialization and hash.
import { createHash } from 'node:crypto';

import type { TradeEvent } from '@app/trading';

import { canonicalJson, foldTradeRow, inputsDocument, lastOutcomePosition, sha256Of, TRUST_FORMULA, type TradeOutcomeRow } from './trust-inputs';

// trading's event shapes (libs/trading/src/trade/trade.events.ts), as its public entry exports them.
type TradeInitiated = Extract<TradeEvent, { type: 'trade.initiated' }>['data'];
type TradeStatusChanged = Extract<TradeEvent, { type: 'trade.status_changed' }>['data'];
type TradeStatus = TradeStatusChanged['to'];

const initiatedAt = '2026-11-01T10:00:00.000Z';
const terms: TradeInitiated = {
  tradeId: 'trd_1',
  inventoryItemId: 'inv_1',
  buyerRequestId: 'br_1',
  matchId: 'mt_1',
  offerId: null,
  holdId: null,
  reservationId: 'trd_1',
  quantity: 1,
  amountMinor: 42500,
  currency: 'USD',
  depositMinor: 0,
  buyerSealed: 'sealed-buyer',
  initiatedAt,
};
const initiated: TradeEvent = { type: 'trade.initiated', data: terms };

function changed(from: TradeStatus, to: TradeStatus, at: string, extra: Partial<TradeStatusChanged> = {}): TradeEvent {
  return {
    type: 'trade.status_changed',
    data: {
      tradeId: 'trd_1',
      from,
      to,
      reason: null,
      reference: null,
      carrier: null,
      trackingNumber: null,
      refundDue: false,
      resolution: null,
      by: 'client',
      at,
      ...extra,
    },
  };
}
const facts = (status: TradeStatus, at: string): TradeEvent => ({ type: 'trade.paid', data: { tradeId: 'trd_1', offerId: null, amountMinor: 42500, currency: 'USD', status, at } });

const T = {
  paid: '2026-11-02T10:00:00.000Z',
  shipped: '2026-11-03T10:00:00.000Z',
  delivered: '2026-11-05T10:00:00.000Z',
  disputed: '2026-11-06T10:00:00.000Z',
  closed: '2026-11-08T10:00:00.000Z',
  settled: '2026-11-09T10:00:00.000Z',
};

/** Folds events, the n-th at log position 100 + n. */
function foldAll(events: TradeEvent[], row: TradeOutcomeRow | null = null): TradeOutcomeRow | null {
  return events.reduce<TradeOutcomeRow | null>((r, e, i) => foldTradeRow(r, e, { workspaceId: 'ws_seller', position: 100 + i }), row);
}

const fresh: TradeOutcomeRow = {
  tradeId: 'trd_1',
  workspaceId: 'ws_seller',
  initiatedAt,
  paidAt: null,
  shippedAt: null,
  closedAt: null,
  outcome: null,
  cancelledBy: null,
  dispute: null,
  amountMinor: 42500,
  currency: 'USD',
  outcomePosition: null,
};

const paidShipped = [initiated, changed('initiated', 'paid', T.paid), changed('paid', 'shipped', T.shipped)];

describe('foldTradeRow', () => {
  it('starts a row from trade.initiated (the workspace from where it was recorded, no buyer)', () => {
    expect(foldAll([initiated])).toEqual(fresh);
  });

  it('keeps the row it has on a second trade.initiated', () => {
    const row = foldAll([initiated, changed('initiated', 'paid', T.paid)]);
    expect(foldTradeRow(row, { type: 'trade.initiated', data: { ...terms, amountMinor: 1, initiatedAt: T.closed } }, { workspaceId: 'ws_other', position: 999 })).toBe(row);
  });

  it('records when the trade was paid and shipped', () => {
    expect(foldAll([initiated, changed('initiated', 'paid', T.paid)])).toEqual({ ...fresh, paidAt: T.paid });
    expect(foldAll(paidShipped)).toEqual({ ...fresh, paidAt: T.paid, shippedAt: T.shipped });
  });

  it('ignores the moves it does not read, and the named move events', () => {
    const row = foldAll(paidShipped);
    expect(foldTradeRow(row, changed('shipped', 'delivered', T.delivered), { workspaceId: 'ws_seller', position: 200 })).toBe(row);
    expect(foldTradeRow(row, facts('paid', T.paid), { workspaceId: 'ws_seller', position: 201 })).toBe(row);
  });

  it('gives a completed trade its outcome, closing time and log position', () => {
    const row = foldAll([...paidShipped, changed('shipped', 'delivered', T.delivered), changed('delivered', 'completed', T.closed)]);
    expect(row).toEqual({ ...fresh, paidAt: T.paid, shippedAt: T.shipped, closedAt: T.closed, outcome: 'completed', dispute: null, outcomePosition: 104 });
  });

  it('marks a dispute open, then released when it ends completed', () => {
    const disputed = foldAll([...paidShipped, changed('shipped', 'disputed', T.disputed)]);
    expect(disputed).toEqual({ ...fresh, paidAt: T.paid, shippedAt: T.shipped, dispute: 'open' });
    const released = foldAll([changed('disputed', 'completed', T.closed, { resolution: 'release' })], disputed);
    expect(released).toEqual({ ...fresh, paidAt: T.paid, shippedAt: T.shipped, closedAt: T.closed, outcome: 'completed', dispute: 'release', outcomePosition: 100 });
  });

  it('marks a dispute refunded when it ends cancelled', () => {
    const row = foldAll([...paidShipped, changed('shipped', 'disputed', T.disputed), changed('disputed', 'cancelled', T.closed, { resolution: 'refund', refundDue: true })]);
    expect(row).toEqual({ ...fresh, paidAt: T.paid, shippedAt: T.shipped, closedAt: T.closed, outcome: 'cancelled', cancelledBy: null, dispute: 'refund', outcomePosition: 104 });
  });

  it('carries who cancelled, and null when the event does not say', () => {
    expect(foldAll([initiated, changed('initiated', 'cancelled', T.closed, { cancelledBy: 'buyer' })])).toEqual({
      ...fresh,
      closedAt: T.closed,
      outcome: 'cancelled',
      cancelledBy: 'buyer',
      outcomePosition: 101,
    });
    expect(foldAll([initiated, changed('initiated', 'paid', T.paid), changed('paid', 'cancelled', T.closed, { cancelledBy: 'seller', refundDue: true })])).toMatchObject({
      outcome: 'cancelled',
      cancelledBy: 'seller',
      dispute: null,
    });
    // An event recorded before cancelledBy existed has no such property at all.
    const legacy = changed('initiated', 'paid', T.paid);
    const cancelled = changed('paid', 'cancelled', T.closed, { cancelledBy: null });
    delete (cancelled.data as Partial<TradeStatusChanged>).cancelledBy;
    expect('cancelledBy' in cancelled.data).toBe(false);
    expect(foldAll([initiated, legacy, cancelled])).toEqual({ ...fresh, paidAt: T.paid, closedAt: T.closed, outcome: 'cancelled', cancelledBy: null, outcomePosition: 102 });
  });

  it('changes nothing once the trade has an outcome (settled, or anything later)', () => {
    const completed = foldAll([...paidShipped, changed('shipped', 'delivered', T.delivered), changed('delivered', 'completed', T.closed)]);
    const at = { workspaceId: 'ws_seller', position: 300 };
    expect(foldTradeRow(completed, changed('completed', 'settled', T.settled), at)).toBe(completed);
    expect(foldTradeRow(completed, changed('completed', 'cancelled', T.settled, { cancelledBy: 'seller' }), at)).toBe(completed);
    expect(foldTradeRow(completed, changed('completed', 'disputed', T.settled), at)).toBe(completed);
    expect(foldTradeRow(completed, changed('completed', 'paid', T.settled), at)).toBe(completed);
    const cancelled = foldAll([initiated, changed('initiated', 'cancelled', T.closed, { cancelledBy: 'buyer' })]);
    expect(foldTradeRow(cancelled, changed('cancelled', 'completed', T.settled), at)).toBe(cancelled);
  });

  it('has no row for events before trade.initiated', () => {
    expect(foldAll([changed('initiated', 'paid', T.paid)])).toBeNull();
    expect(foldAll([changed('delivered', 'completed', T.closed)])).toBeNull();
    expect(foldAll([facts('paid', T.paid)])).toBeNull();
  });
});

describe('inputsDocument', () => {
  const row = (tradeId: string, extra: Partial<TradeOutcomeRow>): TradeOutcomeRow => ({
    ...fresh,
    tradeId,
    paidAt: T.paid,
    shippedAt: T.shipped,
    closedAt: T.closed,
    outcome: 'completed',
    outcomePosition: 10,
    ...extra,
  });
  const refOf = (tradeId: string) => `ref-${createHash('sha256').update(tradeId).digest('hex').slice(0, 8)}`;
  const options = { seller: 'ws_seller', asOf: '2026-11-24T12:00:00.000Z', upTo: 50, refOf };

  const rows = [
    row('trd_late', { closedAt: '2026-11-20T00:00:00.000Z', outcomePosition: 40 }),
    row('trd_open', { closedAt: null, outcome: null, outcomePosition: null, dispute: 'open' }),
    row('trd_after', { closedAt: '2026-11-21T00:00:00.000Z', outcomePosition: 51 }),
    row('trd_edge', { closedAt: '2026-11-19T00:00:00.000Z', outcomePosition: 50, outcome: 'cancelled', cancelledBy: 'seller', dispute: 'open' }),
    row('trd_b', { closedAt: '2026-11-10T00:00:00.000Z', outcomePosition: 20, dispute: 'release' }),
    row('trd_a', { closedAt: '2026-11-10T00:00:00.000Z', outcomePosition: 21, outcome: 'cancelled', dispute: 'refund', shippedAt: null }),
  ];

  it('keeps only rows with an outcome at or before upTo, sorted by closedAt then ref', () => {
    const doc = inputsDocument(rows, options);
    expect(doc.formula).toBe(TRUST_FORMULA);
    expect(doc.formula).toBe('trust-v1');
    expect(doc.seller).toBe('ws_seller');
    expect(doc.asOf).toBe('2026-11-24T12:00:00.000Z');
    const sameDay = [refOf('trd_a'), refOf('trd_b')].sort();
    expect(doc.trades.map((t) => t.ref)).toEqual([...sameDay, refOf('trd_edge'), refOf('trd_late')]);
  });

  it('breaks a tie on closedAt by ref, whatever the rows order', () => {
    const tied = [row('x', { closedAt: T.closed }), row('y', { closedAt: T.closed }), row('z', { closedAt: T.closed })];
    const refs = { x: 'r2', y: 'r3', z: 'r1' } as Record<string, string>;
    const docs = [tied, [...tied].reverse()].map((r) => inputsDocument(r, { ...options, refOf: (id) => refs[id] }));
    expect(docs[0].trades.map((t) => t.ref)).toEqual(['r1', 'r2', 'r3']);
    expect(docs[1]).toEqual(docs[0]);
  });

  it('maps each row to the document row: refOf for the trade id, an open dispute as none', () => {
    const doc = inputsDocument(rows, options);
    const edge = doc.trades.find((t) => t.ref === refOf('trd_edge'));
    expect(edge).toEqual({
      ref: refOf('trd_edge'),
      initiatedAt,
      paidAt: T.paid,
      shippedAt: T.shipped,
      closedAt: '2026-11-19T00:00:00.000Z',
      outcome: 'cancelled',
      cancelledBy: 'seller',
      dispute: null,
      amountMinor: 42500,
      currency: 'USD',
    });
    expect(doc.trades.find((t) => t.ref === refOf('trd_a'))).toMatchObject({ dispute: 'refund', shippedAt: null, outcome: 'cancelled' });
    expect(doc.trades.find((t) => t.ref === refOf('trd_b'))).toMatchObject({ dispute: 'release', outcome: 'completed' });
  });

  it('names no trade id, workspace field or log position in its canonical JSON', () => {
    const json = canonicalJson(inputsDocument(rows, options));
    for (const id of ['trd_late', 'trd_open', 'trd_after', 'trd_edge', 'trd_a', 'trd_b']) expect(json).not.toContain(id);
    expect(json).not.toContain('tradeId');
    expect(json).not.toContain('workspaceId');
    expect(json).not.toContain('outcomePosition');
    expect(json).toContain(`"ref":"${refOf('trd_edge')}"`);
    expect(json.startsWith('{"asOf":"2026-11-24T12:00:00.000Z","formula":"trust-v1","seller":"ws_seller","trades":[{"amountMinor":42500,')).toBe(true);
  });

  it('is empty when no row has an outcome in range', () => {
    expect(inputsDocument(rows, { ...options, upTo: 9 }).trades).toEqual([]);
    expect(inputsDocument([], options)).toEqual({ formula: 'trust-v1', seller: 'ws_seller', asOf: options.asOf, trades: [] });
  });

  it('reaches up to the highest outcome position (lastOutcomePosition), -1 for none', () => {
    expect(lastOutcomePosition(rows)).toBe(51);
    expect(lastOutcomePosition([row('x', { outcome: null, outcomePosition: null })])).toBe(-1);
    expect(lastOutcomePosition([])).toBe(-1);
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('sorts object keys, keeps array order, adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [2, 'x'] })).toBe('{"a":[2,"x"],"b":1}');
    expect(canonicalJson(JSON.parse('{ "b" : 1 , "a" : [ 2 , "x" ] }'))).toBe('{"a":[2,"x"],"b":1}');
    expect(canonicalJson({ z: { d: null, c: true }, a: [{ y: 1, x: 2 }] })).toBe('{"a":[{"x":2,"y":1}],"z":{"c":true,"d":null}}');
  });

  it('serializes numbers and strings the ECMAScript way, sorts keys by UTF-16 code units', () => {
    expect(canonicalJson([1.0, 1e21, 0.1, -0, 4.5e-7])).toBe('[1,1e+21,0.1,0,4.5e-7]');
    expect(canonicalJson({ '\u20ac': 1, '\r': 2, '1': 3, a: 4 })).toBe('{"\\r":2,"1":3,"a":4,"€":1}');
    expect(canonicalJson('é"\n')).toBe('"é\\"\\n"');
  });

  it('refuses nothing to serialize', () => {
    expect(() => canonicalJson(undefined)).toThrow('nothing to canonicalize');
  });
});

describe('sha256Of', () => {
  it('is sha256: and the 64 hex digits of the UTF-8 bytes', () => {
    const text = '{"a":[2,"x"],"b":"é"}';
    const expected = `sha256:${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')}`;
    expect(sha256Of(text)).toBe(expected);
    expect(sha256Of(text)).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The FIPS 180-2 test vector.
    expect(sha256Of('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Of('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
