// Realistic POST bodies for `npm run bench`: random cards of the catalogue with their set's name,
// conditions, prices 1–500 (2 decimals), from a seeded PRNG so every run sends the same sequence.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_DATA_DIR as DATA, parseCsv, prng } from '../seed/generator.mjs';

const readCsv = (path) => parseCsv(readFileSync(path, 'utf8'));

export function loadCatalog() {
  const sets = new Map(readCsv(join(DATA, 'sets.csv')).map((s) => [s.set_id, s.name]));
  const cards = readCsv(join(DATA, 'cards.csv'))
    .filter((c) => c.name && sets.has(c.set_id))
    .map((c) => ({ cardName: c.name, setName: sets.get(c.set_id) }));
  if (cards.length === 0) throw new Error(`no cards found in ${DATA}`);
  return cards;
}

const CONDITIONS = ['Near Mint', 'Lightly Played', 'Moderately Played'];

export function bodyMaker(cards, seed) {
  const rnd = prng(seed);
  return () => {
    const card = cards[Math.floor(rnd() * cards.length)];
    return JSON.stringify({
      cardName: card.cardName,
      setName: card.setName,
      condition: CONDITIONS[Math.floor(rnd() * CONDITIONS.length)],
      maxPrice: (100 + Math.floor(rnd() * 49901)) / 100, // 1.00 … 500.00
    });
  };
}
