// expected-value.ts: probability × price × (1 − dailyDiscount)^delayDays − cost with its three
// factors (summing to the value within rounding), the defaults, the checks, and confidence.
import fc from 'fast-check';

import { confidence, DEFAULT_DAILY_DISCOUNT, expectedValue } from './expected-value';

describe('expectedValue', () => {
  it('no delay, no cost: probability × price', () => {
    // 0.5 × 100 = 50; time_discount value 1 − 0.998⁰ = 0; cost 0
    expect(expectedValue({ price: 100, probability: 0.5 })).toEqual({
      value: 50,
      factors: [
        { name: 'price', value: 100, weight: 0.5, contribution: 50 },
        { name: 'time_discount', value: 0, weight: -50, contribution: 0 },
        { name: 'cost', value: 0, weight: -1, contribution: 0 },
      ],
    });
  });

  it('the default daily discount over 10 days, with a cost', () => {
    expect(DEFAULT_DAILY_DISCOUNT).toBe(0.002);
    // 0.998¹⁰ = 1 − 10(0.002) + 45(0.002)² − 120(0.002)³ + 210(0.002)⁴ − …
    //         = 1 − 0.02 + 0.00018 − 0.00000096 + 0.00000000336 ≈ 0.98017904
    // gross = 0.8 × 200 = 160; 160 × 0.98017904 = 156.828647; − 10 = 146.828647 → 146.83
    // time_discount: value 1 − 0.98017904 = 0.01982096, weight −160 → −3.171353 → −3.1714
    // Σ contributions = 160 − 3.1714 − 10 = 146.8286 ≈ 146.83
    const ev = expectedValue({ price: 200, probability: 0.8, cost: 10, delayDays: 10 });
    expect(ev.value).toBe(146.83);
    expect(ev.factors[0]).toEqual({ name: 'price', value: 200, weight: 0.8, contribution: 160 });
    expect(ev.factors[1].value).toBe(0.019821); // 1 − 0.998^10 = 0.01982096…, shown to 6 decimals
    expect(ev.factors[1]).toMatchObject({ name: 'time_discount', weight: -160, contribution: -3.1714 });
    expect(ev.factors[2]).toEqual({ name: 'cost', value: 10, weight: -1, contribution: -10 });
  });

  it('an explicit discount: 1 % a day for 30 days', () => {
    // 0.99³⁰ = e^(30 ln 0.99) = e^(30 × −0.01005034) = e^(−0.3015101) ≈ 0.73970037
    // 1 × 1000 × 0.73970037 = 739.70037 → 739.70
    expect(expectedValue({ price: 1000, probability: 1, delayDays: 30, dailyDiscount: 0.01 }).value).toBe(739.7);
  });

  it('may be negative: cost above the expected gain', () => {
    // 0.1 × 10 − 5 = 1 − 5 = −4
    expect(expectedValue({ price: 10, probability: 0.1, cost: 5 }).value).toBe(-4);
    // probability 0 → −cost
    expect(expectedValue({ price: 999, probability: 0, cost: 2.5 }).value).toBe(-2.5);
  });

  it('a waiting action ranks below the same action now', () => {
    const now = expectedValue({ price: 100, probability: 0.9 }).value; // 90
    const later = expectedValue({ price: 100, probability: 0.9, delayDays: 14 }).value;
    // 90 × 0.998¹⁴ = 90 × (1 − 0.028 + 0.000364 − 0.0000029…) ≈ 90 × 0.972361 = 87.5125 → 87.51
    expect(now).toBe(90);
    expect(later).toBe(87.51);
  });

  it('invalid inputs throw', () => {
    const bad = [
      { price: 100, probability: 1.5 },
      { price: 100, probability: -0.1 },
      { price: 100, probability: NaN },
      { price: -1, probability: 0.5 },
      { price: 100, probability: 0.5, cost: -1 },
      { price: 100, probability: 0.5, delayDays: -1 },
      { price: 100, probability: 0.5, dailyDiscount: 1 },
      { price: 100, probability: 0.5, dailyDiscount: -0.01 },
    ];
    for (const input of bad) expect(() => expectedValue(input)).toThrow(RangeError);
  });

  it('over random inputs: the contributions sum to the value within rounding', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1e3, noNaN: true }),
        fc.integer({ min: 0, max: 365 }),
        fc.double({ min: 0, max: 0.05, noNaN: true }),
        (price, probability, cost, delayDays, dailyDiscount) => {
          const ev = expectedValue({ price, probability, cost, delayDays, dailyDiscount });
          const sum = ev.factors.reduce((s, f) => s + f.contribution, 0);
          // value: 2 decimals (≤ 0.005 off); each of 3 contributions: 4 decimals (≤ 0.00005 off)
          return Math.abs(ev.value - sum) <= 0.005 + 3 * 0.00005 + 1e-9;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('confidence', () => {
  it('points / (points + 5) × agreement, 2 decimals', () => {
    expect(confidence(5)).toBe(0.5); // 5/10
    expect(confidence(20)).toBe(0.8); // 20/25
    expect(confidence(0)).toBe(0);
    expect(confidence(1)).toBe(0.17); // 1/6 = 0.1667
    expect(confidence(15, 0.5)).toBe(0.38); // 15/20 × 0.5 = 0.375 → 0.38
    expect(confidence(95, 0.9)).toBe(0.86); // 95/100 × 0.9 = 0.855 → 0.86
  });

  it('in [0, 1] and non-decreasing in points', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, a) => {
        const c = confidence(n, a);
        return c >= 0 && c <= 1 && confidence(n + 1, a) >= c;
      }),
    );
  });

  it('invalid inputs throw', () => {
    expect(() => confidence(-1)).toThrow(RangeError);
    expect(() => confidence(NaN)).toThrow(RangeError);
    expect(() => confidence(5, 1.2)).toThrow(RangeError);
    expect(() => confidence(5, -0.1)).toThrow(RangeError);
  });
});
