// normalizePrice: a typed price to integer minor units. Digits are combined as integers, never by
// multiplying a float, so `19.99` is exactly 1999. More than two decimals is refused, not rounded.
import type { Normalization, Price } from './catalog.types';

const SYMBOLS: ReadonlyArray<readonly [string, string]> = [
  ['US$', 'USD'],
  ['CA$', 'CAD'],
  ['C$', 'CAD'],
  ['AU$', 'AUD'],
  ['A$', 'AUD'],
  ['$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
];
/** Currencies with two minor digits that a card price is plausibly quoted in. */
const CODES = new Set(['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN']);
// A space, NBSP, narrow NBSP or apostrophe before exactly three digits groups thousands
// (`1 234,50`, `1'234.50`); anywhere else it makes the price unparseable.
const GROUPING = /(\d)[\s\u00A0\u202F'](?=\d{3}(?!\d))/g;
/** The largest whole part we accept: keeps amountMinor a safe integer. */
const MAX_WHOLE_DIGITS = 13;

type Parsed = { ok: true; amountMinor: number; notes: string[]; guessed: boolean } | { ok: false; why: string };

export function normalizePrice(input: string | number): Normalization<Price | null> {
  const given = String(input);
  if (typeof input === 'number') return normalizeNumber(input);
  const text = input.trim();
  if (text === '') return refuse(given, 'empty price');

  const found = findCurrencies(text);
  if ('why' in found) return refuse(given, found.why);
  const currencies = [...new Set(found.currencies.map((c) => c.code))];
  if (currencies.length > 1) return refuse(given, `price "${input}" names two currencies (${currencies.join(', ')})`);
  const number = found.rest;
  if (number.startsWith('-') || number.endsWith('-')) return refuse(given, `negative price "${input}"`);

  const parsed = parseLocalized(number);
  if (!parsed.ok) return refuse(given, parsed.why.replace('%s', input));
  const currencyNotes = found.currencies.slice(0, 1).map((c) => `read "${c.symbol}" as ${c.code}`);
  const value: Price = { amountMinor: parsed.amountMinor, currency: currencies[0] ?? null };
  return accept(given, value, [...currencyNotes, ...parsed.notes], parsed.guessed);
}

function normalizeNumber(input: number): Normalization<Price | null> {
  const given = String(input);
  if (!Number.isFinite(input)) return refuse(given, `${given} is not a price`);
  if (input < 0) return refuse(given, `negative price ${given}`);
  // String() is the shortest decimal that reads back as the same double: 12.5 → "12.5", while
  // 0.1 + 0.2 → "0.30000000000000004" (refused: more than 2 decimals). Exponent forms are either
  // far too large (1e+21) or far too precise (1e-7).
  if (/e/i.test(given)) return refuse(given, input >= 1 ? `price ${given} is too large` : `price ${given} has more than 2 decimals`);
  const parsed = parseDecimal(given, '.');
  return parsed.ok ? accept(given, { amountMinor: parsed.amountMinor, currency: null }, [], false) : refuse(given, parsed.why);
}

type Currencies = { currencies: Array<{ symbol: string; code: string }>; rest: string } | { why: string };

/** Takes currency symbols and ISO codes out of the text. */
function findCurrencies(text: string): Currencies {
  const currencies: Array<{ symbol: string; code: string }> = [];
  let rest = text;
  const iso = /^([A-Za-z]{3})\s*(?=[\d.,\-$€£])|(?<=[\d.,\s])([A-Za-z]{3})$/.exec(rest);
  if (iso) {
    const symbol = iso[1] ?? iso[2];
    if (!CODES.has(symbol.toUpperCase())) return { why: `unknown currency "${symbol}" in price "${text}"` };
    currencies.push({ symbol, code: symbol.toUpperCase() });
    rest = rest.replace(iso[0], '').trim();
  }
  for (const [symbol, code] of SYMBOLS) {
    const at = rest.indexOf(symbol);
    if (at === -1) continue;
    currencies.push({ symbol, code });
    rest = (rest.slice(0, at) + rest.slice(at + symbol.length)).trim();
  }
  return { currencies, rest };
}

/** Works out which of `.` and `,` is the decimal separator, then parses. */
function parseLocalized(raw: string): Parsed {
  const text = raw.replace(GROUPING, '$1');
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return { ok: false, why: 'unparseable price "%s"' };
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  let decimalMark: '.' | ',' | null;
  let guessed = false;
  const notes: string[] = [];
  if (lastDot !== -1 && lastComma !== -1) decimalMark = lastDot > lastComma ? '.' : ',';
  else if (lastDot === -1 && lastComma === -1) decimalMark = null;
  else {
    const mark = lastDot !== -1 ? '.' : ',';
    const repeated = text.indexOf(mark) !== text.lastIndexOf(mark);
    const digitsAfter = text.length - text.lastIndexOf(mark) - 1;
    // `1,234` is a thousands comma (a decimal comma would mean 3 decimals, refused anyway);
    // `1.234` stays a decimal point and is refused, since a lone dot is rarely grouping.
    guessed = !repeated && mark === ',' && digitsAfter === 3 && !/^0,/.test(text);
    if (repeated || guessed) {
      decimalMark = null;
      notes.push(`read "${mark}" as a thousands separator`);
    } else decimalMark = mark;
  }
  if (decimalMark === ',') notes.push('read "," as the decimal separator');
  const parsed = parseDecimal(text, decimalMark);
  return parsed.ok ? { ...parsed, notes, guessed } : parsed;
}

/** Parses digits with optional thousands grouping (the other mark) and a decimal mark. */
function parseDecimal(text: string, decimalMark: '.' | ',' | null): Parsed {
  const at = decimalMark === null ? -1 : text.lastIndexOf(decimalMark);
  const whole = at === -1 ? text : text.slice(0, at);
  const fraction = at === -1 ? '' : text.slice(at + 1);
  if (!/^\d*$/.test(fraction)) return { ok: false, why: 'unparseable price "%s"' };
  if (fraction.length > 2) return { ok: false, why: 'price "%s" has more than 2 decimals' };
  const groups = whole.split(/[.,]/);
  if (groups.length > 1 && (groups[0].length === 0 || groups[0].length > 3 || groups.slice(1).some((g) => g.length !== 3))) {
    return { ok: false, why: 'unparseable price "%s" (thousands separators in the wrong places)' };
  }
  const digits = groups.join('');
  if (digits === '' && fraction === '') return { ok: false, why: 'unparseable price "%s"' };
  if (digits.replace(/^0+/, '').length > MAX_WHOLE_DIGITS) return { ok: false, why: 'price "%s" is too large' };
  // Integer arithmetic on the digit strings: exact for every amount below 10^13 major units.
  const amountMinor = Number(digits || '0') * 100 + Number(fraction.padEnd(2, '0'));
  return { ok: true, amountMinor, notes: [], guessed: false };
}

function accept(input: string, value: Price, changes: string[], guessed: boolean): Normalization<Price | null> {
  return { value, input, changes, confidence: guessed ? 0.9 : 1, warnings: [], recognized: true };
}

function refuse(input: string, why: string): Normalization<Price | null> {
  return { value: null, input, changes: [], confidence: 0, warnings: [why.replace('%s', input)], recognized: false };
}
