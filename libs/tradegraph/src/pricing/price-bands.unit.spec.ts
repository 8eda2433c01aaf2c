import type { PointsDoc } from './pricing.views';
import { pricingOf } from './price-bands';

const now = new Date('2026-11-25T00:00:00.000Z');
const days = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();
const doc = (over: Partial<PointsDoc> = {}): PointsDoc => ({
  id: 'ws|base|charizard|Near Mint|USD',
  workspaceId: 'ws',
  cardKey: 'charizard',
  setKey: 'base',
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  currency: 'USD',
  sales: [],
  asks: [],
  bids: [],
  ...over,
});

describe('price bands', () => {
  it('weighs each source (a sold unit 1, a listing 0.5, a buyer 0.25) and keeps only the window\'s sales', () => {
    const priced = pricingOf(
      doc({
        sales: [
          { tradeId: 't_old', priceMinor: 99_900, units: 1, at: days(40) },
          { tradeId: 't1', priceMinor: 40_000, units: 2, at: days(3) },
        ],
        asks: [42000, 1],
        bids: [44000, 1],
      }),
      now,
      30,
    );
    expect(priced.sources).toEqual({ sales: 1, listings: 1, buyers: 1 });
    // Points 400 (weight 2), 420 (0.5), 440 (0.25): count 3, weight 2.75; the 40-day-old sale is out.
    expect(priced.band).toMatchObject({ count: 3, weight: 2.75, min: 400, max: 440 });
    expect(priced.band?.median).toBeGreaterThanOrEqual(400);
    expect(priced.band?.median).toBeLessThan(420);
    expect(priced.dispersion?.label).toBe('tight');
  });

  it('judges each listing against every other point: a 5x listing is far above, a cheap one far below', () => {
    const sales = [400, 410, 420, 430, 440].map((p, i) => ({ tradeId: `t${i}`, priceMinor: p * 100, units: 1, at: days(i + 1) }));
    const priced = pricingOf(
      doc({ sales, asks: [15000, 1, 42500, 2, 210000, 1] }),
      now,
      30,
    );
    const byPrice = Object.fromEntries(priced.anomalies.map((a) => [a.price, a]));
    expect(Object.keys(byPrice).map(Number).sort((a, b) => a - b)).toEqual([150, 2100]);
    expect(byPrice[2100]).toMatchObject({ direction: 'above', severity: 'high', listings: 1, priceMinor: 210_000 });
    expect(byPrice[2100].against.max).toBeLessThan(2100);
    expect(byPrice[150]).toMatchObject({ direction: 'below', severity: 'high', listings: 1 });
    // 5 sales + 4 listings: the band counts points, not distinct prices.
    expect(priced.band?.count).toBe(9);
    expect(priced.sources).toEqual({ sales: 5, listings: 4, buyers: 0 });
  });

  it('has no band without points, and no anomaly on a thin band', () => {
    expect(pricingOf(doc(), now, 30)).toMatchObject({ band: null, dispersion: null, anomalies: [] });
    const thin = pricingOf(doc({ asks: [100, 1, 10000, 1] }), now, 30);
    expect(thin.anomalies).toEqual([]);
    expect(thin.dispersion?.label).toBe('thin');
  });
});
