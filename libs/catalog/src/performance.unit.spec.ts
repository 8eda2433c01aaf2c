// Performance sanity (generous bounds, so only a real regression fails them).
import { CATALOGUE_SETS, cardKeysOfSet, catalogueCardKeys, normalizeCardName, similarCardNames } from '@app/catalog';
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

  it('finds similar names across the whole catalogue in < 20 ms on average', () => {
    const keys = catalogueCardKeys().filter((_, i) => i % 10 === 0);
    const ms = timeMs(() => keys.forEach((key) => similarCardNames(key)));
    expect(ms / keys.length).toBeLessThan(20);
  });
});
