// factor.ts: the rounding rule every stat uses (half away from zero, decimal halves as written,
// never −0) and a factor's contribution as value × weight to 4 decimals.
import { factor, roundTo } from './factor';

describe('roundTo', () => {
  it('rounds half away from zero, symmetrically', () => {
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(roundTo(0.12345, 4)).toBe(0.1235);
    expect(roundTo(-0.12345, 4)).toBe(-0.1235);
  });

  it('rounds decimal halves that binary stores a hair low as written', () => {
    // 1.005 × 100 = 100.49999999999999 in binary; the one-epsilon nudge makes it 100.5 → 101.
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    // 0.145 × 100 = 14.499999999999998 → 15.
    expect(roundTo(0.145, 2)).toBe(0.15);
  });

  it('cleans float noise: 0.1 + 0.2 → 0.3', () => {
    expect(roundTo(0.1 + 0.2, 4)).toBe(0.3);
  });

  it('never returns −0', () => {
    expect(Object.is(roundTo(-0.00001, 4), 0)).toBe(true);
    expect(Object.is(roundTo(-0, 2), 0)).toBe(true);
  });

  it('passes non-finite numbers through', () => {
    expect(roundTo(Infinity, 2)).toBe(Infinity);
    expect(roundTo(NaN, 2)).toBeNaN();
  });
});

describe('factor', () => {
  it('contribution = value × weight, 4 decimals', () => {
    expect(factor('price', 3, 0.5)).toEqual({ name: 'price', value: 3, weight: 0.5, contribution: 1.5 });
    // 1/3 × 1 = 0.33333… → 0.3333
    expect(factor('x', 1 / 3, 1).contribution).toBe(0.3333);
    // 0.7059 × −0.18 = −0.127062 → −0.1271
    expect(factor('spread', 0.18, -0.7059).contribution).toBe(-0.1271);
  });

  it('shows the value to 6 decimals, without binary remainders', () => {
    // A band edge in major units: 16343.2 / 100 in binary.
    expect(factor('p90', 163.43200000000002, 0).value).toBe(163.432);
    expect(factor('x', 1 / 3, 3)).toEqual({ name: 'x', value: 0.333333, weight: 3, contribution: 1 });
  });

  it('a context factor (weight 0) contributes exactly 0, never −0', () => {
    const f = factor('p90', 100, -0);
    expect(Object.is(f.weight, 0)).toBe(true);
    expect(Object.is(f.contribution, 0)).toBe(true);
  });
});
