import { normalizeListing } from '@app/catalog';

import { type ItemView, NEAR_MISS_PENALTY, type RequestView, scoreMatch } from './match-scoring';

function request(cardName: string, setName: string, condition: string, maxPriceMinor: number, currency = 'USD'): RequestView {
  const l = normalizeListing({ cardName, setName, condition });
  return {
    cardName: l.cardName.value.name,
    cardKey: l.match.cardKey,
    setKey: l.match.setKey,
    setName: l.setName.value.name,
    condition: l.condition.value.label,
    maxPriceMinor,
    currency,
  };
}

function item(cardName: string, setName: string, condition: string, priceMinor: number, currency = 'USD'): ItemView {
  const l = normalizeListing({ cardName, setName, condition });
  return {
    id: 'inv_1',
    cardName: l.cardName.value.name,
    cardKey: l.match.cardKey,
    setKey: l.match.setKey,
    condition: l.condition.value.label,
    priceMinor,
    currency,
  };
}

const sum = (xs: readonly { contribution: number }[]) => Math.round(xs.reduce((s, x) => s + x.contribution, 0) * 10_000) / 10_000;

describe('scoreMatch', () => {
  const want = request('Charizard', 'Base', 'Near Mint', 45_000);

  it('a full match lists its four factors, which add up to the score', () => {
    const m = scoreMatch(want, item('charizard', 'BS', 'NM', 40_000));
    expect(m).not.toBeNull();
    expect(m?.kind).toBe('full');
    expect(m?.factors.map((f) => f.name)).toEqual(['name_similarity', 'set', 'condition_margin', 'price_headroom']);
    expect(m?.score).toBe(sum(m?.factors ?? []));
    expect(m?.score).toBeGreaterThanOrEqual(0.88);
    expect(m?.reasons[0]).toBe('same card');
  });

  it.each([
    // Normalization now corrects `Charizrd` in Base to Charizard (issue 19): the scorer's typo rule
    // is for the names it cannot resolve (two cards as close, or stored before corrections).
    ['a typo in the name', { ...item('Charizard', 'Base', 'Near Mint', 40_000), cardName: 'Charizrd', cardKey: 'charizrd' }, /typo/],
    ['a condition one step below', item('Charizard', 'Base', 'Lightly Played', 40_000), /below/],
    ['a price up to 10 % above', item('Charizard', 'Base', 'Near Mint', 49_000), /above the 450.00 USD maximum/],
  ])('%s is a near miss, scored below every full match, with a reason', (_case, offered, reason) => {
    const m = scoreMatch(want, offered);
    expect(m?.kind).toBe('near_miss');
    expect(m?.reasons.some((r) => r.startsWith('near miss') && reason.test(r))).toBe(true);
    expect(m?.factors.at(-1)).toMatchObject({ name: 'near_miss_penalty', value: NEAR_MISS_PENALTY });
    expect(m?.score).toBe(sum(m?.factors ?? []));
    expect(m?.score).toBeLessThan(0.8);
  });

  it.each([
    ['another card', item('Blastoise', 'Base', 'Near Mint', 40_000)],
    ['another set', item('Charizard', 'Jungle', 'Near Mint', 40_000)],
    ['another currency', item('Charizard', 'Base', 'Near Mint', 40_000, 'EUR')],
    ['two condition steps below', item('Charizard', 'Base', 'Moderately Played', 40_000)],
    ['more than 10 % over the price', item('Charizard', 'Base', 'Near Mint', 49_600)],
    ['another mechanic (ex is a different card)', item('Charizard ex', 'Base', 'Near Mint', 40_000)],
  ])('%s is not a candidate', (_case, offered) => {
    expect(scoreMatch(want, offered)).toBeNull();
  });

  it('more headroom and a better condition score higher', () => {
    const cheap = scoreMatch(want, item('Charizard', 'Base', 'Near Mint', 20_000));
    const dear = scoreMatch(want, item('Charizard', 'Base', 'Near Mint', 45_000));
    const mint = scoreMatch(want, item('Charizard', 'Base', 'Mint', 45_000));
    expect(cheap?.score).toBeGreaterThan(dear?.score ?? 1);
    expect(mint?.score).toBeGreaterThan(dear?.score ?? 1);
  });

  describe('graded requests', () => {
    const psa9 = request('Charizard', 'Base', 'PSA 9', 100_000);

    it('are met by graded cards of at least that grade; the same company scores higher', () => {
      const same = scoreMatch(psa9, item('Charizard', 'Base', 'PSA 9', 90_000));
      const other = scoreMatch(psa9, item('Charizard', 'Base', 'BGS 9', 90_000));
      const better = scoreMatch(psa9, item('Charizard', 'Base', 'PSA 10', 90_000));
      expect([same?.kind, other?.kind, better?.kind]).toEqual(['full', 'full', 'full']);
      expect(same?.score).toBeGreaterThan(other?.score ?? 1);
      expect(better?.score).toBeGreaterThan(same?.score ?? 1);
    });

    it('a raw card is at best a near miss; a lower grade is a near miss or nothing', () => {
      expect(scoreMatch(psa9, item('Charizard', 'Base', 'Mint', 90_000))?.kind).toBe('near_miss');
      expect(scoreMatch(psa9, item('Charizard', 'Base', 'PSA 8.5', 90_000))?.kind).toBe('near_miss');
      expect(scoreMatch(psa9, item('Charizard', 'Base', 'PSA 6', 90_000))).toBeNull();
    });

    it('a graded card meets a raw request only as a near miss', () => {
      expect(scoreMatch(want, item('Charizard', 'Base', 'PSA 10', 40_000))?.kind).toBe('near_miss');
    });
  });

  describe('open fields', () => {
    const anyPrinting: RequestView = { cardName: 'Charizard', cardKey: 'charizard', setKey: '*', setName: null, condition: null, maxPriceMinor: null, currency: 'USD' };

    it('a request for any printing, condition and price is fully met by the card in any set, and says so', () => {
      const offered = { ...item('Charizard', 'Base Set 2', 'Heavily Played', 999_999), setName: 'Base Set 2' };
      const m = scoreMatch(anyPrinting, offered);
      expect(m?.kind).toBe('full');
      expect(m?.reasons).toEqual([
        'same card',
        'any set requested (Base Set 2)',
        'any condition requested (offered Heavily Played)',
        'any price requested (offered at 9999.99 USD)',
      ]);
      expect(sum(m?.factors ?? [])).toBe(m?.score);
      expect(m?.score).toBe(1);
    });

    it('an open field never makes a near miss, and the other fields still count', () => {
      // Any set, but at most 45.00 and Near Mint: one step below is still a near miss.
      const want: RequestView = { ...anyPrinting, condition: 'Near Mint', maxPriceMinor: 4_500 };
      expect(scoreMatch(want, item('Charizard', 'Base', 'Near Mint', 4_000))?.kind).toBe('full');
      expect(scoreMatch(want, item('Charizard', 'Jungle', 'Lightly Played', 4_000))?.kind).toBe('near_miss');
      expect(scoreMatch(want, item('Charizard', 'Base', 'Near Mint', 4_900))?.kind).toBe('near_miss');
      expect(scoreMatch(want, item('Blastoise', 'Base', 'Near Mint', 4_000))).toBeNull();
      // Another currency is never a match.
      expect(scoreMatch(anyPrinting, item('Charizard', 'Base', 'Near Mint', 4_000, 'EUR'))).toBeNull();
    });

    it('a set given explicitly still takes only that set', () => {
      const want: RequestView = { ...anyPrinting, setKey: 'base1', setName: 'Base' };
      expect(scoreMatch(want, item('Charizard', 'Base', 'Near Mint', 4_000))?.reasons[1]).toBe('same set (Base)');
      expect(scoreMatch(want, item('Charizard', 'Base Set 2', 'Near Mint', 4_000))).toBeNull();
    });
  });
});
