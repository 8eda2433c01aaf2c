// Performance by the work done, not by the clock: how many names each lookup compares (edit
// distances computed), so a lookup that starts scanning the catalogue fails here on any machine,
// busy or not. The times these lookups take are measured by `node bench/micro.mjs` (catalogue).
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
  TYPO_SIMILARITY,
} from '@app/catalog';
import { readCards } from '@app/testing/support/catalogue-data';

// Every comparison of two names goes through editDistance (card-catalogue, card-name-neighbours,
// set-name call it through the module): counted here, on the module the catalogue code loads.
const mockComparisons = { count: 0 };
jest.mock('./similarity', () => {
  const actual = jest.requireActual<typeof import('./similarity')>('./similarity');
  return {
    ...actual,
    editDistance: (a: string, b: string, max?: number) => {
      mockComparisons.count += 1;
      return actual.editDistance(a, b, max);
    },
  };
});

const cards = readCards();

/** The comparisons `run` makes. */
function comparisons(run: () => void): number {
  const before = mockComparisons.count;
  run();
  return mockComparisons.count - before;
}

describe('performance: names compared, not milliseconds', () => {
  beforeAll(() => {
    normalizeCardName('warm up the catalogue index');
  });

  it('normalizes all 20,444 catalogue card names by their key alone: no name compared', () => {
    expect(cards.length).toBeGreaterThanOrEqual(20_444);
    let recognized = 0;
    const compared = comparisons(() => cards.forEach((card) => (recognized += normalizeCardName(card.name).recognized ? 1 : 0)));
    expect(recognized).toBe(cards.length);
    expect(compared).toBe(0);
  });

  it('finds similar names within a set by comparing that set\'s names only', () => {
    let searches = 0;
    let setSizes = 0;
    const compared = comparisons(() => {
      for (const set of CATALOGUE_SETS) {
        const keys = cardKeysOfSet(set.setId) ?? [];
        for (const key of keys) {
          similarCardNames(key, { setKey: set.setId });
          searches++;
          setSizes += keys.length - 1;
        }
      }
    });
    expect(searches).toBeGreaterThan(10_000);
    expect(compared).toBeGreaterThan(0);
    expect(compared).toBeLessThanOrEqual(setSizes);
  });

  it('corrects 10,000 typed names against their sets by index probes: a few names compared each, no scan of the catalogue', () => {
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
    let recognized = 0;
    const compared = comparisons(() => typed.forEach(([text, setId]) => (recognized += resolveCardName(text, setId).recognized ? 1 : 0)));
    expect(recognized).toBe(typed.length);
    // The keys the deletion index finds are checked (a handful); a scan would compare thousands.
    expect(compared / typed.length).toBeLessThan(5);
  });

  it('finds similar names across the whole catalogue by comparing only names of a length that can be that close', () => {
    const all = catalogueCardKeys();
    const keys = all.filter((_, i) => i % 10 === 0);
    const lengths = new Map<number, number>();
    for (const key of all) lengths.set(key.length, (lengths.get(key.length) ?? 0) + 1);
    // The names within the length window of each key (`similarCardNames`' default threshold).
    let window = 0;
    for (const key of keys) {
      const shortest = Math.ceil(key.length * TYPO_SIMILARITY - 1e-9);
      const longest = Math.floor(key.length / TYPO_SIMILARITY + 1e-9);
      for (const [length, count] of lengths) if (length >= shortest && length <= longest) window += count;
    }
    const compared = comparisons(() => keys.forEach((key) => similarCardNames(key)));
    expect(compared).toBeGreaterThan(0);
    expect(compared).toBeLessThanOrEqual(window);
    expect(window).toBeLessThan(keys.length * all.length);
  });
});
