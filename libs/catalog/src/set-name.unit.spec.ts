import { findSet, normalizeSetName } from '@app/catalog';

describe('normalizeSetName', () => {
  it.each([
    ['Base', 'base1', 1, []],
    ['base1', 'base1', 1, ['resolved set id "base1" to "Base"']],
    ['BS', 'base1', 0.95, ['resolved set code "BS" to "Base"']],
    ['bs', 'base1', 0.9, ['resolved set id or code "bs" to "Base"']],
    ['Base Set', 'base1', 0.9, ['resolved set alias "Base Set" to "Base"']],
    ['  base set ', 'base1', 0.9, ['trimmed whitespace', 'resolved set alias "base set" to "Base"']],
    ['Base Set 2', 'base4', 1, []],
    ['base set 2', 'base4', 0.95, ['resolved set name "base set 2" to "Base Set 2"']],
    ['JUNGLE', 'base2', 0.95, ['resolved set name "JUNGLE" to "Jungle"']],
    ['Ruby and Sapphire', 'ex1', 0.95, ['resolved set name "Ruby and Sapphire" to "Ruby & Sapphire"']],
    ['HS Unleashed', 'hgss2', 0.95, ['resolved set name "HS Unleashed" to "HS—Unleashed"']],
    ['Pokemon GO', 'pgo', 0.95, ['resolved set name "Pokemon GO" to "Pokémon GO"']],
    ['mcdonalds collection 2011', 'mcd11', 0.95, ['resolved set name "mcdonalds collection 2011" to "McDonald\'s Collection 2011"']],
    ['Celebrations Classic Collection', 'cel25c', 0.95, ['resolved set name "Celebrations Classic Collection" to "Celebrations: Classic Collection"']],
    ['Kalos Starter', 'xy0', 0.9, ['resolved set alias "Kalos Starter" to "Kalos Starter Set"']],
    ['EX', 'ecard1', 0.95, ['resolved set code "EX" to "Expedition Base Set"']],
    ['PR-BLW', 'bwp', 0.95, ['resolved set code "PR-BLW" to "BW Black Star Promos"']],
    ['151', 'sv3pt5', 1, []],
  ])('%j → %s (confidence %d)', (input, setId, confidence, changes) => {
    const result = normalizeSetName(input);
    expect(result).toMatchObject({ input, recognized: true, confidence, changes, warnings: [] });
    expect(result.value.setId).toBe(setId);
    expect(result.value.key).toBe(setId);
    expect(findSet(input)).toEqual(result.value);
  });

  it('returns the catalogue name, id and code', () => {
    expect(normalizeSetName('Base Set').value).toEqual({ name: 'Base', key: 'base1', setId: 'base1', code: 'BS' });
    expect(normalizeSetName('Southern Islands').value).toEqual({ name: 'Southern Islands', key: 'si1', setId: 'si1', code: null });
  });

  it('picks the earliest release (then catalogue order) for a code two sets share, and warns', () => {
    const result = normalizeSetName('HIF');
    expect(result.value.setId).toBe('sm115');
    expect(result.confidence).toBe(0.7);
    expect(result.warnings).toEqual([
      'set code "HIF" matches "Hidden Fates" (sm115), "Hidden Fates Shiny Vault" (sma); chose "Hidden Fates" (earliest release, then catalogue order)',
    ]);
  });

  it('tells the set id g1 (Generations) from the code G1 (Gym Heroes) by case, and warns', () => {
    const id = normalizeSetName('g1');
    const code = normalizeSetName('G1');
    expect(id.value.setId).toBe('g1');
    expect(code.value.setId).toBe('gym1');
    expect(id.warnings[0]).toContain('"Gym Heroes" (gym1)');
    expect(code.warnings[0]).toContain('"Generations" (g1)');
    expect(Math.max(id.confidence, code.confidence)).toBeLessThan(0.95);
  });

  it.each([
    ['Jungel', 'Jungle'],
    ['Fosil', 'Fossil'],
    ['Expedition', 'Expedition Base Set'],
  ])('keeps the unknown %j verbatim, flagged, suggesting %j', (input, suggestion) => {
    const result = normalizeSetName(input);
    expect(result).toMatchObject({
      value: { name: input, key: `?${input.toLowerCase()}`, setId: null, code: null },
      recognized: false,
      warnings: [`unknown set "${input}" kept as given (did you mean "${suggestion}"?)`],
    });
    expect(result.confidence).toBeLessThan(0.5);
    expect(findSet(input)).toBeNull();
  });

  it('folds the key of an unknown set', () => {
    expect(normalizeSetName('  Pokémon   Fan Club! ').value).toEqual({ name: 'Pokémon Fan Club!', key: '?pokemon fan club', setId: null, code: null });
    expect(normalizeSetName('').value.key).toBe('?');
    expect(normalizeSetName('').warnings).toEqual(['empty set name']);
  });

  it.each(['Base Set', 'bs', 'HIF', 'Jungel', '  Pokémon   Fan Club! ', 'ruby & sapphire'])('is idempotent for %j', (input) => {
    const once = normalizeSetName(input);
    expect(normalizeSetName(once.value.name).value).toEqual(once.value);
  });
});
