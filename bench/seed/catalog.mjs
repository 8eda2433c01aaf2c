// The catalogue the scale generator draws from: libs/catalog/data's cards.csv and sets.csv (RFC 4180
// CSV), each card with a market price from its rarity band, stable across seeds.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { unitOf } from './random.mjs';

export const DEFAULT_DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'libs', 'catalog', 'data');

// ---------------------------------------------------------------------------------------------
// CSV (RFC 4180: quoted fields, "" escapes, CRLF or LF).

export function parseCsv(text) {
  const rows = [];
  let row = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cur);
      cur = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cur);
      rows.push(row);
      row = [];
      cur = '';
    } else cur += ch;
  }
  if (cur !== '' || row.length > 0) {
    row.push(cur);
    rows.push(row);
  }
  const nonEmpty = rows.filter((r) => !(r.length === 1 && r[0] === ''));
  const [header, ...body] = nonEmpty;
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

// ---------------------------------------------------------------------------------------------
// Catalogue.

/** Price band (USD cents, log-uniform) by rarity. */
function rarityBand(rarity) {
  const r = rarity.toLowerCase();
  if (r === 'common') return [10, 150];
  if (r === 'uncommon') return [15, 300];
  if (r === 'rare') return [50, 2_000];
  if (r === 'promo' || r === 'classic collection') return [100, 4_000];
  if (r === 'rare holo') return [800, 25_000];
  if (r.startsWith('rare holo')) return [300, 8_000]; // EX / GX / V / VMAX / VSTAR / LV.X / Star
  if (/secret|rainbow|hyper|special illustration|gold|shining|star|gallery/.test(r)) return [1_500, 60_000];
  if (/ultra|illustration|double|ace|radiant|shiny|prism|break|prime|legend|amazing/.test(r)) return [300, 10_000];
  return [50, 1_000];
}

export function loadCatalog(dataDir = DEFAULT_DATA_DIR) {
  const sets = parseCsv(readFileSync(join(dataDir, 'sets.csv'), 'utf8'));
  const codeCount = new Map();
  for (const s of sets) if (s.ptcgo_code) codeCount.set(s.ptcgo_code, (codeCount.get(s.ptcgo_code) ?? 0) + 1);
  const setById = new Map(
    sets.map((s) => [
      s.set_id,
      {
        setId: s.set_id,
        name: s.name,
        // A code shared by a set and its subset would name either: only unique codes are typed.
        code: s.ptcgo_code && codeCount.get(s.ptcgo_code) === 1 ? s.ptcgo_code : null,
        year: Number(s.release_date.slice(0, 4)),
      },
    ]),
  );
  const cards = [];
  for (const c of parseCsv(readFileSync(join(dataDir, 'cards.csv'), 'utf8'))) {
    const set = setById.get(c.set_id);
    if (!c.name || !set) continue;
    const [lo, hi] = rarityBand(c.rarity);
    const vintage = set.year <= 2003 && /holo|rare/i.test(c.rarity) ? 3 : 1;
    const u = unitOf(c.card_id);
    const market = Math.max(5, Math.round(Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo))) * vintage));
    cards.push({ cardId: c.card_id, name: c.name, number: c.number, rarity: c.rarity, set, marketMinor: market });
  }
  if (cards.length === 0) throw new Error(`no cards found in ${dataDir}`);
  return { cards, sets: [...setById.values()], dataDir };
}
