import { cardKeysOfSet, editDistance, findSet, nameSimilarity, similarCardNames, TYPO_SIMILARITY } from '@app/catalog';

describe('editDistance (optimal string alignment)', () => {
  it.each([
    ['charizard', 'charizard', 0],
    ['charizrd', 'charizard', 1],
    ['chairzard', 'charizard', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('%j ↔ %j = %d', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it('gives up past the bound with bound + 1', () => {
    expect(editDistance('charizard', 'blastoise', 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
  });
});

describe('nameSimilarity', () => {
  it.each([
    ['charizrd', 'charizard'],
    ['chairzard', 'charizard'],
    ['pikachuu', 'pikachu'],
    ['blastiose', 'blastoise'],
    ['mewtwo and mew gx', 'mewtwo and mwe gx'],
  ])('a one-letter typo %j ↔ %j is ≥ 0.85', (a, b) => {
    expect(nameSimilarity(a, b)).toBeGreaterThanOrEqual(TYPO_SIMILARITY);
  });

  it.each([
    ['charizard', 'blastoise'],
    ['pikachu', 'raichu'],
  ])('different cards %j ↔ %j are < 0.6', (a, b) => {
    expect(nameSimilarity(a, b)).toBeLessThan(0.6);
  });

  it.each([
    ['charizard ex', 'charizard gx'],
    ['charizard', 'charizard ex'],
    ['charizard ex', 'charizard EX'],
    ['charizard v', 'charizard vmax'],
    ['m charizard EX', 'charizard EX'],
    ['umbreon star', 'umbreon'],
    ['unown [a]', 'unown [b]'],
    ['blaines quiz 1', 'blaines quiz 2'],
    ['mewtwo and mew gx', 'mewtwo and mew'],
  ])('a different mechanic or variant %j ↔ %j is < 0.85', (a, b) => {
    expect(nameSimilarity(a, b)).toBeLessThan(TYPO_SIMILARITY);
  });

  it('is 1 iff the keys are equal, and symmetric', () => {
    expect(nameSimilarity('charizard', 'charizard')).toBe(1);
    expect(nameSimilarity('', '')).toBe(1);
    expect(nameSimilarity('charizard', 'charizard ')).toBeLessThan(1);
    expect(nameSimilarity('charizard', '')).toBe(0);
    expect(nameSimilarity('charizrd', 'charizard')).toBe(nameSimilarity('charizard', 'charizrd'));
  });
});

describe('similarCardNames', () => {
  it('finds the catalogue name a typo was meant to be, excluding the key itself', () => {
    expect(similarCardNames('charizrd')).toEqual(['charizard']);
    expect(similarCardNames('charizard')).not.toContain('charizard');
  });

  it('never offers another mechanic as a typo at the default threshold', () => {
    const found = similarCardNames('charizard gxx');
    expect(found).not.toContain('charizard gx');
    expect(similarCardNames('charizard ex')).not.toEqual(expect.arrayContaining(['charizard EX']));
  });

  it('orders best first and honours limit and minSimilarity', () => {
    const found = similarCardNames('pikachu', { minSimilarity: 0.5, limit: 50 });
    const scores = found.map((k) => nameSimilarity('pikachu', k));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((s) => s >= 0.5)).toBe(true);
    expect(similarCardNames('pikachu', { minSimilarity: 0.5, limit: 3 })).toEqual(found.slice(0, 3));
    expect(similarCardNames('pikachu', { limit: 0 })).toEqual([]);
  });

  it('searches only the given set when the set is known', () => {
    const base = findSet('Base');
    expect(base?.key).toBe('base1');
    const inBase = new Set(cardKeysOfSet('base1'));
    const found = similarCardNames('charmeleen', { setKey: 'base1', minSimilarity: 0.7 });
    expect(found[0]).toBe('charmeleon');
    expect(found.every((k) => inBase.has(k))).toBe(true);
    expect(similarCardNames('pikachu v', { setKey: 'base1' })).toEqual([]);
  });

  it('searches the whole catalogue when the set is unknown', () => {
    expect(similarCardNames('charizrd', { setKey: '?jungel' })).toEqual(['charizard']);
  });
});
