// The card data the demo is made from (libs/catalog/data), found from this file up (a clone: the
// project root; the Docker image: dist/, where its build — swc --copy-files without the npm
// script's --ignore — copies it); a card's base price, from its id alone; and the randomness the
// plan draws from: mulberry32 (./random) and FNV-1a (a card's base price depends on its id only,
// not on the seed).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { parseCsv } from '@app/catalog';
import { ApiError } from '@app/platform';

import { mulberry32 } from './random';

export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function shuffled<T>(list: readonly T[], rnd: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export const between = (rnd: () => number, lo: number, hi: number) => lo + rnd() * (hi - lo);

export interface CatalogueCard {
  cardId: string;
  name: string;
  setId: string;
  number: string;
  rarity: string;
  supertype: string;
}

export interface CatalogueSetRow {
  setId: string;
  name: string;
}

export interface Catalogue {
  dir: string;
  cards: CatalogueCard[];
  sets: CatalogueSetRow[];
}

export function findCatalogueDir(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'libs', 'catalog', 'data');
    if (existsSync(join(candidate, 'cards.csv')) && existsSync(join(candidate, 'sets.csv'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new ApiError(500, 'CATALOGUE_NOT_FOUND', `The card data (libs/catalog/data/cards.csv, sets.csv) was not found above ${from}: run the CLI from a clone of the project`);
}

export function loadCatalogue(dir: string = findCatalogueDir()): Catalogue {
  const read = (file: string) => parseCsv(readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, ''));
  return {
    dir,
    cards: read('cards.csv').map((r) => ({ cardId: r.card_id, name: r.name, setId: r.set_id, number: r.number, rarity: r.rarity, supertype: r.supertype })),
    sets: read('sets.csv').map((r) => ({ setId: r.set_id, name: r.name })),
  };
}

/** A card's base price (cents), log-uniform in its rarity's band, from its id alone. */
export function basePriceMinor(card: Pick<CatalogueCard, 'cardId' | 'rarity'>): number {
  const r = card.rarity.toLowerCase();
  const [lo, hi] =
    r === 'rare'
      ? [200, 2_500]
      : r === 'rare holo'
        ? [1_500, 30_000]
        : r.startsWith('rare holo ')
          ? [800, 12_000]
          : /secret|rainbow|hyper|special illustration|gold|shining|star|shiny|ultra|illustration|prime|legend|break|radiant|amazing|ace/.test(r)
            ? [1_500, 40_000]
            : [300, 5_000];
  const u = mulberry32(hash32(card.cardId))();
  return Math.round(lo * (hi / lo) ** u);
}
