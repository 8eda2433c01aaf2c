// A seller's inputs kept as rows arrive: the document's order whatever the arrival order, the same
// text and score as the document built at once, views that later rows leave alone.
import { SellerInputs } from './seller-inputs';
import { canonicalJson, inputsDocument, type TradeOutcomeRow } from './trust-inputs';
import { scoreInputs } from './trust-score';

const refOf = (tradeId: string) => `t_${tradeId}`;
const asOf = '2026-11-25T00:00:00.000Z';

function row(n: number, closedAt: string, extra: Partial<TradeOutcomeRow> = {}): TradeOutcomeRow & { id: string } {
  return {
    id: `trd_${n}`,
    tradeId: `trd_${n}`,
    workspaceId: 'ws_s',
    initiatedAt: '2026-11-01T00:00:00.000Z',
    paidAt: '2026-11-01T02:00:00.000Z',
    shippedAt: `2026-11-0${1 + (n % 5)}T10:00:00.000Z`,
    closedAt,
    outcome: 'completed',
    cancelledBy: null,
    dispute: null,
    amountMinor: 1000 + n,
    currency: 'USD',
    outcomePosition: 10 * n,
    ...extra,
  };
}

describe('SellerInputs', () => {
  // Closing out of log order, a tie on closedAt (broken by ref), a cancel, a released dispute.
  const rows = [
    row(1, '2026-11-10T00:00:00.000Z'),
    row(2, '2026-11-08T00:00:00.000Z', { outcome: 'cancelled', cancelledBy: 'seller', shippedAt: null }),
    row(3, '2026-11-10T00:00:00.000Z', { dispute: 'release' }),
    row(4, '2026-11-09T00:00:00.000Z'),
    row(5, '2026-11-12T00:00:00.000Z', { dispute: 'open' }),
    row(6, '2026-11-07T00:00:00.000Z', { currency: 'EUR€', amountMinor: 0 }), // a character beyond ASCII: bytes, not characters
  ];
  const all = (upTo: number) => inputsDocument(rows, { seller: 'ws_s', asOf, upTo, refOf });

  it('given rows arriving in log order, one or several at a time: the text and score of the document built at once', () => {
    const inputs = new SellerInputs('ws_s', refOf);
    inputs.add(rows.slice(0, 2));
    inputs.add(rows.slice(2, 3));
    inputs.add(rows.slice(3));
    const view = inputs.view();
    expect(view.text(asOf)).toBe(canonicalJson(all(60)));
    expect(view.score(asOf)).toEqual(scoreInputs(all(60)));
    expect([view.upTo, view.count, view.anyCompleted]).toEqual([60, 6, true]);
    // At an earlier position: only the rows with an outcome up to it, in the same order.
    expect(view.text(asOf, 35)).toBe(canonicalJson(all(35)));
    expect(view.text(asOf, 5)).toBe(canonicalJson(all(5))); // none: "trades":[]
    expect(view.bytes(asOf).equals(Buffer.from(canonicalJson(all(60)), 'utf8'))).toBe(true);
  });

  it('given a view taken, when more rows arrive, then the view is unchanged', () => {
    const inputs = new SellerInputs('ws_s', refOf);
    inputs.add(rows.slice(0, 3));
    const before = inputs.view();
    inputs.add(rows.slice(3));
    expect(before.text(asOf)).toBe(canonicalJson(all(30)));
    expect(before.score(asOf)).toEqual(scoreInputs(all(30)));
    expect(before.count).toBe(3);
  });

  it('given a row at or before the last position taken, then it refuses it (rows come once, in log order)', () => {
    const inputs = new SellerInputs('ws_s', refOf);
    inputs.add(rows.slice(1, 2));
    expect(() => inputs.add(rows.slice(0, 1))).toThrow(/not past 20/);
  });

  it('given only open rows or cancels: no completed trade, and the score of the document', () => {
    const inputs = new SellerInputs('ws_s', refOf);
    inputs.add([row(2, '2026-11-08T00:00:00.000Z', { outcome: 'cancelled', cancelledBy: 'buyer' })]);
    const view = inputs.view();
    expect(view.anyCompleted).toBe(false);
    expect(view.score(asOf)).toEqual(scoreInputs(inputsDocument([row(2, '2026-11-08T00:00:00.000Z', { outcome: 'cancelled', cancelledBy: 'buyer' })], { seller: 'ws_s', asOf, upTo: 20, refOf })));
  });

  it('given a shipping time that does not parse (NaN hours): the same score as the document, whose row order decides', () => {
    const odd = [...rows.slice(0, 3), row(7, '2026-11-01T00:00:00.000Z', { paidAt: 'not-a-date', outcomePosition: 65 }), ...rows.slice(3)].map((r, i) => ({ ...r, outcomePosition: 10 * (i + 1) }));
    const inputs = new SellerInputs('ws_s', refOf);
    for (const r of odd) inputs.add([r]);
    const doc = inputsDocument(odd, { seller: 'ws_s', asOf, upTo: 1000, refOf });
    expect(inputs.view().score(asOf)).toEqual(scoreInputs(doc));
    expect(inputs.view().text(asOf)).toBe(canonicalJson(doc));
  });
});
