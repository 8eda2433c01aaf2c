import { cardNameKey, normalizeCardName, readCardKey } from '@app/catalog';

describe('card name keys', () => {
  it.each([
    ['Charizard', 'charizard'],
    ['Pokémon Center', 'pokemon center'],
    ["Professor's Research", 'professors research'],
    ['Mewtwo & Mew-GX', 'mewtwo and mew gx'],
    ['Mewtwo and Mew GX', 'mewtwo and mew gx'],
    ['Charizard ex', 'charizard ex'],
    ['M Charizard-EX', 'm charizard EX'],
    ['Mewtwo-EX', 'mewtwo EX'],
    ['Mewtwo EX', 'mewtwo EX'],
    ['mewtwo-ex', 'mewtwo EX'],
    ['MEWTWO-EX', 'mewtwo EX'],
    ['Gardevoir ex δ', 'gardevoir ex delta'],
    ['Gardevoir ex delta', 'gardevoir ex delta'],
    ['Umbreon ★', 'umbreon star'],
    ['Giratina ◇', 'giratina prism'],
    ['Nidoran ♀', 'nidoran female'],
    ["Team Rocket's Nidoran♂", 'team rockets nidoran male'],
    ['Miracle Sphere α', 'miracle sphere alpha'],
    ['Absol G LV.X', 'absol g lv.x'],
    ['absol g lvx', 'absol g lv.x'],
    ['Absol G Lv. X', 'absol g lv.x'],
    ['Greninja V-UNION', 'greninja v union'],
    ['Mr. Mime', 'mr mime'],
    ['Type: Null', 'type null'],
    ['Unown [A]', 'unown [a]'],
    ['Unown [!]', 'unown [exclamation]'],
    ['Unown [?]', 'unown [question]'],
    ['Unown V', 'unown v'],
    ['Imakuni?', 'imakuni'],
    ['Ho-Oh', 'ho oh'],
    ['Ho-oh', 'ho oh'],
    ['  Dark   Charizard ', 'dark charizard'],
  ])('%j → %j', (name, key) => {
    expect(cardNameKey(name)).toBe(key);
  });

  it('keeps the letter Unown and the Unown V mechanic card apart', () => {
    expect(cardNameKey('Unown [V]')).not.toBe(cardNameKey('Unown V'));
  });

  it.each([
    ['charizard ex', 'charizard ex', 'charizard EX'],
    ['CHARIZARD EX', 'charizard EX', 'charizard ex'],
    ['Charizard Ex', 'charizard ex', 'charizard EX'],
    ['Charizard ex', 'charizard ex', null],
    ['Charizard EX', 'charizard EX', null],
    ['charizard-ex', 'charizard EX', null],
    ['charizard', 'charizard', null],
  ])('reads the ex/EX of %j as %j (other reading %j)', (name, key, alternateKey) => {
    expect(readCardKey(name)).toEqual({ key, alternateKey });
  });
});

describe('normalizeCardName', () => {
  it.each([
    ['Charizard', 'Charizard', 1],
    ['  charizard  ', 'Charizard', 0.95],
    ['CHARIZARD', 'Charizard', 0.95],
    ['pokemon center', 'Pokémon Center', 0.95],
    ['POKEMON CENTER', 'Pokémon Center', 0.95],
    ['Mewtwo and Mew GX', 'Mewtwo & Mew-GX', 0.95],
    ['mewtwo & mew gx', 'Mewtwo & Mew-GX', 0.95],
    ['Gardevoir ex delta', 'Gardevoir ex δ', 0.95],
    ['Umbreon star', 'Umbreon ★', 0.95],
    ['giratina prism', 'Giratina ◇', 0.95],
    ['Professor’s Research', "Professor's Research", 0.95],
    ['Mewtwo EX', 'Mewtwo-EX', 0.95],
    ['mewtwo-ex', 'Mewtwo-EX', 0.95],
    ['Charizard ex', 'Charizard ex', 1],
    ['M Charizard-EX', 'M Charizard-EX', 1],
    ['Absol G LV.X', 'Absol G LV.X', 1],
    ['absol g lvx', 'Absol G LV.X', 0.95],
    ['Ho-oh', 'Ho-oh', 1],
    ['ho oh', 'Ho-Oh', 0.95],
  ])('%j → %j (confidence %d)', (input, name, confidence) => {
    const result = normalizeCardName(input);
    expect(result).toMatchObject({ input, recognized: true, confidence, warnings: [] });
    expect(result.value).toEqual({ name, key: cardNameKey(name) });
    expect(result.changes.length > 0).toBe(input !== name);
  });

  it('takes the only catalogue identity when the case hides ex/EX, saying so', () => {
    const lower = normalizeCardName('m charizard ex');
    expect(lower).toMatchObject({ value: { name: 'M Charizard-EX', key: 'm charizard EX' }, recognized: true, warnings: [] });
    expect(lower.confidence).toBeLessThan(0.95);
    expect(lower.changes.join(' ')).toContain('M Charizard-EX');

    const upper = normalizeCardName('GARDEVOIR EX DELTA');
    expect(upper.value).toEqual({ name: 'Gardevoir ex δ', key: 'gardevoir ex delta' });
  });

  it('keeps the reading as typed and warns when both ex and EX exist', () => {
    const lower = normalizeCardName('charizard ex');
    expect(lower.value).toEqual({ name: 'Charizard ex', key: 'charizard ex' });
    const upper = normalizeCardName('CHARIZARD EX');
    expect(upper.value).toEqual({ name: 'Charizard-EX', key: 'charizard EX' });
    for (const result of [lower, upper]) {
      expect(result.recognized).toBe(true);
      expect(result.confidence).toBeLessThanOrEqual(0.6);
      expect(result.warnings[0]).toMatch(/"Charizard ex" or "Charizard-EX"|"Charizard-EX" or "Charizard ex"/);
    }
  });

  it('never turns an explicitly typed EX into ex: unknown, with the other reading suggested', () => {
    const result = normalizeCardName('Gardevoir EX δ');
    expect(result).toMatchObject({ value: { name: 'Gardevoir EX δ', key: 'gardevoir EX delta' }, recognized: false });
    expect(result.warnings[0]).toContain('did you mean "Gardevoir ex δ"?');
  });

  it('resolves a variant typed without its brackets', () => {
    expect(normalizeCardName('Unown A').value).toEqual({ name: 'Unown [A]', key: 'unown [a]' });
    expect(normalizeCardName('Unown !').value).toEqual({ name: 'Unown [!]', key: 'unown [exclamation]' });
    expect(normalizeCardName('Unown V').value).toEqual({ name: 'Unown V', key: 'unown v' });
  });

  it.each([
    ['charizrd', 'Charizard'],
    ['Pikachuu', 'Pikachu'],
    ['Blastois', 'Blastoise'],
  ])('keeps the unknown %j verbatim, flagged, suggesting %j', (input, suggestion) => {
    const result = normalizeCardName(input);
    expect(result).toMatchObject({ value: { name: input, key: input.toLowerCase() }, recognized: false, confidence: 0.5 });
    expect(result.warnings).toEqual([`unknown card name "${input}" kept as given (did you mean "${suggestion}"?)`]);
  });

  it('keeps an unknown name with nothing close, without a suggestion', () => {
    const result = normalizeCardName('  Zzyzx   Qwerty ');
    expect(result).toMatchObject({ value: { name: 'Zzyzx Qwerty', key: 'zzyzx qwerty' }, recognized: false });
    expect(result.warnings).toEqual(['unknown card name "Zzyzx Qwerty" kept as given']);
    expect(result.changes).toEqual(['trimmed whitespace', 'collapsed whitespace']);
  });

  it('removes invisible characters (zero-width, soft hyphen, byte-order mark) and says so', () => {
    const result = normalizeCardName('\uFEFFChari\u200Bzard\u00AD');
    expect(result).toMatchObject({ value: { name: 'Charizard' }, recognized: true });
    expect(result.changes).toEqual(['removed invisible characters (zero-width or soft hyphen)']);
  });

  it('flags an empty name', () => {
    expect(normalizeCardName('   ')).toMatchObject({ value: { name: '', key: '' }, recognized: false, confidence: 0 });
  });

  it.each([
    '  charizard  ',
    'CHARIZARD EX',
    'charizard ex',
    'm charizard ex',
    'Mewtwo and Mew GX',
    'Gardevoir EX δ',
    'unown a',
    'charizrd',
    '  Zzyzx   Qwerty ',
    'Professor’s Research',
  ])('is idempotent for %j', (input) => {
    const once = normalizeCardName(input);
    const twice = normalizeCardName(once.value.name);
    expect(twice.value).toEqual(once.value);
    expect(twice.recognized).toBe(once.recognized);
  });
});
