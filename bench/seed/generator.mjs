// Deterministic generator of realistic trading-card supply and demand for the scale benchmark,
// built on the real catalogue data in libs/catalog/data (cards.csv, sets.csv). Pure: no app code,
// no I/O beyond reading the two CSV files. Same seed → same rows, on every machine.
//
//   import { loadCatalog, createGenerator } from './seed/generator.mjs';
//   const gen = createGenerator(loadCatalog(), { seed: 1 });
//   gen.inventoryItem();  // { cardName, setName, condition, price, currency, quantity, sku, cardNumber, notes }
//   gen.buyerRequest();   // { cardName, setName, condition, maxPrice, currency, source }
//   gen.intakeRow();      // a raw intake row (JSON object as a seller's export has it), ~1 % with errors
//
// The model (the same for inventory, requests and intake rows, so requests hit stock):
// - card: uniform over the 20,444 cards of cards.csv whose set is in sets.csv (BENCH-SKEW: optional
//   popularity skew, see `cardPicker`);
// - set typed as its name (65 %), its ptcgo code where the code is unique to the set (15 %),
//   "<name> Set" / the name without " Set" (10 %) or the name lower-cased (10 %);
// - card name as printed, lower-cased 10 % of the time, with stray spaces 3 %;
// - condition (inventory): NM 45 %, LP 20 %, MP 10 %, M 5 %, HP 5 %, DMG 2 %, graded 13 %
//   (PSA / BGS / CGC, grades 8-10), each in several spellings ("NM", "Near Mint", "nm-m",
//   "Excellent", "PSA 10", "bgs 9.5", "Beckett 9.5"…);
// - price: a per-card market price drawn once from the card's rarity band (commons cents to a
//   dollar or two, holo rares tens to hundreds of dollars, vintage holos more), times a factor for
//   the condition, times ±30 % noise; USD 97 %, EUR 3 % (× 0.92);
// - quantity 1-4 (1: 60 %, 2: 20 %, 3: 10 %, 4: 10 %);
// - buyer requests: a lowest acceptable condition (NM 38 %, LP 30 %, MP 14 %, HP 4 %, M 2 %,
//   graded 12 %) and a maximum price of market × the condition's factor × 0.7-1.4, so that about
//   half of the stock at or above the requested condition is affordable.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
// PRNG: mulberry32 (small, fast, good enough for test data), and a string hash for per-card facts.

export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, 32 bits: a stable number per string (a card's market price must not depend on the seed). */
function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const unitOf = (text) => prng(hash32(text))();

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

// ---------------------------------------------------------------------------------------------
// Conditions.

const RAW_SPELLINGS = {
  M: ['M', 'Mint', 'MT', 'mint'],
  NM: ['NM', 'Near Mint', 'nm-m', 'NM/M', 'near mint', 'NM-MT', 'NM'],
  LP: ['LP', 'Lightly Played', 'Excellent', 'EX', 'lp', 'SP'],
  MP: ['MP', 'Moderately Played', 'Played', 'mp'],
  HP: ['HP', 'Heavily Played', 'hp'],
  DMG: ['DMG', 'Damaged', 'Poor'],
};

/** Price factor of a condition against Near Mint. */
const RAW_FACTOR = { M: 1.15, NM: 1, LP: 0.8, MP: 0.6, HP: 0.4, DMG: 0.25 };
const GRADE_FACTOR = (grade) => (grade >= 10 ? 5 : grade >= 9.5 ? 3 : grade >= 9 ? 2 : 1.3);

/** Weighted pick: `table` = [[weight, value], …]. */
function weighted(rnd, table) {
  const total = table.reduce((s, [w]) => s + w, 0);
  let x = rnd() * total;
  for (const [w, v] of table) {
    x -= w;
    if (x < 0) return v;
  }
  return table[table.length - 1][1];
}

const pick = (rnd, list) => list[Math.floor(rnd() * list.length)];

const INVENTORY_CONDITIONS = [
  [45, { kind: 'raw', code: 'NM' }],
  [20, { kind: 'raw', code: 'LP' }],
  [10, { kind: 'raw', code: 'MP' }],
  [5, { kind: 'raw', code: 'M' }],
  [5, { kind: 'raw', code: 'HP' }],
  [2, { kind: 'raw', code: 'DMG' }],
  [13, { kind: 'graded' }],
];

const REQUEST_CONDITIONS = [
  [38, { kind: 'raw', code: 'NM' }],
  [30, { kind: 'raw', code: 'LP' }],
  [14, { kind: 'raw', code: 'MP' }],
  [4, { kind: 'raw', code: 'HP' }],
  [2, { kind: 'raw', code: 'M' }],
  [3, { kind: 'graded', company: 'PSA', grade: 10 }],
  [4, { kind: 'graded', company: 'PSA', grade: 9 }],
  [2, { kind: 'graded', company: 'BGS', grade: 9.5 }],
  [1.5, { kind: 'graded', company: 'CGC', grade: 9 }],
  [1.5, { kind: 'graded', company: 'PSA', grade: 8 }],
];

function gradedSpelling(rnd, company, grade) {
  const g = String(grade);
  if (company === 'PSA') return pick(rnd, [`PSA ${g}`, `psa ${g}`, `PSA${g}`, `PSA-${g}`, grade === 10 ? 'PSA Gem Mint 10' : `PSA ${g}`]);
  if (company === 'BGS') return pick(rnd, [`BGS ${g}`, `bgs ${g}`, `Beckett ${g}`, `BGS-${g}`]);
  return pick(rnd, [`CGC ${g}`, `cgc ${g}`, `CGC-${g}`]);
}

function inventoryCondition(rnd) {
  const c = weighted(rnd, INVENTORY_CONDITIONS);
  if (c.kind === 'raw') return { text: pick(rnd, RAW_SPELLINGS[c.code]), factor: RAW_FACTOR[c.code], graded: false };
  const company = weighted(rnd, [[60, 'PSA'], [25, 'BGS'], [15, 'CGC']]);
  const grade =
    company === 'PSA'
      ? weighted(rnd, [[25, 8], [45, 9], [30, 10]])
      : weighted(rnd, [[20, 8], [35, 9], [35, 9.5], [10, 10]]);
  return { text: gradedSpelling(rnd, company, grade), factor: GRADE_FACTOR(grade), graded: true };
}

function requestCondition(rnd) {
  const c = weighted(rnd, REQUEST_CONDITIONS);
  if (c.kind === 'raw') return { text: pick(rnd, RAW_SPELLINGS[c.code]), factor: RAW_FACTOR[c.code], graded: false };
  return { text: gradedSpelling(rnd, c.company, c.grade), factor: GRADE_FACTOR(c.grade), graded: true };
}

// ---------------------------------------------------------------------------------------------
// Names.

function setSpelling(rnd, set) {
  const x = rnd();
  if (x < 0.65) return set.name;
  if (x < 0.8 && set.code) return set.code;
  if (x < 0.9) return set.name.endsWith(' Set') ? set.name.slice(0, -4) : `${set.name} Set`;
  return set.name.toLowerCase();
}

function cardSpelling(rnd, card) {
  const x = rnd();
  if (x < 0.1) return card.name.toLowerCase();
  if (x < 0.13) return ` ${card.name.replace(' ', '  ')} `;
  return card.name;
}

// ---------------------------------------------------------------------------------------------
// Prices.

const toMajor = (minor) => Math.round(minor) / 100;

function priced(rnd, card, factor, lo, hi) {
  const noise = lo + rnd() * (hi - lo);
  let minor = Math.max(5, Math.round(card.marketMinor * factor * noise));
  // Sellers like prices ending in .99 / .49 above a dollar.
  if (minor > 100 && rnd() < 0.4) minor = Math.floor(minor / 100) * 100 + (rnd() < 0.5 ? 49 : 99);
  return minor;
}

// ---------------------------------------------------------------------------------------------

/**
 * Card picker. `skew` = 0: uniform over the catalogue (default). `skew` > 0: a Zipf-like
 * popularity (weight 1 / rank^skew over a seed-independent shuffle of the catalogue), for
 * sensitivity runs where demand and stock crowd on popular cards.
 */
function cardPicker(cards, rnd, skew) {
  if (!skew) return () => cards[Math.floor(rnd() * cards.length)];
  const order = [...cards].sort((a, b) => hash32(a.cardId) - hash32(b.cardId));
  const cumulative = new Float64Array(order.length);
  let total = 0;
  for (let i = 0; i < order.length; i += 1) {
    total += 1 / (i + 1) ** skew;
    cumulative[i] = total;
  }
  return () => {
    const x = rnd() * total;
    let lo = 0;
    let hi = order.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo];
  };
}

export function createGenerator(catalog, { seed = 1, skew = 0 } = {}) {
  const rnd = prng(seed);
  const nextCard = cardPicker(catalog.cards, rnd, skew);

  function inventoryItem() {
    const card = nextCard();
    const condition = inventoryCondition(rnd);
    const eur = rnd() < 0.03;
    const minor = priced(rnd, card, condition.factor * (eur ? 0.92 : 1), 0.8, 1.3);
    const quantity = weighted(rnd, [[60, 1], [20, 2], [10, 3], [10, 4]]);
    const x = rnd();
    return {
      cardName: cardSpelling(rnd, card),
      setName: setSpelling(rnd, card.set),
      condition: condition.text,
      price: toMajor(minor),
      currency: eur ? 'EUR' : 'USD',
      quantity,
      sku: x < 0.5 ? `${card.set.setId.toUpperCase()}-${card.number}-${condition.text.replace(/\W+/g, '').toUpperCase()}` : null,
      cardNumber: x < 0.7 ? card.number : null,
      notes: rnd() < 0.02 ? pick(rnd, ['1st edition', 'shadowless', 'light whitening on back', 'off-center']) : null,
      // For analysis only (not sent): the card it is.
      _cardId: card.cardId,
    };
  }

  function buyerRequest() {
    const card = nextCard();
    const condition = requestCondition(rnd);
    const eur = rnd() < 0.03;
    const minor = priced(rnd, card, condition.factor * (eur ? 0.92 : 1), 0.7, 1.4);
    return {
      cardName: cardSpelling(rnd, card),
      setName: setSpelling(rnd, card.set),
      condition: condition.text,
      maxPrice: toMajor(minor),
      currency: eur ? 'EUR' : 'USD',
      source: pick(rnd, ['bench', 'storefront', 'discord', 'email']),
      _cardId: card.cardId,
    };
  }

  /**
   * A raw intake row as a seller's spreadsheet export gives it. About `errorRate` of the rows
   * carry an error the intake must refuse (no price, an unparsable price, quantity 0, no condition).
   */
  function intakeRow(errorRate = 0.01) {
    const item = inventoryItem();
    const row = {
      cardName: item.cardName,
      setName: item.setName,
      condition: item.condition,
      price:
        item.currency === 'EUR'
          ? pick(rnd, [`${item.price.toFixed(2).replace('.', ',')} €`, `€${item.price.toFixed(2)}`])
          : pick(rnd, [item.price.toFixed(2), `$${item.price.toFixed(2)}`, item.price]),
      currency: item.currency === 'EUR' ? 'EUR' : rnd() < 0.5 ? 'USD' : undefined,
      quantity: rnd() < 0.2 ? String(item.quantity) : item.quantity,
      sku: item.sku ?? undefined,
      cardNumber: item.cardNumber ?? undefined,
      notes: item.notes ?? undefined,
    };
    let error = null;
    if (rnd() < errorRate) {
      error = weighted(rnd, [[60, 'missing price'], [15, 'unparsable price'], [15, 'quantity 0'], [10, 'missing condition']]);
      if (error === 'missing price') delete row.price;
      else if (error === 'unparsable price') row.price = 'call';
      else if (error === 'quantity 0') row.quantity = 0;
      else delete row.condition;
    }
    for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
    return { row, error, cardId: item._cardId };
  }

  return { inventoryItem, buyerRequest, intakeRow, random: rnd };
}

/** The body of `POST /api/v1/buyer-requests` for a generated request (the analysis field dropped). */
export function requestBody(request) {
  const { _cardId, ...body } = request;
  return body;
}
