// trend.ts: relative change between two periods with flat under 5 % (on the rounded change),
// 'new' from a zero base, and velocity as events per day.
import { FLAT_CHANGE, trend, velocity } from './trend';

describe('trend', () => {
  it('up and down by the relative change', () => {
    expect(trend(110, 100)).toEqual({ change: 0.1, direction: 'up' }); // (110 − 100)/100
    expect(trend(90, 100)).toEqual({ change: -0.1, direction: 'down' }); // (90 − 100)/100
    expect(trend(300, 100)).toEqual({ change: 2, direction: 'up' }); // 200/100
    expect(trend(0, 100)).toEqual({ change: -1, direction: 'down' }); // gone: −100 %
    expect(trend(1, 3)).toEqual({ change: -0.6667, direction: 'down' }); // −2/3 → −0.6667
  });

  it('flat under 5 %, the boundary itself counts as a move', () => {
    expect(FLAT_CHANGE).toBe(0.05);
    expect(trend(100, 100)).toEqual({ change: 0, direction: 'flat' });
    expect(trend(104.99, 100)).toEqual({ change: 0.0499, direction: 'flat' });
    expect(trend(105, 100)).toEqual({ change: 0.05, direction: 'up' }); // exactly 5 %
    expect(trend(95.01, 100)).toEqual({ change: -0.0499, direction: 'flat' });
    expect(trend(95, 100)).toEqual({ change: -0.05, direction: 'down' }); // exactly −5 %
    // 104.996/100 − 1 = 0.04996 → shown 0.05 → up (the direction reads the shown change)
    expect(trend(104.996, 100)).toEqual({ change: 0.05, direction: 'up' });
  });

  it('from a zero base: new (no change to compute), or flat when still 0', () => {
    expect(trend(5, 0)).toEqual({ change: null, direction: 'new' });
    expect(trend(0, 0)).toEqual({ change: 0, direction: 'flat' });
  });

  it('negative or non-finite inputs throw', () => {
    for (const [c, p] of [[-1, 10], [10, -1], [NaN, 10], [10, Infinity]]) {
      expect(() => trend(c, p)).toThrow(RangeError);
    }
  });
});

describe('velocity', () => {
  it('count / windowDays, 2 decimals', () => {
    expect(velocity(12, 30)).toBe(0.4); // 12/30
    expect(velocity(10, 3)).toBe(3.33); // 3.333…
    expect(velocity(2, 3)).toBe(0.67); // 0.666…
    expect(velocity(1, 8)).toBe(0.13); // 0.125 → half away from zero
    expect(velocity(0, 7)).toBe(0);
    expect(velocity(7, 0.5)).toBe(14); // a half-day window
  });

  it('a window ≤ 0 or a negative count throws', () => {
    expect(() => velocity(3, 0)).toThrow(RangeError);
    expect(() => velocity(3, -7)).toThrow(RangeError);
    expect(() => velocity(-1, 7)).toThrow(RangeError);
    expect(() => velocity(NaN, 7)).toThrow(RangeError);
  });
});
