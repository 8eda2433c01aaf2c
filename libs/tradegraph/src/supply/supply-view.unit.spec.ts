import type { DemandDoc } from '../summary/summary.views';
import { cardSupply, workspaceSupply } from './supply-view';

const now = new Date('2026-11-25T12:00:00.000Z');
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const day = (days: number) => ago(days).slice(0, 10);
const doc = (over: Partial<DemandDoc>): DemandDoc => ({
  id: 'x', workspaceId: 'ws', kind: 'card', name: 'Charizard (Base)', cardName: 'Charizard', setName: 'Base', openCount: 0, unmatchedCount: 0,
  openPrices: [], unmatchedPrices: [], asks: [], unmatchedByDay: {}, created: {}, missed: {}, availableUnits: 0, stockByDay: {}, listed: {}, sold: {}, ...over,
});

describe('supply', () => {
  it('a card: saturation, median age, stale capital and sell-through', () => {
    const c = cardSupply(
      doc({
        openCount: 2,
        stockByDay: { [day(40)]: { units: 3, valueMinor: 30_000 }, [day(5)]: { units: 1, valueMinor: 20_000 } },
        sold: { [day(2)]: 2, [day(45)]: 9 },
      }),
      now,
      30,
      30,
    );
    // 4 units for 2 requests: 2 per request, balanced (saturated only above 2).
    expect(c).toMatchObject({ availableUnits: 4, openRequests: 2, saturation: { ratio: 2, label: 'balanced' } });
    // 3 units listed 40 days ago at 100.00 are stale: 300.00.
    expect(c.staleCapital).toEqual({ value: 300, units: 3 });
    // Ages (from the start of the listing day, 12:00 now) 5.5 (1 unit) and 40.5 (3 units), weight
    // centres at 0 and 2 (stats/quantiles): the median interpolates halfway, 5.5 + ½ × 35 = 23.
    expect(c.medianAgeDays).toBe(23);
    // 2 sold in the window (the 45-day-old sale is out): 2 / (2 + 4).
    expect(c).toMatchObject({ soldUnits: 2, sellThrough: 0.3333 });
    expect(c.reasons).toBe('4 units available for 2 open requests (balanced: 2 units per open request); 2 sold in 30 days (sell-through 33.3 %); 3 listed over 30 days, worth 300.00');
  });

  it('labels saturation at its thresholds', () => {
    const with_ = (units: number, open: number) => cardSupply(doc({ openCount: open, stockByDay: units ? { [day(1)]: { units, valueMinor: units } } : {} }), now, 30, 30).saturation;
    expect(with_(5, 2)).toEqual({ ratio: 2.5, label: 'saturated' });
    expect(with_(1, 2)).toEqual({ ratio: 0.5, label: 'balanced' });
    expect(with_(1, 3)).toEqual({ ratio: 0.3333, label: 'undersupplied' });
    expect(with_(1, 0)).toEqual({ ratio: null, label: 'no_demand' });
    expect(with_(0, 2)).toEqual({ ratio: 0, label: 'no_stock' });
  });

  it('the workspace: age buckets, stale capital, units listed and sold, sell-through', () => {
    const w = workspaceSupply(
      doc({ kind: 'workspace', availableUnits: 10, stockByDay: { [day(1)]: { units: 4, valueMinor: 4000 }, [day(20)]: { units: 5, valueMinor: 10_000 }, [day(100)]: { units: 1, valueMinor: 50_000 } }, sold: { [day(3)]: 10 }, listed: { [day(1)]: 4, [day(20)]: 5 } }),
      now,
      30,
      30,
    );
    expect(w.freshness.buckets).toEqual([
      { label: '0-7 days', units: 4 },
      { label: '8-30 days', units: 5 },
      { label: '31-90 days', units: 0 },
      { label: 'over 90 days', units: 1 },
    ]);
    expect(w).toMatchObject({ availableUnits: 10, stockValue: 640, staleCapital: { value: 500, units: 1 }, soldUnits: 10, listedUnits: 9, sellThrough: 0.5 });
    expect(workspaceSupply(null, now, 30, 30)).toMatchObject({ availableUnits: 0, sellThrough: null, freshness: { ages: null } });
  });
});
