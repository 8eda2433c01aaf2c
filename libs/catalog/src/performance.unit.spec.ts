// Performance sanity (generous bounds, so only a real regression fails them).
import {
  CATALOGUE_SETS,
  cardKeysOfSet,
  cardNameKey,
  catalogueCardKeys,
  keyOfCatalogueName,
  keysOneEditFrom,
  normalizeCardName,
  resolveCardName,
  similarCardNames,
} from '@app/catalog';
import { readCards } from '@app/testing/support/catalogue-data';

const cards = readCards();

function timeMs(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

describe('performance', () => {
  beforeAll(() => {
    normalizeCardName('warm up the catalogue index');
  });

  it('normalizes all 20,444 catalogue card names in < 2 s', () => {
    const ms = timeMs(() => cards.forEach((card) => normalizeCardName(card.name)));
    expect(ms).toBeLessThan(2000);
  });

  it('finds similar names within a set in < 1 ms on average', () => {
    let searches = 0;
    const ms = timeMs(() => {
      for (const set of CATALOGUE_SETS) {
        for (const key of cardKeysOfSet(set.setId) ?? []) {
          similarCardNames(key, { setKey: set.setId });
          searches++;
        }
      }
    });
    expect(searches).toBeGreaterThan(10_000);
    expect(ms / searches).toBeLessThan(1);
  });

  it('corrects 10,000 typed names against their sets in < 500 ms: index probes, no scan of the catalogue', () => {
    // Each card's name with two letters of its first long word swapped, where that is one edit
    // from only its own name in the whole catalogue (so it is corrected in its set).
    const typed: Array<[string, string]> = [];
    for (let i = 0; typed.length < 10_000; i++) {
      const card = cards[i % cards.length];
      const word = /\p{L}{6,}/u.exec(card.name);
      if (!word) continue;
      const at = word.index + 1 + (i % (word[0].length - 2));
      const text = card.name.slice(0, at) + card.name[at + 1] + card.name[at] + card.name.slice(at + 2);
      if (keyOfCatalogueName(text) !== undefined) continue;
      const neighbours = keysOneEditFrom(cardNameKey(text));
      if (neighbours.length === 1 && neighbours[0] === cardNameKey(card.name)) typed.push([text, card.set_id]);
    }
    const ms = timeMs(() => typed.forEach(([text, setId]) => resolveCardName(text, setId)));
    expect(typed.every(([text, setId]) => resolveCardName(text, setId).recognized)).toBe(true);
    expect(ms).toBeLessThan(500);
  });

  it('finds similar names across the whole catalogue in < 20 ms on average', () => {
    const keys = catalogueCardKeys().filter((_, i) => i % 10 === 0);
    const ms = timeMs(() => keys.forEach((key) => similarCardNames(key)));
    expect(ms / keys.length).toBeLessThan(20);
  });
});
