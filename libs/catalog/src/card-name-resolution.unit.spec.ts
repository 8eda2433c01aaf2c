import {
  cardNameKey,
  CONFIDENCE_LETTER_CORRECTED,
  CONFIDENCE_SPACING_CORRECTED,
  keysOneEditFrom,
  keysWithLettersOf,
  normalizeCardName,
  normalizeListing,
  resolveCardName,
} from '@app/catalog';

describe('resolveCardName', () => {
  it.each([
    ['Chairzard', 'base1', 'Charizard'],
    ['Charizrd', 'base1', 'Charizard'],
    ['Fabébé', 'xy2', 'Flabébé'],
    ['Fabebe', 'xy2', 'Flabébé'],
    ["Professro's Research", 'swsh9', "Professor's Research"],
    ['professors reserch', 'swsh9', "Professor's Research"],
    ['Blastois', 'base1', 'Blastoise'],
    ['Proygon2', 'neo3', 'Porygon2'],
  ])('corrects %j in %s to %j, one letter off', (typed, setId, name) => {
    const result = resolveCardName(typed, setId);
    expect(result).toMatchObject({ value: { name, key: cardNameKey(name) }, recognized: true, warnings: [], confidence: CONFIDENCE_LETTER_CORRECTED });
    expect(result.changes).toContain(`corrected "${typed}" to "${name}" (one letter off)`);
  });

  it.each([
    ['ZekromGX', 'smp', 'Zekrom-GX'],
    ['EeveeV', 'swsh12pt5', 'Eevee V'],
    ['RadiantVenusaur', 'pgo', 'Radiant Venusaur'],
    ['PorygonZ', 'dp4', 'Porygon-Z'],
    ["Misty'sDuel", 'gym1', "Misty's Duel"],
    ['CaféMaster', 'swsh9', 'Café Master'],
    ['Chari zard', 'base1', 'Charizard'],
    ['MewtwoEX', 'bw4', 'Mewtwo-EX'],
    ['mewtwoex', 'sv4', 'Mewtwo ex'],
  ])('corrects %j in %s to %j, a missing or extra separator', (typed, setId, name) => {
    const result = resolveCardName(typed, setId);
    expect(result).toMatchObject({ value: { name, key: cardNameKey(name) }, recognized: true, warnings: [], confidence: CONFIDENCE_SPACING_CORRECTED });
    expect(result.changes).toContain(`corrected "${typed}" to "${name}" (spacing)`);
  });

  it.each([
    ['Hisiuan Zoroark', 'swsh11', 'Hisuian Zoroark'],
    ['Hisuian Zoroark VSTRA', 'swsh11', 'Hisuian Zoroark VSTAR'],
    ['Alolna Vulpix', 'sm2', 'Alolan Vulpix'],
    ['Galarain Zapdos V', 'swsh6', 'Galarian Zapdos V'],
    ['Drak Charizard', 'base5', 'Dark Charizard'],
    ['Radaint Venusaur', 'pgo', 'Radiant Venusaur'],
    ['Pikachu VMAZ', 'swsh4', 'Pikachu VMAX'],
  ])('recognises the misspelt identity word in %j (%s) as %j', (typed, setId, name) => {
    expect(resolveCardName(typed, setId)).toMatchObject({ value: { name }, recognized: true, confidence: CONFIDENCE_LETTER_CORRECTED });
  });

  it('corrects nothing when two names of the set are as close, and says which', () => {
    const result = resolveCardName('Nidorine', 'hgss4');
    expect(result).toMatchObject({ value: { name: 'Nidorine', key: 'nidorine' }, recognized: false, confidence: 0.5 });
    expect(result.warnings).toEqual(['unknown card name "Nidorine" kept as given: "Nidorina" and "Nidorino" are both one letter off, so it was not corrected']);
    expect(result.changes).toEqual([]);
  });

  it('prefers the set: where only one of two close names is printed, that one is meant', () => {
    expect(resolveCardName('Nidorine', 'base2').value.name).toBe('Nidorina');
    expect(resolveCardName('Nidorine', 'base1').value.name).toBe('Nidorino');
  });

  it('counts every name of the set one edit away, even one it would not correct to', () => {
    // Porygon (drop the o) and Porygon2 (its digit): two cards, so neither.
    expect(resolveCardName('Porygono', 'dp4')).toMatchObject({ recognized: false, value: { name: 'Porygono' } });
  });

  it('never turns a catalogue name into another card', () => {
    expect(resolveCardName('Nidorino', 'base2')).toMatchObject({ value: { name: 'Nidorino' }, recognized: true, confidence: 1 });
    expect(resolveCardName('Dark Charizard', 'base4')).toMatchObject({ value: { name: 'Dark Charizard' }, recognized: true, confidence: 1 });
    expect(resolveCardName('Mewtwo ex', 'bw4').value).toEqual({ name: 'Mewtwo ex', key: 'mewtwo ex' });
  });

  it.each([
    ['Onxi', 'base1', 'a four-letter name'],
    ['Natv', 'neo1', 'a four-letter name'],
    ['Mwe', 'base5', 'a three-letter name'],
    ['Eevee X', 'swsh12pt5', 'a one-letter mechanic'],
    ['Unown [AA]', 'neo2', 'a bracketed variant'],
    ['Blaine’s Quiz #4', 'gym1', 'a number'],
    ['Chairzard', 'base2', 'a name the set does not print'],
  ])('leaves %j (%s) as given: %s', (typed, setId) => {
    const result = resolveCardName(typed, setId);
    expect(result.recognized).toBe(false);
    expect(result.changes.some((c) => c.startsWith('corrected'))).toBe(false);
  });

  it('corrects nothing without a recognised set, keeping the did-you-mean', () => {
    for (const setId of [null, undefined, '']) {
      expect(resolveCardName('Chairzard', setId)).toEqual(normalizeCardName('Chairzard'));
    }
    expect(normalizeCardName('Chairzard').warnings).toEqual(['unknown card name "Chairzard" kept as given (did you mean "Charizard"?)']);
  });

  it('keeps the cleaning changes before the correction', () => {
    const result = resolveCardName('  Chairzard ', 'base1');
    expect(result.changes).toEqual(['trimmed whitespace', 'corrected "Chairzard" to "Charizard" (one letter off)']);
    expect(result.input).toBe('  Chairzard ');
  });

  it('is idempotent: the corrected name resolves to itself, exactly', () => {
    for (const [typed, setId] of [['Chairzard', 'base1'], ['ZekromGX', 'smp'], ['Hisiuan Zoroark', 'swsh11']]) {
      const once = resolveCardName(typed, setId);
      expect(resolveCardName(once.value.name, setId)).toMatchObject({ value: once.value, confidence: 1, changes: [] });
    }
  });
});

describe('the neighbour index', () => {
  it('finds the catalogue keys one edit away, and only those', () => {
    expect(keysOneEditFrom('nidorine').sort()).toEqual(['nidorina', 'nidorino']);
    expect(keysOneEditFrom('chairzard')).toEqual(['charizard']);
    expect(keysOneEditFrom('charizard')).not.toContain('charizard');
    expect(keysOneEditFrom('zzyzx qwerty')).toEqual([]);
  });

  it('finds the keys spelled with the same letters', () => {
    expect(keysWithLettersOf('zekromgx')).toEqual(['zekrom gx']);
    expect(keysWithLettersOf('mewtwoex').sort()).toEqual(['mewtwo EX', 'mewtwo ex']);
  });
});

describe('normalizeListing resolves the name against the set it names', () => {
  it('matches a typo as the card it is', () => {
    const typed = normalizeListing({ cardName: 'Chairzard', setName: 'Base Set', condition: 'NM' });
    const exact = normalizeListing({ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' });
    expect(typed.match).toEqual(exact.match);
    expect(typed.cardName.changes).toEqual(['corrected "Chairzard" to "Charizard" (one letter off)']);
  });
});
