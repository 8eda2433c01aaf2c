// quantiles.ts: the centred-cumulative-weight quantile (type 7 with unit weights), sortWeighted,
// and band(). Every expected number is worked out in the comment beside it, from the header's
// rule: c₁ = 0, cᵢ₊₁ = cᵢ + (wᵢ + wᵢ₊₁)/2, D = cₙ, h = q × D, interpolate between centres.
import fc from 'fast-check';

import { band, sortWeighted, type Weighted, weightedQuantile } from './quantiles';

const unit = (...values: number[]): Weighted[] => values.map((value) => ({ value, weight: 1 }));
const w = (value: number, weight: number): Weighted => ({ value, weight });

describe('sortWeighted', () => {
  it('drops unusable entries and sorts ascending, without touching the input', () => {
    const input = [
      w(30, 1),
      w(NaN, 1), // non-finite value
      w(10, 2),
      w(20, 0), // zero weight
      w(20, -1), // negative weight
      w(Infinity, 1), // non-finite value
      w(10, 1),
      w(5, NaN), // non-finite weight
      w(15, Infinity), // non-finite weight
      w(-4, 1), // negative VALUES are kept: this is generic; band() is the one that wants prices
    ];
    const copy = input.map((x) => ({ ...x }));
    expect(sortWeighted(input)).toEqual([w(-4, 1), w(10, 1), w(10, 2), w(30, 1)]);
    expect(input).toEqual(copy);
  });

  it('breaks ties by weight, lighter first (deterministic whatever the input order)', () => {
    expect(sortWeighted([w(2, 3), w(1, 1), w(2, 1)])).toEqual([w(1, 1), w(2, 1), w(2, 3)]);
    expect(sortWeighted([w(2, 1), w(2, 3), w(1, 1)])).toEqual([w(1, 1), w(2, 1), w(2, 3)]);
  });

  it('empty in, empty out', () => {
    expect(sortWeighted([])).toEqual([]);
  });
});

describe('weightedQuantile', () => {
  it('empty or all-unusable input → NaN', () => {
    expect(weightedQuantile([], 0.5)).toBeNaN();
    expect(weightedQuantile([w(NaN, 1), w(3, 0)], 0.5)).toBeNaN();
  });

  it('a single value is every quantile (D = 0)', () => {
    for (const q of [0, 0.1, 0.5, 0.9, 1]) expect(weightedQuantile([w(42, 3)], q)).toBe(42);
  });

  it('all-equal values → that value', () => {
    const same = [w(7, 1), w(7, 2), w(7, 0.5)];
    for (const q of [0, 0.3, 0.5, 1]) expect(weightedQuantile(same, q)).toBe(7);
  });

  it('unit weights = type 7 ("linear between closest ranks", NumPy/R default)', () => {
    // [1, 2, 3, 4]: centres 0, 1, 2, 3; D = 3; h = 3q.
    const xs = unit(1, 2, 3, 4);
    expect(weightedQuantile(xs, 0.1)).toBeCloseTo(1.3, 12); // h 0.3  → 1 + 0.3 × 1
    expect(weightedQuantile(xs, 0.25)).toBe(1.75); // h 0.75 → 1 + 0.75
    expect(weightedQuantile(xs, 0.5)).toBe(2.5); // h 1.5  → 2 + 0.5
    expect(weightedQuantile(xs, 0.9)).toBeCloseTo(3.7, 12); // h 2.7  → 3 + 0.7
    // odd count: [3, 5, 11] median h = 1 → 5 exactly
    expect(weightedQuantile(unit(3, 5, 11), 0.5)).toBe(5);
  });

  it('q = 0 is the minimum and q = 1 the maximum, exactly', () => {
    const xs = [w(1.5, 0.3), w(2.25, 7), w(9.75, 0.1)];
    expect(weightedQuantile(xs, 0)).toBe(1.5);
    expect(weightedQuantile(xs, 1)).toBe(9.75);
  });

  it('symmetric weights: 10 (w1), 20 (w3), 30 (w1)', () => {
    // centres: c₁ = 0, c₂ = 0 + (1 + 3)/2 = 2, c₃ = 2 + (3 + 1)/2 = 4; D = 4.
    const xs = [w(10, 1), w(20, 3), w(30, 1)];
    expect(weightedQuantile(xs, 0.1)).toBeCloseTo(12, 12); // h 0.4 → 10 + (0.4/2) × 10
    expect(weightedQuantile(xs, 0.25)).toBe(15); // h 1   → 10 + (1/2) × 10
    expect(weightedQuantile(xs, 0.5)).toBe(20); // h 2   → c₂ exactly
    expect(weightedQuantile(xs, 0.9)).toBeCloseTo(28, 12); // h 3.6 → 20 + (1.6/2) × 10
  });

  it('asymmetric weights: 100 (w2), 200 (w1), 400 (w1)', () => {
    // centres: 0, 0 + (2 + 1)/2 = 1.5, 1.5 + (1 + 1)/2 = 2.5; D = 2.5.
    const xs = [w(100, 2), w(200, 1), w(400, 1)];
    expect(weightedQuantile(xs, 0.25)).toBeCloseTo(141.6667, 4); // h 0.625 → 100 + (0.625/1.5) × 100
    expect(weightedQuantile(xs, 0.5)).toBeCloseTo(183.3333, 4); // h 1.25  → 100 + (1.25/1.5) × 100
    expect(weightedQuantile(xs, 0.75)).toBe(275); // h 1.875 → 200 + (0.375/1) × 200
    // the heavy low price pulls the median below the unweighted one (200)
  });

  it('does not depend on the unit of the weights', () => {
    const xs = [w(100, 2), w(200, 1), w(400, 1)];
    const scaled = xs.map((x) => w(x.value, x.weight * 1000));
    for (const q of [0.1, 0.25, 0.5, 0.75, 0.9]) {
      expect(weightedQuantile(scaled, q)).toBeCloseTo(weightedQuantile(xs, q), 9);
    }
  });

  it('skips unusable entries inside the sorted list', () => {
    // usable: [1, 3] → median h = 0.5 of D = 1 → 2
    expect(weightedQuantile([w(1, 1), w(NaN, 1), w(2, 0), w(3, 1)], 0.5)).toBe(2);
  });

  it('ties: the order of equal values matters with unequal weights (hence sortWeighted’s rule)', () => {
    // [1 w1, 2 w1, 2 w3]: centres 0, 1, 3; D = 3; q 0.3 → h 0.9 → 1 + 0.9 × 1 = 1.9
    expect(weightedQuantile([w(1, 1), w(2, 1), w(2, 3)], 0.3)).toBeCloseTo(1.9, 12);
    // [1 w1, 2 w3, 2 w1]: centres 0, 2, 4; D = 4; h 1.2 → 1 + (1.2/2) × 1 = 1.6
    expect(weightedQuantile([w(1, 1), w(2, 3), w(2, 1)], 0.3)).toBeCloseTo(1.6, 12);
  });

  it('throws on unsorted input and on q outside [0, 1]', () => {
    expect(() => weightedQuantile(unit(3, 1, 2), 0.5)).toThrow(RangeError);
    for (const q of [-0.01, 1.01, NaN, Infinity]) expect(() => weightedQuantile(unit(1, 2), q)).toThrow(RangeError);
  });
});

describe('band', () => {
  it('no usable price → null', () => {
    expect(band([])).toBeNull();
    expect(band([w(0, 1), w(-3, 1), w(NaN, 1), w(5, 0)])).toBeNull();
  });

  it('a single price', () => {
    expect(band([w(50, 2)])).toEqual({
      p10: 50, p25: 50, median: 50, p75: 50, p90: 50, count: 1, weight: 2, min: 50, max: 50,
    });
  });

  it('all-equal prices', () => {
    expect(band(unit(20, 20, 20, 20, 20))).toEqual({
      p10: 20, p25: 20, median: 20, p75: 20, p90: 20, count: 5, weight: 5, min: 20, max: 20,
    });
  });

  it('unsorted unit-weight prices', () => {
    // sorted 10, 20, 30, 40, 50; centres 0..4; D = 4.
    const b = band(unit(40, 10, 30, 50, 20))!;
    expect(b.p10).toBeCloseTo(14, 12); // h 0.4 → 10 + 0.4 × 10
    expect(b.p25).toBe(20); // h 1
    expect(b.median).toBe(30); // h 2
    expect(b.p75).toBe(40); // h 3
    expect(b.p90).toBeCloseTo(46, 12); // h 3.6 → 40 + 0.6 × 10
    expect([b.count, b.weight, b.min, b.max]).toEqual([5, 5, 10, 50]);
  });

  it('ignores zero, negative and non-finite prices and unusable weights', () => {
    // usable: 10, 20, 30 (unit); centres 0, 1, 2; D = 2.
    const b = band([w(0, 1), w(30, 1), w(-5, 1), w(NaN, 1), w(10, 1), w(99, 0), w(20, 1)])!;
    expect(b.p10).toBeCloseTo(12, 12); // h 0.2 → 10 + 0.2 × 10
    expect(b.p25).toBe(15); // h 0.5
    expect(b.median).toBe(20); // h 1
    expect(b.p75).toBe(25); // h 1.5
    expect(b.p90).toBeCloseTo(28, 12); // h 1.8 → 20 + 0.8 × 10
    expect([b.count, b.weight, b.min, b.max]).toEqual([3, 3, 10, 30]);
  });

  it('weighted prices, against the hand computation', () => {
    // sorted 100 (w2), 200 (w1), 400 (w1); centres 0, 1.5, 2.5; D = 2.5; total weight 4.
    const b = band([w(400, 1), w(100, 2), w(200, 1)])!;
    expect(b.p10).toBeCloseTo(116.6667, 4); // h 0.25  → 100 + (0.25/1.5) × 100
    expect(b.p25).toBeCloseTo(141.6667, 4); // h 0.625 → 100 + (0.625/1.5) × 100
    expect(b.median).toBeCloseTo(183.3333, 4); // h 1.25 → 100 + (1.25/1.5) × 100
    expect(b.p75).toBe(275); // h 1.875 → 200 + (0.375/1) × 200
    expect(b.p90).toBe(350); // h 2.25  → 200 + (0.75/1) × 200
    expect([b.count, b.weight, b.min, b.max]).toEqual([3, 4, 100, 400]);
  });

  it('agrees with weightedQuantile on the sorted prices', () => {
    const xs = [w(12, 0.5), w(7, 2), w(30, 1), w(18, 0.25), w(9, 1)];
    const b = band(xs)!;
    const sorted = sortWeighted(xs);
    expect(b.p25).toBe(weightedQuantile(sorted, 0.25));
    expect(b.median).toBe(weightedQuantile(sorted, 0.5));
    expect(b.p90).toBe(weightedQuantile(sorted, 0.9));
  });
});

describe('properties', () => {
  const entry = fc.record({
    value: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    weight: fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
  });
  const q = fc.double({ min: 0, max: 1, noNaN: true });

  it('quantiles are non-decreasing in q and lie within [min, max]', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 40 }), q, q, (xs, qa, qb) => {
        const sorted = sortWeighted(xs);
        const [lo, hi] = qa <= qb ? [qa, qb] : [qb, qa];
        const a = weightedQuantile(sorted, lo);
        const b = weightedQuantile(sorted, hi);
        const min = sorted[0].value;
        const max = sorted[sorted.length - 1].value;
        return a <= b && min <= a && b <= max && weightedQuantile(sorted, 0) === min && weightedQuantile(sorted, 1) === max;
      }),
      { numRuns: 500 },
    );
  });

  it('with unit weights: the classic median, and type 7 at every q', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 40 }), q, (values, qq) => {
        const xs = [...values].sort((a, b) => a - b);
        const sorted = sortWeighted(unit(...values));
        const n = xs.length;
        const classic = n % 2 === 1 ? xs[(n - 1) / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
        const h = (n - 1) * qq;
        const k = Math.floor(h);
        const type7 = k >= n - 1 ? xs[n - 1] : xs[k] + (h - k) * (xs[k + 1] - xs[k]);
        // the same arithmetic as type 7 (h = q(n − 1), integer centres), so exactly equal
        return weightedQuantile(sorted, 0.5) === classic && weightedQuantile(sorted, qq) === type7;
      }),
      { numRuns: 500 },
    );
  });

  it('a band is ordered: min ≤ p10 ≤ p25 ≤ median ≤ p75 ≤ p90 ≤ max, count and weight add up', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (xs) => {
        const b = band(xs);
        const prices = xs.filter((x) => x.value > 0);
        if (prices.length === 0) return b === null;
        const total = prices.reduce((s, x) => s + x.weight, 0);
        return (
          b !== null &&
          b.min <= b.p10 && b.p10 <= b.p25 && b.p25 <= b.median && b.median <= b.p75 && b.p75 <= b.p90 && b.p90 <= b.max &&
          b.count === prices.length && Math.abs(b.weight - total) <= 1e-9 * total
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a band is exactly weightedQuantile at each of its five q (one walk), whatever the input order', () => {
    const positive = fc.record({ value: fc.integer({ min: 1, max: 500 }), weight: fc.integer({ min: 1, max: 5 }) });
    fc.assert(
      fc.property(fc.array(positive, { minLength: 1, maxLength: 60 }), fc.boolean(), (xs, presorted) => {
        const input = presorted ? sortWeighted(xs) : xs;
        const b = band(input)!;
        const sorted = sortWeighted(xs);
        return (
          b.p10 === weightedQuantile(sorted, 0.1) && b.p25 === weightedQuantile(sorted, 0.25) && b.median === weightedQuantile(sorted, 0.5) &&
          b.p75 === weightedQuantile(sorted, 0.75) && b.p90 === weightedQuantile(sorted, 0.9)
        );
      }),
      { numRuns: 1000 },
    );
  });
});
