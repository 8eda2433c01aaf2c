// price-counts.ts: counts by price kept as a flat ascending [price, count, …] array.
import fc from 'fast-check';

import { addPrice, countBelow, lowestPrice, pricePairs, totalCount } from './price-counts';

describe('price counts', () => {
  it('keeps prices in ascending order, adds to an existing price, and removes one that reaches 0', () => {
    const c: number[] = [];
    addPrice(c, 500, 1);
    addPrice(c, 100, 2);
    addPrice(c, 300, 1);
    addPrice(c, 500, 2);
    expect(c).toEqual([100, 2, 300, 1, 500, 3]);
    addPrice(c, 300, -1);
    expect(c).toEqual([100, 2, 500, 3]);
    addPrice(c, 700, -1); // nothing to take away
    expect(c).toEqual([100, 2, 500, 3]);
    expect(pricePairs(c)).toEqual([[100, 2], [500, 3]]);
    expect(totalCount(c)).toBe(5);
    expect(lowestPrice(c)).toBe(100);
    expect(lowestPrice([])).toBeNull();
    expect(countBelow(c, 500)).toBe(2);
    expect(countBelow(c, 501)).toBe(5);
    expect(countBelow(c, 100)).toBe(0);
  });

  it('is the same multiset as counting into a map, whatever the order of the changes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: -2, max: 3 })), { maxLength: 200 }), (changes) => {
        const c: number[] = [];
        const m = new Map<number, number>();
        for (const [price, delta] of changes) {
          addPrice(c, price, delta);
          const next = (m.get(price) ?? 0) + delta;
          if (next <= 0) m.delete(price);
          else m.set(price, next);
        }
        expect(pricePairs(c)).toEqual([...m.entries()].sort(([a], [b]) => a - b));
      }),
    );
  });
});
