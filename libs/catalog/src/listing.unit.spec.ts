import { normalizeListing } from '@app/catalog';

describe('normalizeListing', () => {
  it('normalizes the three fields and derives the match fields', () => {
    const listing = normalizeListing({ cardName: '  charizard ', setName: 'Base Set', condition: 'psa gem mint 10' });
    expect(listing.cardName.value).toEqual({ name: 'Charizard', key: 'charizard' });
    expect(listing.setName.value).toEqual({ name: 'Base', key: 'base1', setId: 'base1', code: 'BS' });
    expect(listing.condition.value).toEqual({ kind: 'graded', company: 'PSA', grade: 10, label: 'PSA 10' });
    expect(listing.match).toEqual({
      cardKey: 'charizard',
      setKey: 'base1',
      matchKey: 'base1|charizard',
      conditionClass: 'graded',
      conditionScore: 10,
      gradingCompany: 'PSA',
    });
  });

  it('gives the same match key to differently typed copies of one card', () => {
    const a = normalizeListing({ cardName: 'M Charizard-EX', setName: 'Flashfire', condition: 'NM' });
    const b = normalizeListing({ cardName: 'm charizard ex', setName: 'FLF', condition: 'near mint' });
    expect(a.match).toEqual(b.match);
    expect(a.match).toMatchObject({ matchKey: 'xy2|m charizard EX', conditionClass: 'raw', conditionScore: 5, gradingCompany: null });
  });

  it('keeps unknown values, flagged, in the match fields', () => {
    const listing = normalizeListing({ cardName: 'Charizrd', setName: 'Jungel', condition: 'Sealed' });
    expect(listing.cardName.recognized).toBe(false);
    expect(listing.setName.recognized).toBe(false);
    expect(listing.condition.recognized).toBe(false);
    expect(listing.match).toEqual({
      cardKey: 'charizrd',
      setKey: '?jungel',
      matchKey: '?jungel|charizrd',
      conditionClass: 'unknown:sealed',
      conditionScore: 0,
      gradingCompany: null,
    });
  });
});
