import { ANY_CONDITION_CLASS, ANY_SET_KEY, anySetMatchKey, normalizeListing, normalizeWant } from '@app/catalog';

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

describe('normalizeWant (a buyer request: only the card is required)', () => {
  it('an open set and condition are null, with the wildcard match fields', () => {
    const w = normalizeWant({ cardName: 'charizard' });
    expect(w.setName).toBeNull();
    expect(w.condition).toBeNull();
    expect(w.match).toEqual({ cardKey: 'charizard', setKey: ANY_SET_KEY, matchKey: anySetMatchKey('charizard'), conditionClass: ANY_CONDITION_CLASS, conditionScore: 0, gradingCompany: null });
  });

  it('given fields normalize exactly as a listing does', () => {
    const input = { cardName: 'Chairzard', setName: 'BS', condition: 'NM' };
    const w = normalizeWant(input);
    const l = normalizeListing(input);
    expect(w.match).toEqual(l.match);
    expect(w.cardName).toEqual(l.cardName);
  });

  it('an unknown set given explicitly is kept as typed and flagged (not read as any set)', () => {
    const w = normalizeWant({ cardName: 'Charizard', setName: 'Jungel', condition: null });
    expect(w.setName?.recognized).toBe(false);
    expect(w.setName?.warnings[0]).toMatch(/unknown set "Jungel" kept as given/);
    expect(w.match.setKey).not.toBe(ANY_SET_KEY);
    expect(w.match.conditionClass).toBe(ANY_CONDITION_CLASS);
  });
});
