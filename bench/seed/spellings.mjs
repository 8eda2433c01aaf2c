// How the scale generator writes a card down: conditions (raw and graded, in several spellings, with
// their price factors), set and card names as sellers type them, and prices.
import { pick, weighted } from './random.mjs';

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

export function inventoryCondition(rnd) {
  const c = weighted(rnd, INVENTORY_CONDITIONS);
  if (c.kind === 'raw') return { text: pick(rnd, RAW_SPELLINGS[c.code]), factor: RAW_FACTOR[c.code], graded: false };
  const company = weighted(rnd, [[60, 'PSA'], [25, 'BGS'], [15, 'CGC']]);
  const grade =
    company === 'PSA'
      ? weighted(rnd, [[25, 8], [45, 9], [30, 10]])
      : weighted(rnd, [[20, 8], [35, 9], [35, 9.5], [10, 10]]);
  return { text: gradedSpelling(rnd, company, grade), factor: GRADE_FACTOR(grade), graded: true };
}

export function requestCondition(rnd) {
  const c = weighted(rnd, REQUEST_CONDITIONS);
  if (c.kind === 'raw') return { text: pick(rnd, RAW_SPELLINGS[c.code]), factor: RAW_FACTOR[c.code], graded: false };
  return { text: gradedSpelling(rnd, c.company, c.grade), factor: GRADE_FACTOR(c.grade), graded: true };
}

// ---------------------------------------------------------------------------------------------
// Names.

export function setSpelling(rnd, set) {
  const x = rnd();
  if (x < 0.65) return set.name;
  if (x < 0.8 && set.code) return set.code;
  if (x < 0.9) return set.name.endsWith(' Set') ? set.name.slice(0, -4) : `${set.name} Set`;
  return set.name.toLowerCase();
}

export function cardSpelling(rnd, card) {
  const x = rnd();
  if (x < 0.1) return card.name.toLowerCase();
  if (x < 0.13) return ` ${card.name.replace(' ', '  ')} `;
  return card.name;
}

// ---------------------------------------------------------------------------------------------
// Prices.

export const toMajor = (minor) => Math.round(minor) / 100;

export function priced(rnd, card, factor, lo, hi) {
  const noise = lo + rnd() * (hi - lo);
  let minor = Math.max(5, Math.round(card.marketMinor * factor * noise));
  // Sellers like prices ending in .99 / .49 above a dollar.
  if (minor > 100 && rnd() < 0.4) minor = Math.floor(minor / 100) * 100 + (rnd() < 0.5 ? 49 : 99);
  return minor;
}
