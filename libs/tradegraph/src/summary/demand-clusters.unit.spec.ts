import type { DemandDoc } from './summary.views';
import { AGED_DAYS, demandCluster } from './demand-clusters';

const now = new Date('2026-11-25T12:00:00.000Z');
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const day = (days: number) => ago(days).slice(0, 10);
const doc = (over: Partial<DemandDoc> = {}): DemandDoc => ({
  id: 'ws|card|base|charizard', workspaceId: 'ws', kind: 'card', name: 'Charizard (Base)', cardName: 'Charizard', setName: 'Base',
  openCount: 0, unmatchedCount: 0, openPrices: [], unmatchedPrices: [], asks: [], unmatchedByDay: {}, created: {}, missed: {},
  availableUnits: 0, stockByDay: {}, listed: {}, sold: {}, ...over,
});

describe('demand clusters', () => {
  it('counts open and unmatched requests, velocity against the previous window, and each kind of missed demand', () => {
    const c = demandCluster(
      doc({
        // br_1 400.00 matched; br_2 300.00 unmatched since AGED_DAYS + 1 days (aged); br_3 100.00 unmatched,
        // under every listing (cheapest 150.00).
        openCount: 3,
        unmatchedCount: 2,
        openPrices: [10000, 1, 30000, 1, 40000, 1],
        unmatchedPrices: [10000, 1, 30000, 1],
        asks: [15000, 2, 52000, 1], // the cheapest listing: 150.00
        unmatchedByDay: { [day(AGED_DAYS + 1)]: 1, [day(1)]: 1 },
        // 10 days of window: 4 created in it (days 0..9), 2 in the previous 10 days.
        created: { [day(0)]: 1, [day(3)]: 2, [day(9)]: 1, [day(10)]: 1, [day(15)]: 1, [day(40)]: 7 },
        missed: { [day(5)]: 1, [day(25)]: 3 },
      }),
      now,
      10,
    );
    expect(c).toMatchObject({ open: 3, unmatched: 2, created: 4, velocity: 0.4, previousVelocity: 0.2, trend: { change: 1, direction: 'up' } });
    // br_3 (100.00) is under the cheapest listing (150.00); br_2 (300.00) is not, but it is aged.
    expect(c.missed).toEqual({ archivedUnmatched: 1, aged: 1, underEveryListing: 1, total: 3 });
    // heat = 3 × 1 + 0.4 × 7 + 3 × 0.5 = 7.3
    expect(c.heat).toBe(7.3);
    expect(c.factors.map((f) => [f.name, f.contribution])).toEqual([['open_requests', 3], ['velocity_per_day', 2.8], ['missed_demand', 1.5]]);
    expect(c.prices).toMatchObject({ median: 300, min: 100, max: 400, count: 3 });
    expect(c.reasons).toBe('3 open requests (2 unmatched), 0.4 new a day (up 100 % on the previous window), 3 missed: 1 archived unmatched, 1 unmatched for over 14 days, 1 priced under every listing');
  });

  it('judges "under every listing" only for a card, and only against listings that exist', () => {
    const open = { openCount: 1, unmatchedCount: 1, openPrices: [100, 1], unmatchedPrices: [100, 1], unmatchedByDay: { [day(1)]: 1 } };
    expect(demandCluster(doc(open), now, 30).missed.underEveryListing).toBe(0);
    expect(demandCluster(doc({ ...open, asks: [99, 1] }), now, 30).missed.underEveryListing).toBe(0);
    expect(demandCluster(doc({ ...open, asks: [101, 1] }), now, 30).missed.underEveryListing).toBe(1);
    expect(demandCluster(doc({ ...open, kind: 'set', cardName: null, name: 'Base', asks: [500, 1] }), now, 30).missed.underEveryListing).toBeNull();
    expect(demandCluster(doc(), now, 30)).toMatchObject({ open: 0, prices: null, trend: { direction: 'flat' }, heat: 0 });
  });
});
