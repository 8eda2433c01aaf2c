// Real-data checks against libs/catalog/data: every catalogue card name and set normalizes to itself,
// idempotently, and the bundled generated data is in sync with the CSVs.
import {
  CATALOGUE_SETS,
  cardNameKey,
  catalogueCardKeys,
  catalogueSpellingsOfKey,
  nameSimilarity,
  normalizeCardName,
  normalizeSetName,
} from '@app/catalog';
import { readCards, readSets } from '@app/testing/support/catalogue-data';

import { CARD_NAMES } from './data/card-names.generated';
import { SET_CARD_NAMES } from './data/set-card-names.generated';

const cards = readCards();
const sets = readSets();
const names = [...new Set(cards.map((c) => c.name))];

describe('the real catalogue data', () => {
  it('is where the tests expect it', () => {
    expect(cards).toHaveLength(20_444);
    expect(sets).toHaveLength(174);
    expect(cards[3]).toEqual({ card_id: 'base1-4', name: 'Charizard', set_id: 'base1', number: '4', rarity: 'Rare Holo', supertype: 'Pokémon' });
  });

  it('matches the generated data bundled with the library (rerun scripts/build-catalog.mjs if not)', () => {
    expect(CARD_NAMES).toEqual(names);
    expect(CATALOGUE_SETS).toEqual(
      sets.map((s) => ({
        setId: s.set_id,
        name: s.name,
        series: s.series,
        code: s.ptcgo_code || null,
        releaseDate: s.release_date,
        printedTotal: Number(s.printed_total),
      })),
    );
    const membership = Object.fromEntries(sets.map((s) => [s.set_id, new Set<number>()]));
    for (const card of cards) membership[card.set_id].add(names.indexOf(card.name));
    expect(SET_CARD_NAMES).toEqual(Object.fromEntries(Object.entries(membership).map(([id, m]) => [id, [...m].sort((a, b) => a - b)])));
  });
});

describe('every catalogue card name', () => {
  it('normalizes to itself, recognized with confidence 1, for all 20,444 cards', () => {
    const failures = cards
      .map((card) => ({ card, result: normalizeCardName(card.name) }))
      .filter(({ card, result }) => result.value.name !== card.name || !result.recognized || result.confidence !== 1 || result.warnings.length > 0)
      .map(({ card, result }) => `${card.card_id} ${card.name} → ${JSON.stringify(result.value)} ${result.confidence}`);
    expect(failures).toEqual([]);
  });

  it('is idempotent', () => {
    const failures = names.filter((name) => {
      const once = normalizeCardName(name);
      const twice = normalizeCardName(once.value.name);
      return twice.value.name !== once.value.name || twice.value.key !== once.value.key;
    });
    expect(failures).toEqual([]);
  });

  it('has a key that normalizes back to the same key (keys are safe to re-normalize)', () => {
    const failures = catalogueCardKeys().filter((key) => normalizeCardName(key).value.key !== key);
    expect(failures).toEqual([]);
  });

  it('shares its key with another spelling only for the true variant Ho-Oh / Ho-oh', () => {
    const byKey = new Map<string, string[]>();
    for (const name of names) byKey.set(cardNameKey(name), [...(byKey.get(cardNameKey(name)) ?? []), name]);
    const collisions = [...byKey.values()].filter((spellings) => spellings.length > 1);
    expect(collisions).toEqual([['Ho-oh', 'Ho-Oh']]);
    // The more common spelling is the one shown for the key.
    expect(catalogueSpellingsOfKey('ho oh')).toEqual(['Ho-Oh', 'Ho-oh']);
    expect(normalizeCardName('HO-OH').value.name).toBe('Ho-Oh');
  });

  it('keeps ex and EX apart wherever the catalogue has both', () => {
    const keys = new Set(names.map(cardNameKey));
    const exNames = names.filter((n) => / ex( |$)/.test(n));
    const pairs = exNames
      .map((n) => [n, n.replace(/ ex( |$)/, '-EX$1')] as const)
      .filter(([, upper]) => names.includes(upper));
    expect(pairs.length).toBeGreaterThan(10);
    expect(pairs).toEqual(expect.arrayContaining([['Charizard ex', 'Charizard-EX']]));
    for (const [lower, upper] of pairs) {
      expect(cardNameKey(lower)).not.toBe(cardNameKey(upper));
      expect(nameSimilarity(cardNameKey(lower), cardNameKey(upper))).toBeLessThan(0.85);
      expect(normalizeCardName(lower).value.name).toBe(lower);
      expect(normalizeCardName(upper).value.name).toBe(upper);
    }
    expect(keys.has('m charizard EX')).toBe(true);
    expect(normalizeCardName('M Charizard-EX').value.key).not.toBe(normalizeCardName('Mega Charizard X ex').value.key);
  });
});

describe('every catalogue set', () => {
  it.each(sets.map((s) => [s.name, s.set_id]))('%j resolves to %s exactly, idempotently', (name, setId) => {
    const once = normalizeSetName(name);
    expect(once).toMatchObject({ recognized: true, confidence: 1, changes: [], warnings: [] });
    expect(once.value.setId).toBe(setId);
    expect(normalizeSetName(once.value.name).value).toEqual(once.value);
  });

  it('resolves by set id, and by code unless the code is shared', () => {
    const codeCount = new Map<string, number>();
    for (const s of sets) codeCount.set(s.ptcgo_code, (codeCount.get(s.ptcgo_code) ?? 0) + 1);
    for (const s of sets) {
      expect(normalizeSetName(s.set_id).value.setId).toBe(s.set_id);
      if (s.ptcgo_code && codeCount.get(s.ptcgo_code) === 1) expect(normalizeSetName(s.ptcgo_code).value.setId).toBe(s.set_id);
    }
  });

  it('has unique names, and exactly these codes shared by a set and its subset', () => {
    expect(new Set(sets.map((s) => s.name.toLowerCase())).size).toBe(sets.length);
    const shared = [...new Set(sets.map((s) => s.ptcgo_code))].filter((code) => code && sets.filter((s) => s.ptcgo_code === code).length > 1);
    expect(shared).toEqual(['HIF', 'SHF', 'CEL', 'BRS', 'ASR', 'LOR', 'SIT', 'CRZ']);
    for (const code of shared) {
      const result = normalizeSetName(code);
      expect(result.confidence).toBeLessThan(0.95);
      expect(result.warnings).toHaveLength(1);
    }
  });
});
