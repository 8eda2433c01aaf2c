// The trust score (formula trust-v1): six weighted factors, a hand-computed case from the formula
// in trust-score.ts's header, who caused a cancel, the tiers' thresholds, shipping speed's line,
// and — over random inputs — the score as the rounded sum of the factors.
import fc from 'fast-check';

import type { InputRow, InputsDocument } from './trust-inputs';
import { MIN_OUTCOMES, scoreInputs, sellerCausedCancel, type TrustFactor, tierOf } from './trust-score';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const asOf = '2026-11-24T12:00:00.000Z';
const T0 = Date.parse(asOf) - 200 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

let refs = 0;
let base = T0;
/** A completed trade, paid a day after it began, shipped `shipHours` later (not shipped when null). */
function row(extra: Partial<InputRow> = {}, shipHours: number | null = 24): InputRow {
  const initiated = base + refs * HOUR;
  const paid = initiated + DAY;
  return {
    ref: `r${String(refs++).padStart(3, '0')}`,
    initiatedAt: iso(initiated),
    paidAt: iso(paid),
    shippedAt: shipHours === null ? null : iso(paid + shipHours * HOUR),
    closedAt: iso(paid + 10 * DAY),
    outcome: 'completed',
    cancelledBy: null,
    dispute: null,
    amountMinor: 1000,
    currency: 'USD',
    ...extra,
  };
}
const doc = (trades: InputRow[], at = asOf): InputsDocument => ({ formula: 'trust-v1', seller: 'ws_1', asOf: at, trades });
const byName = (factors: TrustFactor[]) => Object.fromEntries(factors.map((f) => [f.name, f]));

describe('sellerCausedCancel', () => {
  const cancelled = (extra: Partial<InputRow>) => row({ outcome: 'cancelled', ...extra });

  it("counts a cancel the seller is named for, paid or not", () => {
    expect(sellerCausedCancel(cancelled({ cancelledBy: 'seller' }))).toBe(true);
    expect(sellerCausedCancel(cancelled({ cancelledBy: 'seller', paidAt: null, shippedAt: null }))).toBe(true);
  });

  it('does not count a cancel the buyer is named for, even after payment', () => {
    expect(sellerCausedCancel(cancelled({ cancelledBy: 'buyer' }))).toBe(false);
    expect(sellerCausedCancel(cancelled({ cancelledBy: 'buyer', paidAt: null, shippedAt: null }))).toBe(false);
  });

  it('counts an unstated cancel after payment, not one before payment', () => {
    expect(sellerCausedCancel(cancelled({ cancelledBy: null }))).toBe(true);
    expect(sellerCausedCancel(cancelled({ cancelledBy: null, paidAt: null, shippedAt: null }))).toBe(false);
  });

  it('does not count a refunded dispute as a cancel (it counts under disputes)', () => {
    expect(sellerCausedCancel(cancelled({ dispute: 'refund' }))).toBe(false);
    expect(sellerCausedCancel(cancelled({ dispute: 'refund', cancelledBy: 'seller' }))).toBe(false);
  });

  it('never counts a completed trade', () => {
    expect(sellerCausedCancel(row())).toBe(false);
    expect(sellerCausedCancel(row({ cancelledBy: 'seller' }))).toBe(false);
    expect(sellerCausedCancel(row({ dispute: 'release' }))).toBe(false);
  });
});

describe('tierOf', () => {
  it.each([
    [null, 'new_seller'],
    [0, 'developing'],
    [59, 'developing'],
    [60, 'established'],
    [79, 'established'],
    [80, 'trusted'],
    [89, 'trusted'],
    [90, 'top_rated'],
    [100, 'top_rated'],
  ] as const)('%p → %s', (score, tier) => {
    expect(tierOf(score)).toBe(tier);
  });
});

describe('scoreInputs', () => {
  it('has no number under MIN_OUTCOMES (5) outcomes, but still shows every factor', () => {
    expect(MIN_OUTCOMES).toBe(5);
    const four = [row(), row(), row(), row({ outcome: 'cancelled', cancelledBy: 'seller' })];
    const result = scoreInputs(doc(four));
    expect(result.score).toBeNull();
    expect(result.tier).toBe('new_seller');
    expect(result.outcomes).toBe(4);
    expect(result.factors.map((f) => f.name)).toEqual(['completion', 'cancellations', 'disputes', 'shipping_speed', 'volume', 'tenure']);
    expect(byName(result.factors).completion).toMatchObject({ value: 0.75, contribution: 26.25 });
    expect(byName(result.factors).cancellations).toMatchObject({ value: 0.75, contribution: 11.25 });
    expect(byName(result.factors).shipping_speed).toMatchObject({ value: 1, contribution: 15 });

    const five = scoreInputs(doc([...four, row()]));
    expect(five.outcomes).toBe(5);
    expect(five.score).toEqual(expect.any(Number));
    expect(five.tier).not.toBe('new_seller');
  });

  it('scores nothing at all as no number, with the neutral values', () => {
    const result = scoreInputs(doc([]));
    expect(result).toEqual({
      score: null,
      tier: 'new_seller',
      outcomes: 0,
      factors: [
        { name: 'completion', value: 1, weight: 35, contribution: 35, reason: '0 of 0 trades the seller answered for completed' },
        { name: 'cancellations', value: 1, weight: 15, contribution: 15, reason: '0 of 0 trades cancelled by the seller' },
        { name: 'disputes', value: 1, weight: 20, contribution: 20, reason: '0 disputed of 0: 0 refunded to the buyer, 0 released to the seller' },
        { name: 'shipping_speed', value: 0.5, weight: 15, contribution: 7.5, reason: 'no trade shipped yet' },
        { name: 'volume', value: 0, weight: 10, contribution: 0, reason: '0 completed trades (100 count fully)' },
        { name: 'tenure', value: 0, weight: 5, contribution: 0, reason: '0 days since the first trade (a year counts fully)' },
      ],
    });
  });

  it('computes a mixed record by the formula (hand-computed)', () => {
    refs = 0;
    // The first trade began 73 days before asOf (73 / 365 = 0.2 of a year); the others an hour apart after it.
    base = Date.parse(asOf) - 73 * DAY;
    const firstRow = row({}, 10);
    const trades: InputRow[] = [
      // 8 completed, shipped 10, 20, 30, 40, 50, 70, 80, 90 h after payment.
      firstRow,
      row({}, 20),
      row({}, 30),
      row({}, 40),
      row({}, 50),
      row({}, 70),
      row({}, 80),
      row({}, 90),
      // A dispute released to the seller (completed), shipped after 100 h.
      row({ dispute: 'release' }, 100),
      // A dispute refunded to the buyer (cancelled, unstated party, paid), shipped after 140 h.
      row({ outcome: 'cancelled', dispute: 'refund' }, 140),
      // The seller's cancel (named), after payment, not shipped.
      row({ outcome: 'cancelled', cancelledBy: 'seller' }, null),
      // The buyer's cancel (named), after payment, not shipped.
      row({ outcome: 'cancelled', cancelledBy: 'buyer' }, null),
      // An unstated cancel before payment: nobody's fault.
      row({ outcome: 'cancelled', paidAt: null }, null),
    ];
    base = T0;
    expect(firstRow.initiatedAt).toBe('2026-09-12T12:00:00.000Z');
    expect(trades.every((t) => t.initiatedAt >= firstRow.initiatedAt)).toBe(true);
    // The tallies: outcomes 13; completed 8 + 1 released = 9; seller-caused cancels 1; refunded 1;
    // released 1; judged = completed + seller cancels + refunded = 9 + 1 + 1 = 11.
    // completion     = 9 / 11                       = 0.81818… → 0.8182; × 35 = 28.637   → 28.64
    // cancellations  = 1 − 1 / 13 = 12 / 13         = 0.92307… → 0.9231; × 15 = 13.8465  → 13.85
    // disputes       = 1 − 4 × (1 + ¼ × 1) / 13 = 8/13 = 0.61538… → 0.6154; × 20 = 12.308 → 12.31
    // shipping_speed = median of 10,20,30,40,50,70,80,90,100,140 = (50 + 70) / 2 = 60 h;
    //                  (168 − 60) / (168 − 24) = 108 / 144 = 0.75;            × 15 = 11.25
    // volume         = log10(1 + 9) / 2 = 0.5;                                × 10 = 5
    // tenure         = 73 / 365 = 0.2;                                         × 5  = 1
    // score          = round(28.637 + 13.8465 + 12.308 + 11.25 + 5 + 1 = 72.0415) = 72 → established
    const result = scoreInputs(doc(trades));
    expect(result).toEqual({
      score: 72,
      tier: 'established',
      outcomes: 13,
      factors: [
        { name: 'completion', value: 0.8182, weight: 35, contribution: 28.64, reason: '9 of 11 trades the seller answered for completed' },
        { name: 'cancellations', value: 0.9231, weight: 15, contribution: 13.85, reason: '1 of 13 trades cancelled by the seller' },
        { name: 'disputes', value: 0.6154, weight: 20, contribution: 12.31, reason: '2 disputed of 13: 1 refunded to the buyer, 1 released to the seller' },
        { name: 'shipping_speed', value: 0.75, weight: 15, contribution: 11.25, reason: 'median 60 h from payment to shipment over 10 trades' },
        { name: 'volume', value: 0.5, weight: 10, contribution: 5, reason: '9 completed trades (100 count fully)' },
        { name: 'tenure', value: 0.2, weight: 5, contribution: 1, reason: '73 days since the first trade (a year counts fully)' },
      ],
    });
    const sum = result.factors.reduce((s, f) => s + f.contribution, 0);
    expect(sum).toBeCloseTo(72.05, 10);
  });

  it('saturates volume at 100 completed trades and tenure at a year', () => {
    refs = 0;
    const many = Array.from({ length: 100 }, () => row());
    const old = { ...many[0], initiatedAt: iso(Date.parse(asOf) - 400 * DAY) };
    const f = byName(scoreInputs(doc([old, ...many.slice(1)])).factors);
    expect(f.volume).toMatchObject({ value: 1, contribution: 10 });
    expect(f.tenure).toMatchObject({ value: 1, contribution: 5, reason: '400 days since the first trade (a year counts fully)' });
    // 99 completed: log10(100) / 2 = 1 as well; 9 completed: log10(10) / 2 = 0.5.
    expect(byName(scoreInputs(doc(many.slice(1))).factors).volume.value).toBe(1);
    expect(byName(scoreInputs(doc(many.slice(0, 9))).factors).volume.value).toBe(0.5);
  });

  it('floors the disputes factor at 0', () => {
    // 5 outcomes, 2 refunded: 1 − 4 × 2 / 5 = −0.6 → 0.
    const f = byName(scoreInputs(doc([row(), row(), row(), row({ outcome: 'cancelled', dispute: 'refund' }), row({ outcome: 'cancelled', dispute: 'refund' })])).factors);
    expect(f.disputes).toMatchObject({ value: 0, contribution: 0 });
    // 5 outcomes, 1 released: 1 − 4 × ¼ / 5 = 0.8.
    expect(byName(scoreInputs(doc([row(), row(), row(), row(), row({ dispute: 'release' })])).factors).disputes.value).toBe(0.8);
  });

  describe('shipping speed', () => {
    const speed = (hours: (number | null)[]) => byName(scoreInputs(doc(hours.map((h) => row({}, h)))).factors).shipping_speed;

    it.each([
      [24, 1, 15],
      [12, 1, 15],
      [0, 1, 15],
      [168, 0, 0],
      [200, 0, 0],
      [96, 0.5, 7.5],
      [60, 0.75, 11.25],
    ])('a median of %p h gives %p', (hours, value, contribution) => {
      expect(speed([hours])).toMatchObject({ value, contribution, weight: 15 });
    });

    it('is 0.5 when no trade was shipped', () => {
      expect(speed([null, null])).toEqual({ name: 'shipping_speed', value: 0.5, weight: 15, contribution: 7.5, reason: 'no trade shipped yet' });
      expect(speed([])).toMatchObject({ value: 0.5 });
    });

    it('takes the median (the middle one, or the mean of the middle two), unshipped trades aside', () => {
      expect(speed([24, 96, 168, null])).toMatchObject({ value: 0.5, reason: 'median 96 h from payment to shipment over 3 trades' });
      expect(speed([24, 168])).toMatchObject({ value: 0.5, reason: 'median 96 h from payment to shipment over 2 trades' });
      expect(speed([168, 24, 96, 500])).toMatchObject({ value: 0.25 }); // median (96 + 168) / 2 = 132 h → 36 / 144
    });

    it('counts a shipment recorded before the payment as 0 h (never negative)', () => {
      refs = 0;
      const early = row({}, 24);
      const f = byName(scoreInputs(doc([{ ...early, shippedAt: iso(Date.parse(early.paidAt as string) - 48 * HOUR) }])).factors);
      expect(f.shipping_speed).toMatchObject({ value: 1, reason: 'median 0 h from payment to shipment over 1 trades' });
    });
  });

  it('weights sum to 100', () => {
    const weights = scoreInputs(doc([])).factors.map((f) => f.weight);
    expect(weights).toEqual([35, 15, 20, 15, 10, 5]);
    expect(weights.reduce((a, b) => a + b, 0)).toBe(100);
  });

  describe('over random inputs', () => {
    const stamp = fc.integer({ min: 0, max: 800 * 24 }).map((h) => T0 - 400 * DAY + h * HOUR);
    const inputRow: fc.Arbitrary<InputRow> = fc
      .record({
        initiated: stamp,
        paidAfter: fc.option(fc.integer({ min: 0, max: 240 }), { nil: null }),
        shipAfter: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
        outcome: fc.constantFrom<InputRow['outcome']>('completed', 'cancelled'),
        cancelledBy: fc.constantFrom<InputRow['cancelledBy']>('seller', 'buyer', null),
        disputed: fc.boolean(),
      })
      .map(({ initiated, paidAfter, shipAfter, outcome, cancelledBy, disputed }) => {
        const paid = paidAfter === null ? null : initiated + paidAfter * HOUR;
        const shipped = paid === null || shipAfter === null ? null : paid + shipAfter * HOUR;
        return {
          ref: `r${initiated}`,
          initiatedAt: iso(initiated),
          paidAt: paid === null ? null : iso(paid),
          shippedAt: shipped === null ? null : iso(shipped),
          closedAt: iso((shipped ?? paid ?? initiated) + DAY),
          outcome,
          cancelledBy: outcome === 'cancelled' ? cancelledBy : null,
          dispute: disputed && paid !== null ? (outcome === 'cancelled' ? 'refund' : 'release') : null,
          amountMinor: 1000,
          currency: 'USD',
        };
      });
    const inputs = fc.array(inputRow, { maxLength: 60 });

    it('has six factors with values in 0..1 and contributions value × weight (two decimals); a score 0..100 from MIN_OUTCOMES on', () => {
      fc.assert(
        fc.property(inputs, (trades) => {
          const result = scoreInputs(doc(trades));
          expect(result.outcomes).toBe(trades.length);
          expect(result.factors).toHaveLength(6);
          for (const f of result.factors) {
            expect(f.value).toBeGreaterThanOrEqual(0);
            expect(f.value).toBeLessThanOrEqual(1);
            expect(Math.round(f.value * 1e4) / 1e4).toBe(f.value);
            expect(f.contribution).toBe(Math.round(f.value * f.weight * 100) / 100);
          }
          if (trades.length < MIN_OUTCOMES) {
            expect(result.score).toBeNull();
            expect(result.tier).toBe('new_seller');
          } else {
            expect(Number.isInteger(result.score)).toBe(true);
            expect(result.score).toBeGreaterThanOrEqual(0);
            expect(result.score).toBeLessThanOrEqual(100);
            // The score is the contributions as shown (whole hundredths), summed and rounded.
            expect(result.score).toBe(Math.round(result.factors.reduce((s, f) => s + Math.round(f.contribution * 100), 0) / 100));
            expect(result.tier).toBe(tierOf(result.score));
          }
        }),
        { numRuns: 300 },
      );
    });

    it('has a score within rounding of the sum of the contributions shown', () => {
      fc.assert(
        fc.property(inputs, (trades) => {
          const result = scoreInputs(doc(trades));
          if (result.score === null) return;
          const shown = result.factors.reduce((s, f) => s + f.contribution, 0);
          // Six contributions each rounded to 0.005, then the score to 0.5.
          expect(Math.abs((result.score as number) - shown)).toBeLessThanOrEqual(0.5 + 6 * 0.005 + 1e-9);
        }),
        { numRuns: 300 },
      );
    });

    // The score is the sum of the contributions as shown (rounded to hundredths), rounded — never
    // the unrounded value × weight, whose sum can fall under x.5 while the shown ones reach it. Here: 6 outcomes, 4 seller cancels (after payment), 2 refunded disputes, all shipped
    // 96 h after payment, the first 73 days before asOf. cancellations = 1 − 4/6 = 0.3333 → × 15 =
    // 4.9995, shown as 5; shipping 0.5 → 7.5; tenure 0.2 → 1; the rest 0: shown 13.5, so the score is
    // 14 (from the unrounded products it would be round(13.4995) = 13).
    it('has a score equal to the rounded sum of the contributions shown (13.5 shown → 14)', () => {
      refs = 0;
      base = Date.parse(asOf) - 73 * DAY;
      const trades = [
        ...Array.from({ length: 4 }, () => row({ outcome: 'cancelled', cancelledBy: 'seller' }, 96)),
        ...Array.from({ length: 2 }, () => row({ outcome: 'cancelled', dispute: 'refund' }, 96)),
      ];
      base = T0;
      const result = scoreInputs(doc(trades));
      expect(result.factors.map((f) => f.contribution)).toEqual([0, 5, 0, 7.5, 0, 1]);
      expect(result.score).toBe(Math.round(result.factors.reduce((s, f) => s + f.contribution, 0)));
    });

    it('does not depend on the order of the rows', () => {
      const permuted = inputs.chain((trades) => fc.tuple(fc.constant(trades), fc.shuffledSubarray(trades, { minLength: trades.length, maxLength: trades.length })));
      fc.assert(
        fc.property(permuted, ([trades, shuffled]) => {
          expect(scoreInputs(doc(shuffled))).toEqual(scoreInputs(doc(trades)));
        }),
        { numRuns: 100 },
      );
    });
  });
});
