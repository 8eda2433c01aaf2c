import type { Band } from '../stats';
import { executionActions, priceFit } from './execution-actions';

const band: Band = { p10: 380, p25: 400, median: 420, p75: 440, p90: 460, min: 350, max: 500, count: 15, weight: 10 };

describe('execution actions', () => {
  it('ranks a sale to a waiting buyer first when the buyer pays the listed price, up to the median', () => {
    const actions = executionActions({ price: 410, band, paying: { buyerRequestId: 'br_1', maxPrice: 450 }, best: { buyerRequestId: 'br_1', maxPrice: 450 }, openRequests: 2, sellThrough: 0.5, windowDays: 30 });
    expect(actions[0]).toMatchObject({ action: 'sell_to_request', price: 420, probability: 0.85, delayDays: 1, buyerRequestId: 'br_1' });
    // 0.85 × 420 × 0.998 = 356.29
    expect(actions[0].expectedValue).toBe(356.29);
    // confidence: 15 points → 15 / 20 = 0.75
    expect(actions[0].confidence).toBe(0.75);
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['hold_for_live', 'wait']));
    expect(actions.map((a) => a.action)).not.toContain('reprice_to_band');
  });

  it('offers to a buyer within the band before relisting an overpriced item at the median', () => {
    const actions = executionActions({ price: 2100, band, paying: null, best: { buyerRequestId: 'br_1', maxPrice: 455 }, openRequests: 1, sellThrough: 0.6, windowDays: 30 });
    const kinds = actions.map((a) => a.action);
    expect(kinds[0]).toBe('send_offer');
    expect(kinds.indexOf('send_offer')).toBeLessThan(kinds.indexOf('reprice_to_band'));
    // Waiting at 5× the market: probability 0.6 × ½ × (460 / 2100)² = 0.0144.
    expect(actions.find((a) => a.action === 'wait')?.probability).toBe(0.0144);
  });

  it('fits prices to the band, bundles low-value items without demand, and lowers confidence without a band', () => {
    expect([priceFit(430, band), priceFit(450, band), priceFit(920, band), priceFit(5, null)]).toEqual([1, 0.5, 0.125, 1]);
    const cheap = executionActions({ price: 4, band: null, paying: null, best: null, openRequests: 0, sellThrough: null, windowDays: 30 });
    expect(cheap.map((a) => a.action).sort()).toEqual(['bundle', 'wait']);
    expect(cheap.every((a) => a.confidence === 0)).toBe(true);
    expect(cheap.every((a) => a.reasons.length > 0 && a.factors.length > 0)).toBe(true);
  });
});
