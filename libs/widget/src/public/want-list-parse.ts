// Want lists as collectors paste them, one card per line, read into the fields of a buyer request —
// pure, no I/O. The card is the only part a line must have; a quantity, a set, a condition and a
// price are read when present:
//
//   4 Charizard Base NM            quantity first (`4`, `4x`, `x4`), then card, set, condition
//   Pikachu (Jungle) LP $12        the set in brackets anywhere, the price with its currency
//   Charizard, Base Set, PSA 9, 450 USD   fields split by `,` `;` `|`, a tab or ` - `
//   Dark Charizard                 the card alone: any printing, any condition, any price
//
// Without separators the set and condition are found at the end of the line by the catalogue:
// the longest trailing words the condition scale reads, then the longest trailing words that name
// a set (a set is split off only when what is left is a card the catalogue knows, or when the whole
// line is no known card). A price needs its currency (`$12`, `12 €`, `USD 12`) or a word (`max 12`,
// `under 12`, `@ 12`, `<= 12`): a bare number may be part of a card's name. Each line gets its own
// clear error (no card name, an unreadable price, too long…) — never an exception.
import { normalizeCardName, normalizeCondition, normalizePrice, normalizeSetName } from '@app/catalog';

/** Lines a want list may hold. */
export const MAX_WANT_LINES = 25;
/** The longest line read (a card, a set, a condition and a price fit in far less). */
export const MAX_WANT_LINE_LENGTH = 300;
/** The largest quantity read from a line. */
export const MAX_WANT_QUANTITY = 99;

/** What a line says, as typed (nothing normalized yet but the price). */
export interface ParsedWantLine {
  /** 1-based line number in the pasted text (blank lines count, so it is the line the buyer sees). */
  line: number;
  text: string;
  quantity: number;
  cardName: string;
  /** null: any printing. */
  setName: string | null;
  /** null: any condition. */
  condition: string | null;
  /** null: no price limit. */
  maxPriceMinor: number | null;
  /** The currency the price named (`$` → USD), else null. */
  currency: string | null;
}

export interface WantLineError {
  line: number;
  text: string;
  error: { code: WantLineErrorCode; message: string };
}

export type WantLineErrorCode = 'NO_CARD_NAME' | 'LINE_TOO_LONG' | 'UNREADABLE_PRICE' | 'UNREADABLE_QUANTITY' | 'UNKNOWN_PART';

export type WantLineReading = ParsedWantLine | WantLineError;

export const isWantLineError = (r: WantLineReading): r is WantLineError => 'error' in r;

const fail = (line: number, text: string, code: WantLineErrorCode, message: string): WantLineError => ({ line, text, error: { code, message } });

const SYMBOL_PRICE = String.raw`(?:[$€£]\s?\d[\d.,]*|\d[\d.,]*\s?[$€£]|(?:USD|EUR|GBP|CAD|AUD|JPY)\s?\d[\d.,]*|\d[\d.,]*\s?(?:USD|EUR|GBP|CAD|AUD|JPY))`;
/** A price with its currency, or after a word saying it is one: `$12`, `12.50 €`, `max 12`. */
const PRICE = new RegExp(String.raw`(?:^|\s)(?:(?:max(?:imum)?|under|up to|upto|at most|@|<=?|≤)\s*(${SYMBOL_PRICE}|\d[\d.,]*)|(${SYMBOL_PRICE}))(?=\s|$)`, 'i');
const QUANTITY = /^(?:(\d{1,4})\s*[x×]?|[x×]\s*(\d{1,4}))\s+(?=\S)/i;
const BRACKETED = /[([]([^()[\]]+)[)\]]/;
const SEPARATORS = /\s*[,;|\t]\s*|\s+[-–—]\s+/;
const BULLET = /^(?:[-*•·]|\d{1,3}[.)])\s+/;

/** Every non-blank line of a pasted list (at most `MAX_WANT_LINES` are read; the caller says when there are more). */
export function parseWantList(text: string): { lines: WantLineReading[]; extraLines: number } {
  const all = text.split(/\r\n|\r|\n/).map((t, i) => ({ t: t.trim(), line: i + 1 })).filter((l) => l.t !== '');
  return { lines: all.slice(0, MAX_WANT_LINES).map((l) => parseWantLine(l.t, l.line)), extraLines: Math.max(0, all.length - MAX_WANT_LINES) };
}

/** One line of a want list. */
export function parseWantLine(input: string, line = 1): WantLineReading {
  const text = input.trim();
  if (text.length > MAX_WANT_LINE_LENGTH) return fail(line, text.slice(0, 60) + '…', 'LINE_TOO_LONG', `A line is at most ${MAX_WANT_LINE_LENGTH} characters`);
  // A list's own numbering or bullets (`1. Charizard`, `- Charizard`) are not a quantity.
  let rest = text.replace(BULLET, '');

  let quantity = 1;
  const q = QUANTITY.exec(rest);
  if (q) {
    quantity = Number(q[1] ?? q[2]);
    if (!(quantity >= 1 && quantity <= MAX_WANT_QUANTITY)) {
      return fail(line, text, 'UNREADABLE_QUANTITY', `A quantity is 1 to ${MAX_WANT_QUANTITY}; "${q[0].trim()}" is not`);
    }
    rest = rest.slice(q[0].length);
  }

  let maxPriceMinor: number | null = null;
  let currency: string | null = null;
  const p = PRICE.exec(rest);
  if (p) {
    const price = normalizePrice((p[1] ?? p[2]).replace(/\s+/g, ''));
    if (!price.value) return fail(line, text, 'UNREADABLE_PRICE', `Could not read the price "${p[0].trim()}": ${price.warnings[0] ?? 'not a price'}`);
    if (price.value.amountMinor <= 0) return fail(line, text, 'UNREADABLE_PRICE', 'Enter a price above 0, or none for any price');
    maxPriceMinor = price.value.amountMinor;
    currency = price.value.currency;
    rest = `${rest.slice(0, p.index)} ${rest.slice(p.index + p[0].length)}`.trim();
  }

  let setName: string | null = null;
  const b = BRACKETED.exec(rest);
  if (b) {
    setName = b[1].trim();
    rest = `${rest.slice(0, b.index)} ${rest.slice(b.index + b[0].length)}`.replace(/\s+/g, ' ').trim();
  }

  let condition: string | null = null;
  let cardName: string;
  const fields = rest.split(SEPARATORS).map((f) => f.trim()).filter((f) => f !== '');
  if (fields.length > 1) {
    // Separated fields: the card first, then each other field is a condition or a set by what it reads as.
    [cardName] = fields;
    for (const field of fields.slice(1)) {
      if (condition === null && normalizeCondition(field).recognized) condition = field;
      else if (setName === null) setName = field;
      else return fail(line, text, 'UNKNOWN_PART', `Could not tell what "${field}" is: give the card, then its set, condition and price`);
    }
  } else {
    const words = (fields[0] ?? '').split(' ').filter((w) => w !== '');
    condition = takeTrailing(words, (t) => normalizeCondition(t).recognized, 3);
    if (setName === null) setName = trailingSet(words);
    cardName = words.join(' ');
  }

  if (!/\p{L}/u.test(cardName)) {
    return fail(line, text, 'NO_CARD_NAME', cardName === '' ? 'No card name on this line' : `"${cardName}" is not a card name`);
  }
  if (normalizeCondition(cardName).recognized && !normalizeCardName(cardName).recognized) {
    return fail(line, text, 'NO_CARD_NAME', `No card name on this line: "${cardName}" is a condition`);
  }
  return { line, text, quantity, cardName, setName: setName || null, condition, maxPriceMinor, currency };
}

/** Removes and answers the longest run of up to `most` trailing words (leaving one) that `reads`. */
function takeTrailing(words: string[], reads: (text: string) => boolean, most: number): string | null {
  for (let n = Math.min(most, words.length - 1); n >= 1; n -= 1) {
    const tail = words.slice(words.length - n).join(' ');
    if (reads(tail)) {
      words.splice(words.length - n, n);
      return tail;
    }
  }
  return null;
}

/**
 * The set at the end of a line without separators, removed from `words`: the longest trailing
 * words naming a set whose remaining words are a card the catalogue knows; else, when the whole
 * line is no known card, the longest trailing words naming a set; else none.
 */
function trailingSet(words: string[]): string | null {
  const splits: Array<{ n: number; knownCard: boolean }> = [];
  for (let n = Math.min(6, words.length - 1); n >= 1; n -= 1) {
    if (!normalizeSetName(words.slice(words.length - n).join(' ')).recognized) continue;
    splits.push({ n, knownCard: normalizeCardName(words.slice(0, words.length - n).join(' ')).recognized });
  }
  const chosen = splits.find((s) => s.knownCard) ?? (normalizeCardName(words.join(' ')).recognized ? undefined : splits[0]);
  if (!chosen) return null;
  return words.splice(words.length - chosen.n, chosen.n).join(' ');
}
