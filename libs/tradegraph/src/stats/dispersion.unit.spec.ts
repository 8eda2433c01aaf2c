// dispersion.ts: spread = (p75 − p25)/median, reliability = n/(n + 5), score = reliability ×
// (1 − min(1, spread)) as the sum of two factors, the label's thresholds (read on the rounded
// spread) and the sentence — hand-computed bands, then the score = Σ contributions over random ones.
import fc from 'fast-check';

import { dispersion, MODERATE_SPREAD, reliabilityOf, THIN_COUNT, TIGHT_SPREAD } from './dispersion';
import { band, type Band } from './quantiles';

/** A hand-built band: only p25, median, p75 and count matter to dispersion. */
const mk = (p25: number, median: number, p75: number, count: number): Band => ({
  p10: p25, p25, median, p75, p90: p75, count, weight: count, min: p25, max: p75,
});

describe('reliabilityOf', () => {
  it('n / (n + 5)', () => {
    expect(reliabilityOf(5)).toBe(0.5); // 5/10
    expect(reliabilityOf(20)).toBe(0.8); // 20/25
    expect(reliabilityOf(1)).toBeCloseTo(1 / 6, 15); // 1/6
    expect(reliabilityOf(0)).toBe(0);
    expect(reliabilityOf(-3)).toBe(0);
  });
});

describe('dispersion', () => {
  it('a moderate band of 12 prices, by hand', () => {
    // spread = (108 − 90)/100 = 0.18
    // reliability = 12/17 = 0.705882… → 0.7059
    // spread factor: 0.18 × −0.7059 = −0.127062 → −0.1271
    // score = 0.7059 − 0.1271 = 0.5788   (exact formula: 0.70588 × 0.82 = 0.57882)
    const d = dispersion(mk(90, 100, 108, 12));
    expect(d).toEqual({
      spread: 0.18,
      reliability: 0.7059,
      score: 0.5788,
      label: 'moderate',
      factors: [
        { name: 'reliability', value: 0.7059, weight: 1, contribution: 0.7059 },
        { name: 'spread', value: 0.18, weight: -0.7059, contribution: -0.1271 },
      ],
      reasons: '12 prices, the middle half spanning 18 % of the median: a moderate band',
    });
  });

  it('all-equal prices: spread 0, score = reliability, tight', () => {
    // band of five 20s: p25 = p75 = median = 20 → spread 0; reliability 5/10 = 0.5; score 0.5 − 0 = 0.5
    const d = dispersion(band([20, 20, 20, 20, 20].map((value) => ({ value, weight: 1 })))!);
    expect([d.spread, d.reliability, d.score, d.label]).toEqual([0, 0.5, 0.5, 'tight']);
    expect(d.reasons).toBe('5 prices, the middle half spanning 0 % of the median: a tight band');
  });

  it('from band(): prices 10, 20, 30, 40, 50', () => {
    // p25 20, median 30, p75 40 (see quantiles spec) → spread 20/30 = 0.66667 → 0.6667: wide
    // reliability 0.5; spread factor 0.6667 × −0.5 = −0.33335 → −0.3334 (half away from zero)
    // score = 0.5 − 0.3334 = 0.1666
    const d = dispersion(band([10, 20, 30, 40, 50].map((value) => ({ value, weight: 1 })))!);
    expect([d.spread, d.reliability, d.score, d.label]).toEqual([0.6667, 0.5, 0.1666, 'wide']);
    expect(d.reasons).toBe('5 prices, the middle half spanning 66.67 % of the median: a wide band');
  });

  it('a spread over 100 % is capped at 1 in the score (score 0) but reported as is', () => {
    // spread = (250 − 50)/100 = 2 → factor value min(1, 2) = 1; reliability 20/25 = 0.8
    // score = 0.8 − 1 × 0.8 = 0
    const d = dispersion(mk(50, 100, 250, 20));
    expect(d.spread).toBe(2);
    expect(d.score).toBe(0);
    expect(d.factors).toEqual([
      { name: 'reliability', value: 0.8, weight: 1, contribution: 0.8 },
      { name: 'spread', value: 1, weight: -0.8, contribution: -0.8 },
    ]);
    expect(d.reasons).toBe('20 prices, the middle half spanning 200 % of the median: a wide band');
  });

  it('label thresholds: tight below 0.15, moderate below 0.40, wide from 0.40', () => {
    expect(TIGHT_SPREAD).toBe(0.15);
    expect(MODERATE_SPREAD).toBe(0.4);
    expect(dispersion(mk(100, 100, 114.99, 10)).label).toBe('tight'); // 14.99/100 = 0.1499
    expect(dispersion(mk(100, 100, 115, 10)).label).toBe('moderate'); // 15/100 = 0.15 exactly
    expect(dispersion(mk(100, 100, 139.99, 10)).label).toBe('moderate'); // 0.3999
    expect(dispersion(mk(100, 100, 140, 10)).label).toBe('wide'); // 0.40 exactly
    // the label reads the ROUNDED spread: 0.149996 shows as 0.15 and is called moderate
    const d = dispersion(mk(100, 100, 114.9996, 10));
    expect([d.spread, d.label]).toEqual([0.15, 'moderate']);
  });

  it('thin under 3 prices, whatever the spread', () => {
    expect(THIN_COUNT).toBe(3);
    // 2 prices: reliability 2/7 = 0.285714 → 0.2857; spread 0 → score 0.2857, still thin
    const two = dispersion(mk(100, 100, 100, 2));
    expect([two.reliability, two.score, two.label]).toEqual([0.2857, 0.2857, 'thin']);
    expect(two.reasons).toBe('2 prices: too few for a reliable band (thin)');
    expect(dispersion(mk(100, 100, 100, 1)).reasons).toBe('1 price: too few for a reliable band (thin)');
    expect(dispersion(mk(100, 100, 100, 0)).reasons).toBe('no prices: too few for a reliable band (thin)');
    expect(dispersion(mk(100, 100, 100, 0)).score).toBe(0); // reliability 0
    expect(dispersion(mk(100, 100, 100, 3)).label).toBe('tight'); // 3 is enough
  });

  it('a median of 0 (hand-built bands only): 0 when the middle half has no width, else capped at 1', () => {
    const flat = dispersion(mk(0, 0, 0, 10));
    // spread 0; reliability 10/15 = 0.6667; score 0.6667
    expect([flat.spread, flat.score, flat.label]).toEqual([0, 0.6667, 'tight']);
    expect(flat.reasons).toBe('10 prices, the middle half all at 0: a tight band');
    const wide = dispersion(mk(0, 0, 5, 10));
    // spread 1 (the cap); score 0.6667 − 0.6667 = 0
    expect([wide.spread, wide.score, wide.label]).toEqual([1, 0, 'wide']);
    expect(wide.reasons).toBe('10 prices around a median of 0, so the spread cannot be measured against it: a wide band');
  });

  it('over random bands: score = Σ contributions, within [0, reliability]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 1e5, noNaN: true }), { minLength: 1, maxLength: 60 }),
        (prices) => {
          const d = dispersion(band(prices.map((value) => ({ value, weight: 1 })))!);
          const sum = d.factors.reduce((s, f) => s + f.contribution, 0);
          return (
            Math.abs(d.score - sum) < 1e-12 &&
            d.score >= 0 && d.score <= d.reliability &&
            (d.label === 'thin') === (prices.length < 3)
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
