// Test support, not a test: reads the real catalogue CSVs the project keeps in libs/catalog/data
// (see its README.md). Under test/, so the swc build (apps, libs) never puts it into dist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseCsv } from '@app/catalog';

/** RFC 4180 rows keyed by the header: the catalogue's own reader. */
export { parseCsv };

/** test/support → project root → libs/catalog/data. */
export const CATALOGUE_DATA_DIR = join(__dirname, '../../libs/catalog/data');


export interface CardRow {
  card_id: string;
  name: string;
  set_id: string;
  number: string;
  rarity: string;
  supertype: string;
}

export interface SetRow {
  set_id: string;
  name: string;
  series: string;
  ptcgo_code: string;
  release_date: string;
  printed_total: string;
}

function read(file: string): Array<Record<string, string>> {
  return parseCsv(readFileSync(join(CATALOGUE_DATA_DIR, file), 'utf8').replace(/^\uFEFF/, ''));
}

export function readCards(): CardRow[] {
  return read('cards.csv').map((r) => ({
    card_id: r.card_id,
    name: r.name,
    set_id: r.set_id,
    number: r.number,
    rarity: r.rarity,
    supertype: r.supertype,
  }));
}

export function readSets(): SetRow[] {
  return read('sets.csv').map((r) => ({
    set_id: r.set_id,
    name: r.name,
    series: r.series,
    ptcgo_code: r.ptcgo_code,
    release_date: r.release_date,
    printed_total: r.printed_total,
  }));
}
