// Text cleaning shared by every normalizer. Cleaning only fixes typing noise (spacing, curly
// quotes, dash variants); it never changes letters, so the cleaned text is safe to show back.

const APOSTROPHES = /[\u2018\u2019\u201A\u201B\u2032\u02BC\u0060\u00B4]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/g;
// Hyphen, non-breaking hyphen, figure dash, en dash, minus. The em dash (U+2014) is kept: the
// catalogue spells `HS—Unleashed` with one, and folding turns it into a space anyway.
const DASHES = /[\u2010\u2011\u2012\u2013\u2212\uFE63\uFF0D]/g;
// Zero-width space, non-joiner, joiner, word joiner, byte-order mark, soft hyphen: invisible, so a
// name typed or pasted with one looks right and matches nothing. Removed (and reported) before the
// spacing is collapsed (JavaScript's \s counts U+FEFF as a space).
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
const SPACES = /[\s\u00A0\u2000-\u200A\u202F\u205F\u3000]+/g;

export interface CleanedText {
  text: string;
  changes: string[];
}

/**
 * Trims, collapses whitespace, removes invisible characters and unifies apostrophes, quotes and
 * dashes; reports what changed.
 */
export function cleanText(input: string): CleanedText {
  const changes: string[] = [];
  let text = input.normalize('NFC');
  const quoted = text.replace(APOSTROPHES, "'").replace(DOUBLE_QUOTES, '"');
  if (quoted !== text) changes.push('unified apostrophes and quotes');
  const dashed = quoted.replace(DASHES, '-');
  if (dashed !== quoted) changes.push('unified dashes');
  const visible = dashed.replace(ZERO_WIDTH, '');
  if (visible !== dashed) changes.push('removed invisible characters (zero-width or soft hyphen)');
  const trimmed = visible.trim();
  if (trimmed !== visible) changes.push('trimmed whitespace');
  text = trimmed.replace(SPACES, ' ');
  if (text !== trimmed) changes.push('collapsed whitespace');
  return { text, changes };
}

/** NFKD, then drops combining marks: `Pokémon` → `Pokemon`, full-width letters → ASCII. */
export function foldAccents(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

/**
 * A loose comparison form for sets and conditions: accents folded, lower case, `&` → `and`,
 * apostrophes dropped, any other punctuation or spacing → one space.
 */
export function foldLoose(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['\u2019]/g, '')
    .replace(/[^\p{L}\p{N}+]+/gu, ' ')
    .trim();
}

/** `1 step`, `2 steps`, `0.5 grade`: English plural for a count and a unit. */
export function plural(count: number, unit: string): string {
  return `${count} ${unit}${Math.abs(count) === 1 ? '' : 's'}`;
}
