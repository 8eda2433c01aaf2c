// anomaly.ts: a price above p90 or below p10 of a band of ≥ 3 prices, its ratio to that edge and
// severity at the exported thresholds (boundaries included in the graver grade), the factors and
// the sentence.
import {
  ABOVE_HIGH_RATIO, ABOVE_MEDIUM_RATIO, anomaly, BELOW_HIGH_RATIO, BELOW_MEDIUM_RATIO, MIN_ANOMALY_COUNT,
} from './anomaly';
import { band, type Band } from './quantiles';

/** A hand-built band: p10 80, median 90, p90 100. */
const mk = (count = 12, p10 = 80, median = 90, p90 = 100): Band => ({
  p10, p25: (p10 + median) / 2, median, p75: (median + p90) / 2, p90, count, weight: count, min: p10, max: p90,
});

describe('anomaly', () => {
  it('the thresholds', () => {
    expect([MIN_ANOMALY_COUNT, ABOVE_HIGH_RATIO, ABOVE_MEDIUM_RATIO, BELOW_HIGH_RATIO, BELOW_MEDIUM_RATIO]).toEqual([
      3, 2, 1.4, 0.5, 0.7,
    ]);
  });

  it('far above: 500 against a p90 of 100', () => {
    // ratio 500/100 = 5 ≥ 2 → high; factors: price 500 × (1/100) = 5, p90 and count as context
    expect(anomaly(500, mk())).toEqual({
      direction: 'above',
      severity: 'high',
      ratio: 5,
      factors: [
        { name: 'price', value: 500, weight: 0.01, contribution: 5 },
        { name: 'p90', value: 100, weight: 0, contribution: 0 },
        { name: 'count', value: 12, weight: 0, contribution: 0 },
      ],
      reasons: "listed at 500.00, 5.0× the band's p90 of 100.00 (12 prices): far above",
    });
  });

  it('inside [p10, p90], edges included → null', () => {
    for (const price of [80, 85, 90, 100]) expect(anomaly(price, mk())).toBeNull();
  });

  it('above: severity at the boundaries (p90 = 100)', () => {
    const sev = (price: number) => [anomaly(price, mk())?.ratio, anomaly(price, mk())?.severity];
    expect(sev(200)).toEqual([2, 'high']); // 200/100 = 2 exactly → high
    expect(sev(199.99)).toEqual([1.9999, 'medium']);
    expect(sev(140)).toEqual([1.4, 'medium']); // 1.4 exactly → medium
    expect(sev(139.99)).toEqual([1.3999, 'low']);
    expect(sev(100.01)).toEqual([1.0001, 'low']);
    // 139.999 / 100 = 1.39999 → rounds to 1.4 → medium (the severity reads the shown ratio)
    expect(sev(139.999)).toEqual([1.4, 'medium']);
  });

  it('below: severity at the boundaries (p10 = 80)', () => {
    const sev = (price: number) => [anomaly(price, mk())?.ratio, anomaly(price, mk())?.severity];
    expect(sev(40)).toEqual([0.5, 'high']); // 40/80 = 0.5 exactly → high
    expect(sev(40.01)).toEqual([0.5001, 'medium']); // 0.500125 → 0.5001
    expect(sev(56)).toEqual([0.7, 'medium']); // 56/80 = 0.7 exactly → medium
    expect(sev(56.01)).toEqual([0.7001, 'low']); // 0.700125 → 0.7001
    expect(sev(79.99)).toEqual([0.9999, 'low']); // 0.999875 → 0.9999
  });

  it('below: the sentence and factors', () => {
    // 30/80 = 0.375 → ≤ 0.5 → high; factor price 30 × 0.0125 = 0.375
    const a = anomaly(30, mk())!;
    expect(a.direction).toBe('below');
    expect(a.factors[0]).toEqual({ name: 'price', value: 30, weight: 0.0125, contribution: 0.375 });
    expect(a.factors[1]).toEqual({ name: 'p10', value: 80, weight: 0, contribution: 0 });
    expect(a.reasons).toBe("listed at 30.00, 0.38× the band's p10 of 80.00 (12 prices): far below");
    expect(anomaly(60, mk())!.reasons).toBe("listed at 60.00, 0.75× the band's p10 of 80.00 (12 prices): slightly below");
    expect(anomaly(150, mk())!.reasons).toBe("listed at 150.00, 1.5× the band's p90 of 100.00 (12 prices): well above");
  });

  it('a band of fewer than 3 prices judges nothing', () => {
    expect(anomaly(500, mk(2))).toBeNull();
    expect(anomaly(1, mk(0))).toBeNull();
    expect(anomaly(500, mk(3))?.severity).toBe('high');
  });

  it('against band(): prices 10…50 have p10 14 and p90 46', () => {
    const b = band([10, 20, 30, 40, 50].map((value) => ({ value, weight: 1 })))!;
    // 92/46 = 2 → high; 7/14 = 0.5 → high; 46 itself is inside
    expect(anomaly(92, b)).toMatchObject({ direction: 'above', ratio: 2, severity: 'high' });
    expect(anomaly(7, b)).toMatchObject({ direction: 'below', ratio: 0.5, severity: 'high' });
    expect(anomaly(30, b)).toBeNull();
  });

  it('prices: 0 is judged (ratio 0, high); negative or non-finite is not a price', () => {
    expect(anomaly(0, mk())).toMatchObject({ direction: 'below', ratio: 0, severity: 'high' });
    expect(anomaly(0, mk())!.reasons).toBe("listed at 0.00, 0.0× the band's p10 of 80.00 (12 prices): far below");
    for (const price of [-1, NaN, Infinity, -Infinity]) expect(anomaly(price, mk())).toBeNull();
  });

  it('an edge ≤ 0 (hand-built band) gives no ratio → null', () => {
    // p10 0, median 0, p90 0: 5 is above a p90 of 0 → no ratio
    expect(anomaly(5, mk(12, 0, 0, 0))).toBeNull();
    // p10 0: a price ≥ 0 is never below it; the median fallback has nothing to do
    expect(anomaly(0, mk(12, 0, 50, 100))).toBeNull();
  });
});
