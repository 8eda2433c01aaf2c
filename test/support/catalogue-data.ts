// Test support, not a test: reads the real catalogue CSVs the project keeps in libs/catalog/data
// (see its README.md). Under test/, so the swc build (apps, libs) never puts it into dist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** test/support → project root → libs/catalog/data. */
export const CATALOGUE_DATA_DIR = join(__dirname, '../../libs/catalog/data');

/** RFC 4180: quoted fields, doubled quotes, separators and line breaks inside quotes. */
export function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      rows.push([...row, field]);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== '');
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

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
