// The matching identity of a card name. Keys are lower case, accent-folded word tokens joined by
// one space, with one exception: the 2012-2016 mechanic `EX` stays the upper-case token `EX`,
// because `Charizard ex` (2003-2007, 2023+) and `M Charizard-EX` are different cards.
import { foldAccents } from './text';

/** Symbols that are part of a card's identity, spelled as the ASCII words players type. */
const SYMBOL_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[δΔ]/g, 'delta'],
  [/[★☆]/g, 'star'],
  [/[◇◆]/g, 'prism'],
  [/♀/g, 'female'],
  [/♂/g, 'male'],
  [/[αΑ]/g, 'alpha'],
  [/[βΒ]/g, 'beta'],
  [/[γΓ]/g, 'gamma'],
  [/&/g, 'and'],
];

/** A lone `!` or `?` names a card (`Unown [!]`, `Unown [?]`); attached ones (`Challenge!`) do not. */
const LONE_MARKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|[\s[(])!(?=$|[\s\])])/g, '$1 exclamation '],
  [/(^|[\s[(])\?(?=$|[\s\])])/g, '$1 question '],
];

// Private-use characters mark a hyphen-attached `ex` while the text is still being taken apart.
const HYPHEN_EX = '\uE000';
const LEVEL_X = '\uE001';
const OPEN = '\uE002';
const CLOSE = '\uE003';

/** How a space-separated `ex`/`EX` token was read. */
export interface CardKeyReading {
  /** The key read literally: hyphen-attached or upper-case `EX` → `EX`, otherwise `ex`. */
  key: string;
  /**
   * The key with every spaced ex/EX token read the other way, when the case does not tell them
   * apart (the whole input is lower or upper case, or the token is `Ex`/`eX`); else null.
   */
  alternateKey: string | null;
}

/** Reads a (cleaned) card name into its key, noting when ex/EX could not be told apart. */
export function readCardKey(cleaned: string): CardKeyReading {
  let text = foldAccents(cleaned).replace(/[\uE000-\uE003]/g, ' ');
  const caseTellsApart = /[a-z]/.test(text) && /[A-Z]/.test(text);
  text = text.replace(/\b(?:lv|level)\s*\.?\s*x\b/gi, ` ${LEVEL_X} `);
  for (const [pattern, word] of SYMBOL_WORDS) text = text.replace(pattern, ` ${word} `);
  text = text.replace(/'/g, '');
  for (const [pattern, replacement] of LONE_MARKS) text = text.replace(pattern, replacement);
  // `-EX`/`-ex`: only the 2012-2016 mechanic is written with a hyphen.
  text = text.replace(/-\s*ex(?![\p{L}\p{N}])/giu, ` ${HYPHEN_EX} `);
  // Brackets name a variant (`Unown [V]` is the letter, `Unown V` the mechanic), so they stay.
  text = text.replace(/\[([^\]]*)\]/g, ` ${OPEN} $1 ${CLOSE} `);

  const literal: string[] = [];
  const flipped: string[] = [];
  let ambiguous = false;
  let bracketStart = -1;
  for (const token of text.split(/[^\p{L}\p{N}\uE000-\uE003]+/u)) {
    if (token === '') continue;
    if (token === OPEN) bracketStart = literal.length;
    else if (token === CLOSE) {
      if (bracketStart !== -1 && bracketStart < literal.length) {
        for (const tokens of [literal, flipped]) {
          tokens[bracketStart] = `[${tokens[bracketStart]}`;
          tokens[tokens.length - 1] = `${tokens[tokens.length - 1]}]`;
        }
      }
      bracketStart = -1;
    } else if (token === HYPHEN_EX) {
      literal.push('EX');
      flipped.push('EX');
    } else if (token === LEVEL_X) {
      literal.push('lv.x');
      flipped.push('lv.x');
    } else if (/^ex$/i.test(token)) {
      const read = token === 'EX' ? 'EX' : 'ex';
      literal.push(read);
      flipped.push(read === 'EX' ? 'ex' : 'EX');
      if (!caseTellsApart || (token !== 'ex' && token !== 'EX')) ambiguous = true;
    } else {
      const lower = token.toLowerCase();
      literal.push(lower);
      flipped.push(lower);
    }
  }
  return { key: literal.join(' '), alternateKey: ambiguous ? flipped.join(' ') : null };
}

/** A key without its variant brackets: `unown [a]` → `unown a`, as people usually type it. */
export function unbracketedKey(key: string): string {
  return key.replace(/[[\]]/g, '');
}

/** The key of a card name, reading ex/EX literally (see {@link readCardKey}). */
export function cardNameKey(name: string): string {
  return readCardKey(name).key;
}

/**
 * Tokens that make a different card, not a spelling variant: mechanics, variant prefixes and the
 * words symbols fold to. A name differing in these is never a typo of another.
 */
export const IDENTITY_TOKENS: ReadonlySet<string> = new Set([
  'ex', 'EX', 'gx', 'v', 'vmax', 'vstar', 'union', 'break', 'lv.x', 'prime', 'legend', 'star',
  'delta', 'prism', 'g', 'gl', 'fb', 'c', 'e4', 'm', 'mega', 'radiant', 'shining', 'dark', 'light',
  'alolan', 'galarian', 'hisuian', 'paldean', 'female', 'male', 'alpha', 'beta', 'gamma',
  'exclamation', 'question',
]);

/**
 * The identity-bearing tokens of a key, sorted and joined: mechanic tokens, bracketed and
 * one-character tokens (`Unown [A]`, `M`) and tokens with digits (`Blaine's Quiz #1`).
 */
export function identitySignature(key: string): string {
  return key
    .split(' ')
    .filter((t) => IDENTITY_TOKENS.has(t) || t.length === 1 || /[[\]\p{N}]/u.test(t))
    .sort()
    .join(' ');
}
